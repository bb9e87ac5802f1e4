//! The `puncpat` parameter of the extended encoder and decoder.

/// Checks a puncturing pattern (`'11'`: GNU Radio's string of 0s and 1s, one per code bit of
/// a group, 0 where the bit is left out).
///
/// # Errors
/// Where it is not 0s and 1s, or leaves a bit out: radioflow does not puncture yet.
pub(crate) fn check(pattern: &str) -> Result<(), String> {
    let p = pattern.trim().trim_matches(['\'', '"']);
    if p.is_empty() || !p.chars().all(|c| c == '0' || c == '1') {
        return Err(format!("'{pattern}' is not a pattern of 0s and 1s"));
    }
    if p.contains('0') {
        return Err(format!(
            "'{pattern}' leaves code bits out: radioflow does not puncture yet (only patterns \
             of 1s, such as GNU Radio's default '11')"
        ));
    }
    Ok(())
}
