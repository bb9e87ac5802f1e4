//! [`ParamError`]: a parameter a kernel or a filter design cannot work with.

use std::fmt;

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
    /// Parameter `name` refused, and why.
    pub fn new(name: &'static str, reason: impl Into<String>) -> Self {
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
        format!("{} must be finite and positive", Num(v))
    })
}

/// `Ok` if `v` is finite, else an error for `name` saying so.
pub(crate) fn finite(name: &'static str, v: f64) -> Result<(), ParamError> {
    check(v.is_finite(), name, || format!("{} must be finite", Num(v)))
}

/// A number as messages show it: as Rust writes it (the shortest form that reads back the
/// same) for magnitudes from 1e-4 to 1e15, in exponent form beyond, so that a value given as
/// `1e300` is not echoed with 301 digits.
///
/// ```
/// use radioflow_dsp::Num;
/// assert_eq!(Num(2.4e6).to_string(), "2400000");
/// assert_eq!(Num(-0.25).to_string(), "-0.25");
/// assert_eq!(Num(1e300).to_string(), "1e300");
/// assert_eq!(Num(5.421010862427522e280).to_string(), "5.421010862427522e280");
/// assert_eq!(Num(1e-9).to_string(), "1e-9");
/// assert_eq!(Num(f64::NAN).to_string(), "NaN");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

impl From<f32> for Num {
    fn from(x: f32) -> Self {
        Num(f64::from(x))
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0.abs();
        if a == 0.0 || !a.is_finite() || (1e-4..1e15).contains(&a) {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:e}", self.0)
        }
    }
}
