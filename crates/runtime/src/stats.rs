//! Run-time statistics kept by every scheduler: per block (work calls, items, a log2 histogram
//! of items produced per call, time in work, starved/full steps, messages) and per thread
//! (context switches).
//!
//! Each block's counters live in a `BlockCounters` shared between the thread that steps the
//! block (the only writer: plain relaxed loads and stores, no read-modify-write) and any reader,
//! which can take a [`BlockStats`] snapshot while the graph runs. [`Counters`] chooses at run
//! time what is recorded; the `no-counters` feature compiles all of it out.

#[cfg(not(feature = "no-counters"))]
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Whether the counters are compiled in (`false` with the runtime's `no-counters` feature; every
/// statistic then reads zero).
pub const COUNTERS_COMPILED: bool = cfg!(not(feature = "no-counters"));

/// What a run records per block, chosen with
/// [`Flowgraph::set_counters`](crate::Flowgraph::set_counters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Counters {
    /// Nothing.
    Off,
    /// Counts only: work calls, items, histogram, starved/full steps, messages. No clock read.
    #[default]
    Counts,
    /// Counts and time in work: two clock reads (the CPU's time-stamp counter where usable)
    /// per work call.
    Timed,
}

impl Counters {
    /// Parses `off`, `counts` or `timed` (`on` is `timed`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "off" => Some(Self::Off),
            "counts" => Some(Self::Counts),
            "timed" | "on" => Some(Self::Timed),
            _ => None,
        }
    }
}

/// What one block did during a run (a snapshot; see [`Flowgraph::stats`](crate::Flowgraph::stats)
/// and [`Flowgraph::live_stats`](crate::Flowgraph::live_stats)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockStats {
    /// Calls of `work`.
    pub work_calls: u64,
    /// Items consumed, summed over all stream inputs.
    pub items_consumed: u64,
    /// Items produced, summed over all stream outputs.
    pub items_produced: u64,
    /// `produced_log2[k]`: work calls that produced `n` items with `2^k <= n < 2^(k+1)`
    /// (`k = 0` also counts calls that produced nothing; the last bin takes everything larger).
    pub produced_log2: [u64; 32],
    /// Nanoseconds spent in `work`, summed ([`Counters::Timed`] only).
    pub work_ns: u64,
    /// Shortest work call in nanoseconds (0 before the first timed call).
    pub work_ns_min: u64,
    /// Longest work call in nanoseconds.
    pub work_ns_max: u64,
    /// Steps that found an input empty (`work` not called).
    pub input_empty: u64,
    /// Steps that found an output full (`work` not called).
    pub output_full: u64,
    /// Messages handled.
    pub messages: u64,
    /// The events the block counts itself, by name, in the order its `start` hook made them
    /// ([`EventCounter`](crate::EventCounter)s: a radio's overflows). Kept with the counters
    /// compiled out too: they are the block's.
    pub events: Vec<(&'static str, u64)>,
}

impl BlockStats {
    /// Mean nanoseconds per work call (0 without timed calls).
    pub fn work_ns_avg(&self) -> f64 {
        if self.work_calls == 0 {
            0.0
        } else {
            self.work_ns as f64 / self.work_calls as f64
        }
    }
}

/// One block's live counters: written by the one thread stepping the block, readable anywhere.
#[derive(Debug, Default)]
pub(crate) struct BlockCounters {
    #[cfg(not(feature = "no-counters"))]
    c: crossbeam_utils::CachePadded<Cells>,
    /// Whether the block's thread is inside one of its steps (block code: messages, work,
    /// the stop hook), for [`Flowgraph::wait_timeout`](crate::Flowgraph::wait_timeout) to
    /// name a block that does not return. Kept even with the counters compiled out.
    busy: crossbeam_utils::CachePadded<std::sync::atomic::AtomicBool>,
    /// Whether the block has finished (written once, when it does), for
    /// [`Flowgraph::wait_timeout`](crate::Flowgraph::wait_timeout) to name the blocks a run
    /// still waits for.
    finished: std::sync::atomic::AtomicBool,
    /// The event counters the block's `start` hook made.
    events: Vec<crate::EventCounter>,
}

impl BlockCounters {
    /// Counters for a block whose `start` hook made `events`.
    pub(crate) fn with_events(events: Vec<crate::EventCounter>) -> Self {
        Self {
            events,
            ..Self::default()
        }
    }

    /// The block's own event counts now.
    fn events(&self) -> Vec<(&'static str, u64)> {
        self.events.iter().map(|e| (e.name(), e.get())).collect()
    }

    /// The block's thread enters a step.
    #[inline(always)]
    pub(crate) fn enter(&self) {
        self.busy.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The block's thread leaves a step.
    #[inline(always)]
    pub(crate) fn leave(&self) {
        self.busy.store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the block's thread is inside a step now.
    pub(crate) fn is_busy(&self) -> bool {
        self.busy.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The block finished.
    pub(crate) fn finish(&self) {
        self.finished
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the block has finished.
    pub(crate) fn is_finished(&self) -> bool {
        self.finished.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[cfg(not(feature = "no-counters"))]
#[derive(Debug, Default)]
struct Cells {
    work_calls: AtomicU64,
    items_consumed: AtomicU64,
    items_produced: AtomicU64,
    produced_log2: [AtomicU64; 32],
    /// In clock ticks (see `clock.rs`), converted by the snapshot.
    work_ticks: AtomicU64,
    work_ticks_min: AtomicU64,
    work_ticks_max: AtomicU64,
    input_empty: AtomicU64,
    output_full: AtomicU64,
    messages: AtomicU64,
}

/// `a += v` by the only writer: a relaxed load and store (a plain `add` to memory on x86).
#[cfg(not(feature = "no-counters"))]
#[inline(always)]
fn bump(a: &AtomicU64, v: u64) {
    a.store(a.load(Relaxed).wrapping_add(v), Relaxed);
}

#[cfg(not(feature = "no-counters"))]
impl BlockCounters {
    /// One work call that consumed and produced these many items.
    #[inline]
    pub(crate) fn record_work(&self, consumed: u64, produced: u64) {
        let c = &*self.c;
        bump(&c.work_calls, 1);
        bump(&c.items_consumed, consumed);
        bump(&c.items_produced, produced);
        bump(
            &c.produced_log2[(produced.max(1).ilog2() as usize).min(31)],
            1,
        );
    }

    /// The duration of one work call, in clock ticks.
    #[inline]
    pub(crate) fn record_time(&self, ticks: u64) {
        let c = &*self.c;
        bump(&c.work_ticks, ticks);
        let min = c.work_ticks_min.load(Relaxed);
        if min == 0 || ticks < min {
            c.work_ticks_min.store(ticks.max(1), Relaxed);
        }
        if ticks > c.work_ticks_max.load(Relaxed) {
            c.work_ticks_max.store(ticks, Relaxed);
        }
    }

    #[inline]
    pub(crate) fn record_idle(&self, input_empty: bool, output_full: bool) {
        bump(&self.c.input_empty, input_empty as u64);
        bump(&self.c.output_full, output_full as u64);
    }

    #[inline]
    pub(crate) fn record_messages(&self, n: u64) {
        bump(&self.c.messages, n);
    }

    /// The counters now (each field exact; fields may be from neighbouring work calls while the
    /// block runs).
    pub(crate) fn snapshot(&self) -> BlockStats {
        let c = &*self.c;
        // Zero ticks (no timed call) need no conversion, which would calibrate the clock.
        let ns = |a: &AtomicU64| match a.load(Relaxed) {
            0 => 0,
            t => crate::clock::to_ns(t).round() as u64,
        };
        BlockStats {
            work_calls: c.work_calls.load(Relaxed),
            items_consumed: c.items_consumed.load(Relaxed),
            items_produced: c.items_produced.load(Relaxed),
            produced_log2: std::array::from_fn(|k| c.produced_log2[k].load(Relaxed)),
            work_ns: ns(&c.work_ticks),
            work_ns_min: ns(&c.work_ticks_min),
            work_ns_max: ns(&c.work_ticks_max),
            input_empty: c.input_empty.load(Relaxed),
            output_full: c.output_full.load(Relaxed),
            messages: c.messages.load(Relaxed),
            events: self.events(),
        }
    }
}

#[cfg(feature = "no-counters")]
impl BlockCounters {
    #[inline(always)]
    pub(crate) fn record_work(&self, _consumed: u64, _produced: u64) {}
    #[inline(always)]
    pub(crate) fn record_time(&self, _ticks: u64) {}
    #[inline(always)]
    pub(crate) fn record_idle(&self, _input_empty: bool, _output_full: bool) {}
    #[inline(always)]
    pub(crate) fn record_messages(&self, _n: u64) {}
    pub(crate) fn snapshot(&self) -> BlockStats {
        BlockStats {
            events: self.events(),
            ..BlockStats::default()
        }
    }
}

/// What one scheduler thread went through during the last run (from `getrusage(RUSAGE_THREAD)`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadStats {
    /// Thread name (`rf-<block>`, `rf-flow-<n>`, `rf-single`).
    pub name: String,
    /// Context switches because the thread waited (slept on its parker, blocked in I/O).
    pub voluntary_switches: u64,
    /// Context switches because the kernel preempted the thread.
    pub involuntary_switches: u64,
    /// Time the thread ran on a CPU (user and system): next to the run's wall time, how busy
    /// the thread was.
    pub cpu_time: std::time::Duration,
}

impl ThreadStats {
    /// The calling thread's statistics so far.
    pub(crate) fn of_current_thread() -> Self {
        let name = std::thread::current().name().unwrap_or("").to_owned();
        // Miri cannot call getrusage; it reports zero switches like other systems.
        #[cfg(all(target_os = "linux", not(miri)))]
        {
            // SAFETY: getrusage writes into the zeroed struct we pass; RUSAGE_THREAD is valid on
            // Linux for the calling thread.
            let usage = unsafe {
                let mut u: libc::rusage = std::mem::zeroed();
                (libc::getrusage(libc::RUSAGE_THREAD, &mut u) == 0).then_some(u)
            };
            if let Some(u) = usage {
                return Self {
                    name,
                    voluntary_switches: u.ru_nvcsw as u64,
                    involuntary_switches: u.ru_nivcsw as u64,
                    cpu_time: timeval(u.ru_utime) + timeval(u.ru_stime),
                };
            }
        }
        Self {
            name,
            ..Self::default()
        }
    }
}

#[cfg(all(target_os = "linux", not(miri)))]
fn timeval(t: libc::timeval) -> std::time::Duration {
    std::time::Duration::new(
        t.tv_sec.max(0) as u64,
        (t.tv_usec.clamp(0, 999_999) * 1000) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(feature = "no-counters", ignore = "counters compiled out")]
    fn histogram_bins_by_powers_of_two() {
        let c = BlockCounters::default();
        for n in [0, 1, 2, 3, 4, 1023, 1024, 4096] {
            c.record_work(2 * n, n);
        }
        let s = c.snapshot();
        assert_eq!(s.items_consumed, 2 * s.items_produced);
        assert_eq!(s.work_calls, 8);
        assert_eq!(s.items_produced, 1 + 2 + 3 + 4 + 1023 + 1024 + 4096);
        assert_eq!(s.produced_log2[0], 2); // 0 and 1
        assert_eq!(s.produced_log2[1], 2); // 2, 3
        assert_eq!(s.produced_log2[2], 1); // 4
        assert_eq!(s.produced_log2[9], 1); // 1023
        assert_eq!(s.produced_log2[10], 1); // 1024
        assert_eq!(s.produced_log2[12], 1); // 4096
    }

    #[test]
    fn a_thread_sees_its_own_context_switches() {
        // Whatever the machine's load: sleeping adds switches, spinning adds CPU time, and a
        // thread's CPU time never grows faster than the wall clock.
        let (after_sleep, after_spin, wall) = std::thread::Builder::new()
            .name("stats-test".into())
            .spawn(|| {
                for _ in 0..20 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                let after_sleep = ThreadStats::of_current_thread();
                // Spin until the thread has run 30 ms more (within a minute of wall time).
                let t0 = std::time::Instant::now();
                let mut x = 0u64;
                let mut now = after_sleep.clone();
                while now.cpu_time < after_sleep.cpu_time + std::time::Duration::from_millis(30)
                    && t0.elapsed() < std::time::Duration::from_secs(60)
                {
                    for _ in 0..10_000 {
                        x = std::hint::black_box(x.wrapping_add(1));
                    }
                    now = ThreadStats::of_current_thread();
                }
                (after_sleep, now, t0.elapsed())
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(after_spin.name, "stats-test");
        #[cfg(all(target_os = "linux", not(miri)))]
        {
            assert!(after_sleep.voluntary_switches >= 20, "{after_sleep:?}");
            let spun = after_spin.cpu_time - after_sleep.cpu_time;
            assert!(
                spun >= std::time::Duration::from_millis(30),
                "no CPU time in a minute of spinning: {after_spin:?}"
            );
            // The kernel accounts in ticks: allow one of slack.
            assert!(
                spun <= wall + std::time::Duration::from_millis(10),
                "{spun:?} > {wall:?}"
            );
        }
        let _ = wall;
    }
}
