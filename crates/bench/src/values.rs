//! Parsers of the command line's numeric values: each refuses what the command cannot use
//! (zero where it makes no sense, negative, not finite, absurdly large) with a message that
//! says what it takes; clap names the argument. The experiments' arguments and the `radioflow`
//! binary's other commands share them (the `cli_values` fuzz target compiles this file alone,
//! so it uses nothing but `std`).

/// The largest count [`count`] takes (exact as an `f64` too).
const MAX_COUNT: u64 = 1_000_000_000_000_000_000;

/// A count of at least 1, written as an integer or in exponent form (`1e8`).
pub fn count(s: &str) -> Result<u64, String> {
    let refused = || format!("'{s}' is not a whole count between 1 and 1e18");
    // Digits are taken exactly (a float holds whole numbers exactly only up to 2^53).
    if let Ok(n) = s.trim().parse::<u64>() {
        return (1..=MAX_COUNT)
            .contains(&n)
            .then_some(n)
            .ok_or_else(refused);
    }
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number"))?;
    if !(v.is_finite() && v >= 1.0 && v.fract() == 0.0 && v <= MAX_COUNT as f64) {
        return Err(refused());
    }
    Ok(v as u64)
}

/// A count of at least 1 that sizes memory or threads: at most `max`.
fn bounded(s: &str, max: u64) -> Result<usize, String> {
    let v = count(s)?;
    if v > max {
        return Err(format!("{v} is too large (at most {max})"));
    }
    Ok(v as usize)
}

/// Threads, replicas, pipes, stages, taps...: 1 to 4096.
pub fn small(s: &str) -> Result<usize, String> {
    bounded(s, 4096)
}

/// Bytes of a buffer or chunk: 1 byte to 1 TiB.
pub fn bytes(s: &str) -> Result<usize, String> {
    bounded(s, 1 << 40)
}

/// Messages built in memory before a run (about 600 bytes each): 1 to 10 million.
pub fn messages(s: &str) -> Result<u64, String> {
    bounded(s, 10_000_000)
        .map(|v| v as u64)
        .map_err(|e| format!("{e}: a burst is built in memory before the run"))
}

/// A finite number > 0 (a rate, a frequency).
pub fn positive(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number"))?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("'{s}' is not a finite number > 0"));
    }
    Ok(v)
}

/// Seconds: a finite number > 0, at most a day.
pub fn seconds(s: &str) -> Result<f64, String> {
    let v = positive(s)?;
    if v > 86_400.0 {
        return Err(format!("{} s is more than a day", radioflow_dsp::Num(v)));
    }
    Ok(v)
}

/// `--token`: refused when empty (`--token "$TOKEN"` with the variable unset), which would
/// let anyone in.
pub fn token(value: &str) -> Result<String, String> {
    if value.trim().is_empty() {
        return Err(
            "an empty token would let anyone in (is the variable holding it set?); \
                    give a token, or leave --token out"
                .into(),
        );
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_refused_with_what_they_take() {
        assert_eq!(count("1e8"), Ok(100_000_000));
        assert_eq!(
            count("0").unwrap_err(),
            "'0' is not a whole count between 1 and 1e18"
        );
        assert!(count("-3").is_err() && count("2.5").is_err() && count("x").is_err());
        assert!(count("1e300").is_err() && count("nan").is_err() && count("").is_err());
        // Beyond 2^53 a float would round: digits are taken as written.
        assert_eq!(count("9007199254740993"), Ok(9_007_199_254_740_993));
        assert!(count("1000000000000000001").is_err());
        assert_eq!(small("4096"), Ok(4096));
        assert_eq!(
            small("4097").unwrap_err(),
            "4097 is too large (at most 4096)"
        );
        assert!(messages("1e9").unwrap_err().contains("built in memory"));
        assert_eq!(positive("1000.5"), Ok(1000.5));
        assert!(positive("0").is_err() && positive("-1").is_err() && positive("inf").is_err());
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert!(seconds("1e300").is_err() && seconds("nan").is_err() && seconds("-1").is_err());
        assert_eq!(seconds("1e300").unwrap_err(), "1e300 s is more than a day");
    }
}
