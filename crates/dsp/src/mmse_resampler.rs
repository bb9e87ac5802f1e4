//! [`MmseResampler`]: resampling by any ratio with the 8-tap MMSE interpolator.

use crate::error::{check, ParamError};
use crate::fir::FirSample;
use crate::history::{History, CHUNK};
use crate::mmse_interpolator::MmseInterpolator;

/// Resamples a stream by any ratio as GNU Radio's `mmse_resampler_cc`/`_ff`: each output is
/// the [`MmseInterpolator`] over the next 8 inputs at fractional delay `mu`, then `mu`
/// advances by `ratio` input samples (the whole part moves the window on). A ratio above 1
/// makes fewer outputs than inputs (`ratio` inputs per output).
///
/// There is no initial history: the first output is input 3 (at `mu = 0`), so the stream is
/// 3 samples earlier than the input, as in GNU Radio. `mu` is kept as `f32` and advanced in
/// `f64`, as GNU Radio does.
///
/// ```
/// use radioflow_dsp::MmseResampler;
/// let mut r = MmseResampler::<f32>::new(0.0, 0.5)?; // twice the samples
/// let x: Vec<f32> = (0..20).map(|n| (0.2 * n as f32).sin()).collect();
/// let mut y = [0.0f32; 40];
/// // Outputs at inputs 3, 3.5, ... 15.5: each needs 4 more inputs after it.
/// assert_eq!(r.process(&x, &mut y), (20, 26));
/// for (i, v) in y[..26].iter().enumerate() {
///     assert!((v - (0.2 * (3.0 + i as f32 / 2.0)).sin()).abs() < 1e-3);
/// }
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MmseResampler<T: FirSample> {
    interp: MmseInterpolator,
    /// Input loaded and not yet passed over.
    history: History<T>,
    /// In `[0, 1)`.
    mu: f32,
    /// Finite and above 0.
    ratio: f32,
}

impl<T: FirSample> MmseResampler<T> {
    /// A resampler starting at delay `mu` (in `[0, 1]`) taking `ratio` inputs per output.
    ///
    /// # Errors
    /// If `mu` is outside `[0, 1]` or `ratio` is not finite and above 0.
    pub fn new(mu: f32, ratio: f32) -> Result<Self, ParamError> {
        check((0.0..=1.0).contains(&mu), "mu", || {
            format!("{mu} must be in [0, 1]")
        })?;
        let mut r = Self {
            interp: MmseInterpolator::new(),
            history: History::new(0, CHUNK + MmseInterpolator::NTAPS),
            mu,
            ratio: 1.0,
        };
        r.set_ratio(ratio)?;
        Ok(r)
    }

    /// Inputs per output from the next output on.
    ///
    /// # Errors
    /// If `ratio` is not finite and above 0; the ratio stays as it was.
    pub fn set_ratio(&mut self, ratio: f32) -> Result<(), ParamError> {
        check(ratio.is_finite() && ratio > 0.0, "ratio", || {
            format!("{ratio} must be finite and above 0")
        })?;
        self.ratio = ratio;
        Ok(())
    }

    /// The fractional delay of the next output (GNU Radio's `set_mu`).
    ///
    /// # Errors
    /// If `mu` is outside `[0, 1]`; the delay stays as it was.
    pub fn set_mu(&mut self, mu: f32) -> Result<(), ParamError> {
        check((0.0..=1.0).contains(&mu), "mu", || {
            format!("{mu} must be in [0, 1]")
        })?;
        self.mu = mu;
        Ok(())
    }

    /// Inputs per output.
    pub fn ratio(&self) -> f32 {
        self.ratio
    }

    /// Resamples as much of `input` into `output` as fits; returns (inputs consumed, outputs
    /// made). Inputs are kept between calls, so every input is eventually consumed.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let window = self.history.pending();
            let mut at = 0;
            while produced < output.len() && at + MmseInterpolator::NTAPS <= window.len() {
                output[produced] = self.interp.interpolate(&window[at..], self.mu);
                produced += 1;
                let s = f64::from(self.mu) + f64::from(self.ratio);
                let whole = s.floor();
                at += whole as usize;
                self.mu = (s - whole) as f32;
            }
            self.history.advance(at);
            if produced == output.len() || consumed == input.len() {
                return (consumed, produced);
            }
            consumed += self.history.extend(&input[consumed..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{random_complex, run_split};
    use num_complex::Complex32;

    /// The definition over the whole input at once, in f64 from the design.
    fn naive(x: &[Complex32], mut mu: f32, ratio: f32) -> Vec<Complex32> {
        let interp = MmseInterpolator::new();
        let mut out = Vec::new();
        let mut i = 0usize;
        while i + 8 <= x.len() {
            let taps = interp.taps(mu);
            let mut acc = num_complex::Complex64::default();
            for k in 0..8 {
                acc += num_complex::Complex64::new(f64::from(x[i + k].re), f64::from(x[i + k].im))
                    * f64::from(taps[k]);
            }
            out.push(Complex32::new(acc.re as f32, acc.im as f32));
            let s = f64::from(mu) + f64::from(ratio);
            i += s.floor() as usize;
            mu = (s - s.floor()) as f32;
        }
        out
    }

    #[test]
    fn set_mu_is_the_next_output_s_delay() {
        let x = random_complex(4, 300);
        let mut a = MmseResampler::<Complex32>::new(0.0, 1.25).unwrap();
        let mut b = MmseResampler::<Complex32>::new(0.7, 1.25).unwrap();
        assert!(a.set_mu(1.5).is_err());
        a.set_mu(0.7).unwrap();
        let (mut ya, mut yb) = (
            vec![Complex32::default(); 300],
            vec![Complex32::default(); 300],
        );
        assert_eq!(a.process(&x, &mut ya), b.process(&x, &mut yb));
        assert_eq!(ya, yb);
    }

    #[test]
    fn equals_the_definition_whatever_the_calls() {
        let x = random_complex(3, 3000);
        for (mu, ratio) in [
            (0.0, 1.0),
            (0.3, 0.77),
            (0.0, 1.0001),
            (1.0, 2.5),
            (0.5, 11.3),
        ] {
            let want = naive(&x, mu, ratio);
            for seed in [1, 2] {
                let mut r = MmseResampler::<Complex32>::new(mu, ratio).unwrap();
                let got = run_split(seed, &x, 500, |i, o| r.process(i, o));
                assert_eq!(got.len(), want.len(), "mu {mu} ratio {ratio}");
                for (n, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).norm() < 1e-5,
                        "mu {mu} ratio {ratio} at {n}: {g} vs {w}"
                    );
                }
            }
        }
    }

    #[test]
    fn bad_ratios_and_delays_are_refused() {
        assert_eq!(
            MmseResampler::<f32>::new(0.0, 0.0).unwrap_err().name,
            "ratio"
        );
        assert_eq!(
            MmseResampler::<f32>::new(0.0, f32::NAN).unwrap_err().name,
            "ratio"
        );
        assert_eq!(MmseResampler::<f32>::new(-0.1, 1.0).unwrap_err().name, "mu");
        let mut r = MmseResampler::<f32>::new(0.0, 1.0).unwrap();
        assert!(r.set_ratio(-1.0).is_err());
        assert_eq!(r.ratio(), 1.0);
    }
}
