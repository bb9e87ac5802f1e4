//! The command line's numeric values (crates/bench/src/values.rs, which the experiments'
//! arguments and the `radioflow` binary's other commands share; compiled into this target
//! alone, without the bench crate's dependencies): any text is a value or an error, never a
//! panic, and a value accepted is one the commands can use as they do (a count or size within
//! its bound, seconds that make a `Duration`, a finite rate > 0).
#![no_main]

#[path = "../../crates/bench/src/values.rs"]
#[allow(dead_code)]
mod values;

use libfuzzer_sys::fuzz_target;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(n) = values::count(text) {
        assert!((1..=1_000_000_000_000_000_000).contains(&n), "count {n} from {text:?}");
        // A whole number is taken as written, not rounded through a float.
        if let Ok(exact) = text.trim().parse::<u64>() {
            assert_eq!(n, exact, "count from {text:?}");
        }
    }
    if let Ok(n) = values::small(text) {
        assert!((1..=4096).contains(&n), "small {n} from {text:?}");
    }
    if let Ok(n) = values::bytes(text) {
        assert!((1..=1usize << 40).contains(&n), "bytes {n} from {text:?}");
    }
    if let Ok(n) = values::messages(text) {
        assert!((1..=10_000_000).contains(&n), "messages {n} from {text:?}");
    }
    if let Ok(v) = values::positive(text) {
        assert!(v.is_finite() && v > 0.0, "positive {v} from {text:?}");
    }
    if let Ok(v) = values::seconds(text) {
        // `profile --live`, `soak --duration`: made into a Duration, as the commands do.
        let d = Duration::from_secs_f64(v);
        assert!(d <= Duration::from_secs(86_400), "seconds {v} from {text:?}");
    }
});
