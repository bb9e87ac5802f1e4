//! [`ParamError`]: a parameter a kernel or a filter design cannot work with.

/// A parameter given to a constructor or a filter design is out of range: which one, and why.
///
/// ```
/// use radioflow_dsp::firdes;
/// let err = firdes::low_pass(1.0, 48_000.0, 30_000.0, 1_000.0, firdes::Window::Hamming)
///     .unwrap_err();
/// assert_eq!(err.name, "cutoff");
/// assert_eq!(err.to_string(), "invalid cutoff: 30000 must be in (0, 24000]");
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("invalid {name}: {reason}")]
pub struct ParamError {
    /// The parameter's name, as in the function's signature.
    pub name: &'static str,
    /// What is wrong with the value given.
    pub reason: String,
}

impl ParamError {
    pub(crate) fn new(name: &'static str, reason: impl Into<String>) -> Self {
        Self {
            name,
            reason: reason.into(),
        }
    }
}

/// `Ok` if `ok`, else a [`ParamError`] for `name` with the reason `reason()`.
pub(crate) fn check(
    ok: bool,
    name: &'static str,
    reason: impl FnOnce() -> String,
) -> Result<(), ParamError> {
    if ok {
        Ok(())
    } else {
        Err(ParamError::new(name, reason()))
    }
}

/// `Ok` if `v` is finite and above 0, else an error for `name` saying so.
pub(crate) fn positive(name: &'static str, v: f64) -> Result<(), ParamError> {
    check(v.is_finite() && v > 0.0, name, || {
        format!("{v} must be finite and positive")
    })
}

/// `Ok` if `v` is finite, else an error for `name` saying so.
pub(crate) fn finite(name: &'static str, v: f64) -> Result<(), ParamError> {
    check(v.is_finite(), name, || format!("{v} must be finite"))
}
