//! What a chunk costs to cross from one core to another on the running machine, measured once
//! per process: the costs a `flow` cut is judged by (`cut.rs`).
//!
//! Two threads, pinned to two CPUs where the system allows, pass a buffer of
//! [`PROBE_BYTES`] back and forth: one writes it, the other reads it, then the other way round.
//! Each side times its pass over lines the other core holds and, right after, the same pass
//! over lines in its own cache; the difference per byte is what a cut's reader pays for each
//! byte that crosses (and the writer for taking its lines back). The wake-up is timed as the
//! call that wakes a sleeping thread (what the side that hands a chunk over pays when the
//! other side sleeps). The medians of [`PROBE_ROUNDS`] rounds are kept. A few milliseconds on
//! a quiet machine (more on a loaded one: the two threads take turns), on a thread of its own
//! that the first `flow` run that may cut starts; a worker that wants to cut before the costs
//! are known goes on measuring its chain until they are.
//!
//! Under Miri, loom and valgrind nothing is measured (the probe's threads would only slow
//! them down, or race in their eyes): the figures of an Intel Xeon guest stand in
//! ([`Crossing::FALLBACK`]).

use std::sync::OnceLock;

/// Bytes passed between the two probe threads per round (the chunk size of a 2 MiB L2).
const PROBE_BYTES: usize = 256 * 1024;

/// Rounds of the probe; the median of each cost is kept.
const PROBE_ROUNDS: usize = 7;

/// The costs of handing a chunk from one core to another, measured on this machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Crossing {
    /// Extra nanoseconds per byte to read what another core wrote (against reading it from
    /// this core's cache).
    pub(crate) read_ns_per_byte: f64,
    /// Extra nanoseconds per byte to write lines another core has read.
    pub(crate) write_ns_per_byte: f64,
    /// Nanoseconds the call that wakes a sleeping thread takes.
    pub(crate) wake_ns: f64,
}

impl Crossing {
    /// What an Intel Xeon guest measured (2026-11-25): the `fm` chain's head block read a
    /// 256 KiB chunk written on another core in 40.9 us against 4.8 us on one thread
    /// (0.14 ns/B, charged to both sides), and a wake-up was taken to cost 10 us.
    pub(crate) const FALLBACK: Crossing = Crossing {
        read_ns_per_byte: 0.15,
        write_ns_per_byte: 0.15,
        wake_ns: 10_000.0,
    };

    /// Starts measuring the costs on this machine, once per process, on a thread of its own
    /// (the run does not wait for it; [`get`](Self::get) says when they are known).
    pub(crate) fn start_measuring() {
        static STARTED: std::sync::Once = std::sync::Once::new();
        STARTED.call_once(|| {
            if cfg!(any(miri, feature = "loom", feature = "valgrind")) {
                let _ = MEASURED.set(Crossing::FALLBACK);
                return;
            }
            let spawned = std::thread::Builder::new()
                .name("rf-probe".into())
                .spawn(|| {
                    let t0 = std::time::Instant::now();
                    let c = probe().unwrap_or(Crossing::FALLBACK);
                    tracing::debug!(
                        "flow: crossing costs on this machine: read {:.3} ns/B, write {:.3} \
                         ns/B, wake-up {:.1} us (measured in {:.1} ms)",
                        c.read_ns_per_byte,
                        c.write_ns_per_byte,
                        c.wake_ns / 1e3,
                        t0.elapsed().as_secs_f64() * 1e3
                    );
                    let _ = MEASURED.set(c);
                });
            if spawned.is_err() {
                let _ = MEASURED.set(Crossing::FALLBACK);
            }
        });
    }

    /// The costs on this machine, once measured (see [`start_measuring`](Self::start_measuring)).
    pub(crate) fn get() -> Option<Crossing> {
        MEASURED.get().copied()
    }
}

/// The costs measured on this machine.
static MEASURED: OnceLock<Crossing> = OnceLock::new();

/// Which pass a probe record timed.
#[derive(Clone, Copy, PartialEq)]
enum Pass {
    Write,
    Read,
}

/// Runs the two probe threads; `None` if a thread cannot be started.
fn probe() -> Option<Crossing> {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::*};
    use std::time::Instant;

    const GIVE_UP: usize = usize::MAX;
    let buffer: Vec<AtomicU64> = (0..PROBE_BYTES / 8).map(|_| AtomicU64::new(0)).collect();
    // Turn `t`: side `t % 2` writes the buffer (twice: over the other core's lines, then over
    // its own) and side `1 - t % 2` then reads it (twice: from the other core, then its own).
    let turn = AtomicUsize::new(0);
    let turns = 2 * PROBE_ROUNDS + 1;
    let pin = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    let write = |buffer: &[AtomicU64], v: u64| {
        let t0 = Instant::now();
        for x in buffer {
            x.store(v, Relaxed);
        }
        t0.elapsed().as_nanos() as f64
    };
    let read = |buffer: &[AtomicU64]| {
        let t0 = Instant::now();
        let s = buffer.iter().fold(0u64, |s, x| s ^ x.load(Relaxed));
        std::hint::black_box(s);
        t0.elapsed().as_nanos() as f64
    };
    let side = |me: usize| {
        let (buffer, turn) = (&buffer, &turn);
        move || {
            if pin {
                let _ = super::pin_current_thread(&[me]);
            }
            // (pass, over the other core's lines, over this core's) in ns.
            let mut times = Vec::with_capacity(turns);
            for t in 0..turns {
                // Waiting for the other side sleeps: the probe runs beside the workers.
                let mut waits = 0u32;
                loop {
                    match turn.load(Acquire) {
                        GIVE_UP => return times,
                        now if now == 2 * t + usize::from(t % 2 != me) => break,
                        _ if waits < 64 => std::hint::spin_loop(),
                        _ => std::thread::sleep(std::time::Duration::from_micros(20)),
                    }
                    waits += 1;
                }
                let pass = if t % 2 == me {
                    (
                        Pass::Write,
                        write(buffer, 2 * t as u64),
                        write(buffer, 2 * t as u64 + 1),
                    )
                } else {
                    (Pass::Read, read(buffer), read(buffer))
                };
                // Turn 0 wrote lines nobody had read: a warm-up.
                if t > 0 {
                    times.push(pass);
                }
                turn.fetch_add(1, Release);
            }
            times
        }
    };
    let records = std::thread::scope(|s| {
        let a = std::thread::Builder::new().spawn_scoped(s, side(0)).ok()?;
        let Ok(b) = std::thread::Builder::new().spawn_scoped(s, side(1)) else {
            turn.store(GIVE_UP, Release);
            let _ = a.join();
            return None;
        };
        let mut a = a.join().ok()?;
        a.extend(b.join().ok()?);
        Some(a)
    })?;
    let extra = |kind: Pass| {
        let mut v: Vec<f64> = records
            .iter()
            .filter(|r| r.0 == kind)
            .map(|r| (r.1 - r.2).max(0.0))
            .collect();
        median(&mut v) / PROBE_BYTES as f64
    };
    Some(Crossing {
        read_ns_per_byte: extra(Pass::Read),
        write_ns_per_byte: extra(Pass::Write),
        wake_ns: wake_cost()?,
    })
}

/// The median call that wakes a parked thread, in ns.
fn wake_cost() -> Option<f64> {
    use std::sync::atomic::{AtomicBool, Ordering::*};
    use std::time::Instant;
    let asleep = AtomicBool::new(false);
    let mut calls = Vec::with_capacity(PROBE_ROUNDS);
    std::thread::scope(|s| {
        let sleeper = std::thread::Builder::new()
            .spawn_scoped(s, || {
                for _ in 0..PROBE_ROUNDS {
                    asleep.store(true, Release);
                    // `park` may return spuriously: sleep until the waker clears the flag.
                    while asleep.load(Acquire) {
                        std::thread::park();
                    }
                }
            })
            .ok()?;
        for _ in 0..PROBE_ROUNDS {
            while !asleep.load(Acquire) {
                std::thread::yield_now();
            }
            // Give the sleeper time to enter the kernel's wait.
            std::thread::sleep(std::time::Duration::from_micros(200));
            asleep.store(false, Release);
            let t0 = Instant::now();
            sleeper.thread().unpark();
            calls.push(t0.elapsed().as_nanos() as f64);
        }
        sleeper.join().ok()
    })?;
    Some(median(&mut calls))
}

/// The median of `v` (0 for none).
fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(not(feature = "valgrind"))]
    fn the_probe_measures_finite_costs() {
        let c = probe().expect("two threads start");
        for v in [c.read_ns_per_byte, c.write_ns_per_byte, c.wake_ns] {
            assert!(v.is_finite() && v >= 0.0, "{c:?}");
        }
        Crossing::start_measuring();
        Crossing::start_measuring();
        while Crossing::get().is_none() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
