//! GNU Radio's window functions in GRC expressions: `window.blackmanharris(1024)`,
//! `fft.window.hann(10)`, `window.kaiser(64, 5.0)` and the like (gr-fft's `fft.window`, whose
//! lists `fft_vxx`'s `window` parameter takes), from radioflow's own windows
//! (`radioflow_dsp::firdes`), in float32 as GNU Radio's.

use super::args::bind;
use super::expr_error::{ExprError, MAX_ITEMS};
use super::value::{Budget, Value};
use radioflow_dsp::firdes::{self, Window};
use radioflow_runtime::echo::cut;

type Result<T> = std::result::Result<T, ExprError>;

/// The coefficients of GNU Radio's cosine-sum windows (`fft::window::coswindow`), by name.
fn cosines(name: &str) -> Option<&'static [f64]> {
    Some(match name {
        "hamming" => &[0.54, 0.46],
        "hann" | "hanning" => &[0.5, 0.5],
        "blackman" => &[0.42, 0.5, 0.08],
        "blackman3" => &[0.21747, 0.45325, 0.28256, 0.04672],
        "blackman4" => &[0.084037, 0.29145, 0.375696, 0.20762, 0.041194],
        "nuttall" | "blackman_nuttall" => &[0.3635819, 0.4891775, 0.1365995, 0.0106411],
        "nuttall_cfd" => &[0.355768, 0.487396, 0.144232, 0.012604],
        _ => return None,
    })
}

/// Blackman-Harris by its attenuation in dB (GNU Radio knows these four).
fn blackman_harris(atten: i64) -> Option<&'static [f64]> {
    Some(match atten {
        61 => &[0.42323, 0.49755, 0.07922],
        67 => &[0.44959, 0.49364, 0.05677],
        74 => &[0.40271, 0.49703, 0.09392, 0.00183],
        92 => &[0.35875, 0.48829, 0.14128, 0.01168],
        _ => return None,
    })
}

/// GNU Radio's window functions not evaluated here yet (their formulas are not checked
/// against GNU Radio's), refused with that reason.
const NOT_YET: &[&str] = &[
    "blackman2",
    "flattop",
    "parzen",
    "riemann",
    "gaussian",
    "tukey",
    "exponential",
    "build",
    "coswindow",
];

/// The window function's name, for `window.NAME` and `fft.window.NAME`.
fn base(name: &str) -> Option<&str> {
    name.strip_prefix("fft.window.")
        .or_else(|| name.strip_prefix("window."))
}

/// Whether `name` is a function of this module.
pub(super) fn is_function(name: &str) -> bool {
    base(name).is_some_and(|b| {
        cosines(b).is_some()
            || NOT_YET.contains(&b)
            || matches!(
                b,
                "rectangular"
                    | "blackman_harris"
                    | "blackmanharris"
                    | "kaiser"
                    | "bartlett"
                    | "welch"
            )
    })
}

/// Calls window function `name` (one of [`is_function`]'s).
pub(super) fn call(
    name: &str,
    args: &[&Value],
    kwargs: &[(&str, &Value)],
    budget: &mut Budget,
) -> Result<Value> {
    let f = base(name).unwrap_or(name);
    if NOT_YET.contains(&f) {
        return Err(ExprError::Unsupported(format!(
            "'{}' is not supported yet: the window functions evaluated are rectangular, hamming, \
             hann, blackman, blackman3, blackman4, blackman_harris, nuttall, nuttall_cfd, \
             kaiser, bartlett and welch (write the coefficients out instead)",
            cut(name)
        )));
    }
    let params: &[&str] = match f {
        "blackman_harris" | "blackmanharris" => &["ntaps", "atten"],
        "kaiser" => &["ntaps", "beta"],
        _ => &["ntaps"],
    };
    let required = if f == "kaiser" { 2 } else { 1 };
    let bound = bind(name, params, required, args, kwargs, |_| None)?;
    let invalid = |what: String| ExprError::InvalidValue(format!("{}: {what}", cut(name)));
    let ntaps = match &*bound[0] {
        Value::Int(n) => *n,
        other => {
            return Err(invalid(format!(
                "ntaps must be an integer, not {}",
                other.type_name()
            )))
        }
    };
    // GNU Radio's cosines divide by ntaps - 1 (one tap is NaN there); its rectangular window
    // of no taps is empty.
    let least = if f == "rectangular" || f == "welch" {
        0
    } else {
        2
    };
    if ntaps < least || ntaps > MAX_ITEMS as i64 {
        return Err(invalid(format!(
            "ntaps = {ntaps} must be between {least} and {MAX_ITEMS}"
        )));
    }
    let n = ntaps as usize;
    budget.make(n, 1)?;
    let w = match f {
        "rectangular" => vec![1.0; n],
        "bartlett" => firdes::bartlett(n),
        "welch" => firdes::welch(n),
        "kaiser" => {
            let beta = bound[1]
                .as_f64()
                .ok_or_else(|| invalid("beta must be a number".into()))?;
            if !(beta.is_finite() && beta >= 0.0) {
                return Err(invalid(format!(
                    "beta = {beta} must be finite and at least 0"
                )));
            }
            Window::Kaiser { beta }.coefficients(n)
        }
        "blackman_harris" | "blackmanharris" => {
            // GNU Radio's default attenuation is 92 dB.
            let atten = match bound.get(1).map(|v| &**v) {
                None => blackman_harris(92),
                Some(Value::Int(a)) => blackman_harris(*a),
                Some(_) => None,
            };
            let c = atten.ok_or_else(|| {
                invalid(
                    "atten must be 61, 67, 74 or 92 (GNU Radio's Blackman-Harris windows)".into(),
                )
            })?;
            firdes::cosine_sum(n, c)
        }
        _ => firdes::cosine_sum(n, cosines(f).unwrap_or(&[1.0])),
    };
    // GNU Radio's windows are float32.
    Ok(Value::List(
        w.into_iter()
            .map(|x| Value::Float(f64::from(x as f32)))
            .collect(),
    ))
}
