//! The clock of the time counters and traces: the CPU's time-stamp counter where the kernel
//! itself trusts it (x86-64 with the `tsc` clocksource or an invariant TSC), else
//! [`Instant`]. Reading the TSC costs a few nanoseconds and no system call; ticks are turned
//! into nanoseconds with a rate measured once per process against [`Instant`].

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How ticks are read and converted, decided once.
struct Source {
    tsc: bool,
    /// Nanoseconds per tick.
    ns_per_tick: f64,
    /// The `Instant` ticks count from when the TSC is not used.
    epoch: Instant,
}

static SOURCE: OnceLock<Source> = OnceLock::new();

fn source() -> &'static Source {
    SOURCE.get_or_init(|| {
        let epoch = Instant::now();
        if !tsc_usable() {
            return Source {
                tsc: false,
                ns_per_tick: 1.0,
                epoch,
            };
        }
        // 2 ms against Instant: the rate to better than 1e-4 (each end read as a tight pair,
        // so a thread switched out between the two clocks' readings does not skew it).
        let (i0, t0) = paired(read_tsc);
        while i0.elapsed() < Duration::from_millis(2) {
            std::hint::spin_loop();
        }
        let (i1, t1) = paired(read_tsc);
        let ns = (i1 - i0).as_nanos() as f64;
        let ticks = t1.wrapping_sub(t0) as f64;
        if ticks <= 0.0 {
            return Source {
                tsc: false,
                ns_per_tick: 1.0,
                epoch,
            };
        }
        Source {
            tsc: true,
            ns_per_tick: ns / ticks,
            epoch,
        }
    })
}

/// An [`Instant`] and a reading of `ticks` taken at the same moment: of a few tries
/// (`ticks`, `Instant::now()`, `ticks`), the one whose two tick readings are closest, with the
/// ticks halfway between them. A single (`Instant`, ticks) pair is off by however long the
/// thread was switched out between the two readings (tens of milliseconds on a loaded machine
/// or under valgrind, which runs one thread at a time); all tries being interrupted is
/// what it would take to skew this one.
fn paired(ticks: impl Fn() -> u64) -> (Instant, u64) {
    let mut best = (Instant::now(), 0, u64::MAX);
    for _ in 0..16 {
        let before = ticks();
        let instant = Instant::now();
        let after = ticks();
        let spread = after.wrapping_sub(before);
        if spread < best.2 {
            best = (instant, before + spread / 2, spread);
        }
    }
    (best.0, best.1)
}

/// Prepares the clock (calibrates the TSC; about 2 ms the first time in a process). Call before
/// a run, so the first [`now`] on a hot path does not calibrate.
pub(crate) fn init() {
    source();
}

/// The current time in ticks.
#[inline]
pub(crate) fn now() -> u64 {
    let s = source();
    if s.tsc {
        read_tsc()
    } else {
        s.epoch.elapsed().as_nanos() as u64
    }
}

/// `ticks` in nanoseconds.
pub(crate) fn to_ns(ticks: u64) -> f64 {
    ticks as f64 * source().ns_per_tick
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
fn tsc_usable() -> bool {
    let max = std::arch::x86_64::__cpuid(0x8000_0000).eax;
    let invariant =
        max >= 0x8000_0007 && std::arch::x86_64::__cpuid(0x8000_0007).edx & (1 << 8) != 0;
    invariant
        || std::fs::read_to_string(
            "/sys/devices/system/clocksource/clocksource0/current_clocksource",
        )
        .is_ok_and(|s| s.trim() == "tsc")
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn tsc_usable() -> bool {
    false
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline]
fn read_tsc() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86-64 (user mode may read it unless the kernel
    // disabled it, which Linux does not by default).
    unsafe { std::arch::x86_64::_rdtsc() }
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
#[inline]
fn read_tsc() -> u64 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_advance_and_convert_to_about_the_elapsed_time() {
        init();
        let (i0, t0) = paired(now);
        std::thread::sleep(Duration::from_millis(20));
        let (i1, t1) = paired(now);
        assert!(t1 > t0);
        let measured = to_ns(t1 - t0);
        let real = (i1 - i0).as_nanos() as f64;
        // Same interval measured by two clocks, each end read as a tight pair (a single pair
        // read across a thread switch failed this under helgrind on a loaded machine: 18x).
        // Natively the calibration is good to 1e-4; under valgrind (scripts/valgrind.sh) its
        // 2 ms window runs slowly: only check that ticks convert to about the right scale.
        assert!(measured <= real * 1.5, "{measured} vs {real}");
        assert!(measured >= real * 0.5, "{measured} vs {real}");
    }
}
