//! [`MmseInterpolator`]: a sample between two samples, by an 8-tap minimum-mean-squared-error
//! filter.

use crate::fir::FirSample;

/// Taps of each filter: the window is samples `-3 ..= 4` around the point interpolated.
const NTAPS: usize = 8;
/// Steps of the fractional delay between two samples (129 filters, both ends included).
const NSTEPS: usize = 128;
/// The band the filters are optimal for, in cycles per sample: `|f| < B`.
const BAND: f64 = 0.25;

/// Interpolates between samples as GNU Radio's `mmse_fir_interpolator_cc`/`_ff` do: for a
/// fractional delay `mu` in `[0, 1]`, quantized to 1/128, the output for the window
/// `x[0..8]` estimates the signal at time `3 + mu`, by the 8-tap filter with the least mean
/// squared error for a signal of flat spectrum within `|f| < 1/4` cycles per sample.
///
/// Each filter is the solution of the normal equations `R h = r` with the signal's
/// autocorrelation `R(τ) = sinc(2Bτ)` (`R_jk = R(j - k)`, `r_j = R(j - 3 - mu)`), solved in
/// `f64` when the interpolator is made: GNU Radio's table came from the same criterion by a
/// numerical optimizer; the two agree within 5e-7 per tap (the table's printed precision),
/// checked in `tests/gnuradio.rs` of `radioflow-channels`. At `mu = 0` and `mu = 1` the filter
/// is a unit impulse (the samples themselves).
///
/// ```
/// use radioflow_dsp::MmseInterpolator;
/// let interp = MmseInterpolator::new();
/// let x: Vec<f32> = (0..8).map(|n| (0.3 * n as f32).sin()).collect();
/// assert_eq!(interp.interpolate(&x, 0.0), x[3]);
/// let half = interp.interpolate(&x, 0.5);
/// assert!((half - (0.3f32 * 3.5).sin()).abs() < 1e-4);
/// ```
#[derive(Clone, Debug)]
pub struct MmseInterpolator {
    /// `filters[i]` for `mu = i / NSTEPS`, taps in window order.
    filters: Box<[[f32; NTAPS]; NSTEPS + 1]>,
}

impl Default for MmseInterpolator {
    fn default() -> Self {
        Self::new()
    }
}

impl MmseInterpolator {
    /// Samples in the window [`interpolate`](Self::interpolate) reads.
    pub const NTAPS: usize = NTAPS;

    /// The 129 filters, designed.
    pub fn new() -> Self {
        Self::designed(|tau| autocorrelation(-tau))
    }

    /// The 129 filters of GNU Radio's `mmse_interp_differentiator_cc`/`_ff`: the same
    /// criterion, estimating the signal's derivative (per sample) at time `3 + mu`, so the
    /// right-hand side is the autocorrelation's derivative `R'(3 + mu - j)`.
    /// [`interpolate`](Self::interpolate) then differentiates.
    pub fn differentiator() -> Self {
        Self::designed(autocorrelation_slope)
    }

    /// Filters for each delay, `r(3 + mu - j)` the normal equations' right-hand side.
    fn designed(r: impl Fn(f64) -> f64) -> Self {
        let mut filters = Box::new([[0.0f32; NTAPS]; NSTEPS + 1]);
        for (i, f) in filters.iter_mut().enumerate() {
            let mu = i as f64 / NSTEPS as f64;
            let h = design(std::array::from_fn(|j| r(3.0 + mu - j as f64)));
            for (t, h) in f.iter_mut().zip(h) {
                *t = h as f32;
            }
        }
        Self { filters }
    }

    /// The taps used for `mu` (rounded to the nearest 1/128), in window order.
    ///
    /// # Panics
    /// If `mu` is outside `[0, 1]` (as GNU Radio throws).
    pub fn taps(&self, mu: f32) -> &[f32; NTAPS] {
        let i = (mu * NSTEPS as f32).round_ties_even();
        assert!(
            (0.0..=NSTEPS as f32).contains(&i),
            "mmse interpolator: mu {mu} outside [0, 1]"
        );
        &self.filters[i as usize]
    }

    /// The signal at time `3 + mu` of the window `x[0..8]`.
    ///
    /// # Panics
    /// If `x` has fewer than 8 samples or `mu` is outside `[0, 1]`.
    #[inline]
    pub fn interpolate<T: FirSample>(&self, x: &[T], mu: f32) -> T {
        let taps = self.taps(mu);
        let mut out = T::default();
        let x = T::components(&x[..NTAPS]);
        let acc = T::components_mut(std::slice::from_mut(&mut out));
        for (k, &t) in taps.iter().enumerate() {
            for (c, a) in acc.iter_mut().enumerate() {
                *a += t * x[k * T::COMPONENTS + c];
            }
        }
        out
    }
}

/// `sinc(2Bτ)`: the autocorrelation of a signal of flat spectrum in `|f| < B`.
fn autocorrelation(tau: f64) -> f64 {
    let x = std::f64::consts::PI * 2.0 * BAND * tau;
    if x == 0.0 {
        1.0
    } else {
        x.sin() / x
    }
}

/// `R'(τ)`: the derivative of [`autocorrelation`].
fn autocorrelation_slope(tau: f64) -> f64 {
    let w = std::f64::consts::PI * 2.0 * BAND;
    let x = w * tau;
    if x == 0.0 {
        0.0
    } else {
        w * (x * x.cos() - x.sin()) / (x * x)
    }
}

/// The MMSE filter for the right-hand side `r`: `R h = r` solved by Cholesky (`R` is symmetric positive
/// definite). Written here: one 8×8 system per filter, once, is not worth a linear-algebra
/// dependency.
fn design(r: [f64; NTAPS]) -> [f64; NTAPS] {
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(a, b)| a * b).sum::<f64>();
    // R = L Lᵀ.
    let mut l = [[0.0f64; NTAPS]; NTAPS];
    for j in 0..NTAPS {
        for k in 0..=j {
            let s = autocorrelation(j as f64 - k as f64) - dot(&l[j][..k], &l[k][..k]);
            l[j][k] = if j == k { s.sqrt() } else { s / l[k][k] };
        }
    }
    // L y = r, then Lᵀ h = y.
    let mut y = [0.0f64; NTAPS];
    for j in 0..NTAPS {
        y[j] = (r[j] - dot(&l[j][..j], &y[..j])) / l[j][j];
    }
    let mut h = [0.0f64; NTAPS];
    for j in (0..NTAPS).rev() {
        let below: f64 = (j + 1..NTAPS).map(|m| l[m][j] * h[m]).sum();
        h[j] = (y[j] - below) / l[j][j];
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_filter_solves_the_normal_equations() {
        for i in [0, 1, 37, 64, 100, 128] {
            let mu = i as f64 / NSTEPS as f64;
            let h = design(std::array::from_fn(|j| {
                autocorrelation(j as f64 - 3.0 - mu)
            }));
            for j in 0..NTAPS {
                let lhs: f64 = (0..NTAPS)
                    .map(|k| autocorrelation(j as f64 - k as f64) * h[k])
                    .sum();
                let rhs = autocorrelation(j as f64 - 3.0 - mu);
                assert!((lhs - rhs).abs() < 1e-9, "mu {mu} row {j}: {lhs} vs {rhs}");
            }
        }
    }

    #[test]
    fn the_ends_are_the_samples_and_the_middle_is_symmetric() {
        let interp = MmseInterpolator::new();
        let unit = |at: usize| {
            let mut t = [0.0f32; NTAPS];
            t[at] = 1.0;
            t
        };
        let close =
            |a: &[f32; NTAPS], b: &[f32; NTAPS]| a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-6);
        assert!(close(interp.taps(0.0), &unit(3)), "{:?}", interp.taps(0.0));
        assert!(close(interp.taps(1.0), &unit(4)), "{:?}", interp.taps(1.0));
        let mid = interp.taps(0.5);
        for k in 0..NTAPS {
            assert!((mid[k] - mid[NTAPS - 1 - k]).abs() < 1e-6, "{mid:?}");
        }
        // A filter sums to 1: DC passes unchanged.
        for mu in [0.1, 0.3, 0.77] {
            let sum: f32 = interp.taps(mu).iter().sum();
            assert!((sum - 1.0).abs() < 1e-3, "mu {mu}: {sum}");
        }
    }

    #[test]
    fn a_slow_tone_is_interpolated_within_the_band() {
        // 0.05 cycles per sample, well inside the quarter band the filters are made for.
        let interp = MmseInterpolator::new();
        let w = 2.0 * std::f64::consts::PI * 0.05;
        let x: Vec<num_complex::Complex32> = (0..8)
            .map(|n| {
                num_complex::Complex32::new(
                    (w * n as f64).cos() as f32,
                    (w * n as f64).sin() as f32,
                )
            })
            .collect();
        for i in 0..=NSTEPS {
            let mu = i as f32 / NSTEPS as f32;
            let got = interp.interpolate(&x, mu);
            let t = w * (3.0 + f64::from(mu));
            let want = num_complex::Complex32::new(t.cos() as f32, t.sin() as f32);
            assert!((got - want).norm() < 1e-3, "mu {mu}: {got} vs {want}");
        }
    }

    #[test]
    fn the_differentiator_gives_a_slow_tone_s_slope() {
        let d = MmseInterpolator::differentiator();
        let w = 2.0 * std::f64::consts::PI * 0.05;
        let x: Vec<f32> = (0..8).map(|n| (w * n as f64).sin() as f32).collect();
        for i in (0..=NSTEPS).step_by(8) {
            let mu = i as f32 / NSTEPS as f32;
            let want = w * (w * (3.0 + f64::from(mu))).cos();
            let got = f64::from(d.interpolate(&x, mu));
            assert!((got - want).abs() < 2e-3, "mu {mu}: {got} vs {want}");
        }
    }

    #[test]
    #[should_panic(expected = "outside [0, 1]")]
    fn mu_beyond_one_is_refused() {
        MmseInterpolator::new().taps(1.5);
    }
}
