//! GNU Radio's `firdes` filter designs and `window`s for Python (`radioflow.gnuradio.filter`),
//! the same functions the blocks design their taps with, so that taps a script designs in
//! Python are the ones GNU Radio's `firdes` gives.

use crate::errors::value_error;
use num_complex::Complex32;
use pyo3::prelude::*;
use radioflow_blocks::dsp::firdes::{self, Window};

/// Adds the designs to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(firdes_real, m)?)?;
    m.add_function(wrap_pyfunction!(firdes_complex_band_pass, m)?)?;
    m.add_function(wrap_pyfunction!(window_coefficients, m)?)?;
    Ok(())
}

/// The window GNU Radio's `fft.window` names (`hamming`, `hann`, `blackman`, `rectangular`,
/// `kaiser`, `blackman_harris`) with Kaiser's `beta`.
fn window(name: &str, beta: f64) -> PyResult<Window> {
    Ok(match name {
        "hamming" => Window::Hamming,
        "hann" | "hanning" => Window::Hann,
        "blackman" => Window::Blackman,
        "rectangular" => Window::Rectangular,
        "kaiser" => Window::Kaiser { beta },
        "blackman_harris" => Window::BlackmanHarris,
        other => {
            return Err(value_error(format!(
                "window {other} is not one radioflow's firdes designs with (hamming, hann, \
                 blackman, rectangular, kaiser, blackman_harris)"
            )))
        }
    })
}

/// Real taps of firdes design `design` (GNU Radio's function name: `low_pass`, `low_pass_2`,
/// `high_pass`, `high_pass_2`, `band_pass`, `band_pass_2`, `band_reject`, `band_reject_2`,
/// `root_raised_cosine`, `gaussian`, `hilbert`) with GNU Radio's positional arguments `args`
/// up to the window, then the window by name and Kaiser's `beta`.
#[pyfunction]
fn firdes_real(design: &str, args: Vec<f64>, win: &str, beta: f64) -> PyResult<Vec<f32>> {
    let w = window(win, beta)?;
    let a = |i: usize| args.get(i).copied().unwrap_or(f64::NAN);
    let n = |i: usize| a(i) as usize;
    let want = |k: usize| -> PyResult<()> {
        if args.len() == k {
            Ok(())
        } else {
            Err(value_error(format!(
                "firdes.{design} takes {k} numbers before the window, not {}",
                args.len()
            )))
        }
    };
    let taps = match design {
        "low_pass" => want(4).map(|_| firdes::low_pass(a(0), a(1), a(2), a(3), w))?,
        "high_pass" => want(4).map(|_| firdes::high_pass(a(0), a(1), a(2), a(3), w))?,
        "low_pass_2" => want(5).map(|_| firdes::low_pass_2(a(0), a(1), a(2), a(3), a(4), w))?,
        "high_pass_2" => want(5).map(|_| firdes::high_pass_2(a(0), a(1), a(2), a(3), a(4), w))?,
        "band_pass" => want(5).map(|_| firdes::band_pass(a(0), a(1), a(2), a(3), a(4), w))?,
        "band_reject" => want(5).map(|_| firdes::band_reject(a(0), a(1), a(2), a(3), a(4), w))?,
        "band_pass_2" => {
            want(6).map(|_| firdes::band_pass_2(a(0), a(1), a(2), a(3), a(4), a(5), w))?
        }
        "band_reject_2" => {
            want(6).map(|_| firdes::band_reject_2(a(0), a(1), a(2), a(3), a(4), a(5), w))?
        }
        "root_raised_cosine" => {
            want(5).map(|_| firdes::root_raised_cosine(a(0), a(1), a(2), a(3), n(4)))?
        }
        "gaussian" => want(4).map(|_| firdes::gaussian(a(0), a(1), a(2), n(3)))?,
        "hilbert" => want(1).map(|_| firdes::hilbert(n(0), w))?,
        other => {
            return Err(value_error(format!(
                "firdes.{other} is not one of radioflow's designs"
            )))
        }
    };
    taps.map_err(|e| value_error(format!("firdes.{design}: {e}")))
}

/// Complex taps of GNU Radio's `firdes.complex_band_pass(gain, sample_rate, low, high,
/// transition, window, beta)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn firdes_complex_band_pass(
    gain: f64,
    sample_rate: f64,
    low: f64,
    high: f64,
    transition: f64,
    win: &str,
    beta: f64,
) -> PyResult<Vec<Complex32>> {
    firdes::complex_band_pass(gain, sample_rate, low, high, transition, window(win, beta)?)
        .map_err(|e| value_error(format!("firdes.complex_band_pass: {e}")))
}

/// `ntaps` coefficients of window `win` (GNU Radio's `fft.window.build`).
#[pyfunction]
fn window_coefficients(win: &str, ntaps: usize, beta: f64) -> PyResult<Vec<f64>> {
    if ntaps == 0 {
        return Err(value_error("window: ntaps must be at least 1"));
    }
    Ok(window(win, beta)?.coefficients(ntaps))
}
