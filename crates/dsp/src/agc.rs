//! [`Agc`]: automatic gain control toward a reference amplitude.

use crate::error::{check, Num, ParamError};
use num_complex::Complex32;

/// An automatic gain control loop, as GNU Radio's `agc_cc` / `agc_ff`: each sample is scaled
/// by the current gain, then the gain moves by `rate · (reference - |output|)`, limited to
/// `max_gain` when one is set. Arithmetic in `f32` in GNU Radio's order, so the outputs equal
/// its own.
///
/// ```
/// use radioflow_dsp::{Agc, Complex32};
/// let mut agc = Agc::new(1e-2, 1.0, 1.0, None)?;
/// let x = vec![Complex32::new(0.0, 0.25); 5000];
/// let mut y = vec![Complex32::default(); 5000];
/// agc.process(&x, &mut y);
/// assert!((y[4999].norm() - 1.0).abs() < 1e-3); // brought up to the reference
/// assert!((agc.gain() - 4.0).abs() < 1e-2);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Agc {
    rate: f32,
    reference: f32,
    gain: f32,
    /// 0 for no limit (GNU Radio's convention).
    max_gain: f32,
}

impl Agc {
    /// A loop adapting at `rate` (per sample) toward output amplitude `reference`, starting
    /// at `gain`, the gain never above `max_gain` if given.
    ///
    /// # Errors
    /// If `rate` is not in `(0, 1]`, or `reference`, `gain` or `max_gain` is not finite and
    /// positive.
    pub fn new(
        rate: f32,
        reference: f32,
        gain: f32,
        max_gain: Option<f32>,
    ) -> Result<Self, ParamError> {
        check(rate > 0.0 && rate <= 1.0, "rate", || {
            format!("{} must be in (0, 1]", Num::from(rate))
        })?;
        let positive = |v: f32| v.is_finite() && v > 0.0;
        check(positive(reference), "reference", || {
            format!("{} must be finite and positive", Num::from(reference))
        })?;
        check(positive(gain), "gain", || {
            format!("{} must be finite and positive", Num::from(gain))
        })?;
        if let Some(m) = max_gain {
            check(positive(m), "max_gain", || {
                format!("{m} must be finite and positive")
            })?;
        }
        Ok(Self {
            rate,
            reference,
            gain,
            max_gain: max_gain.unwrap_or(0.0),
        })
    }

    /// The current gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Scales complex `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            *o = x * self.gain;
            let magnitude = (o.re * o.re + o.im * o.im).sqrt();
            self.update(magnitude);
        }
    }

    /// Scales real `input` into the first `input.len()` samples of `output` (`agc_ff`).
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process_real(&mut self, input: &[f32], output: &mut [f32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            *o = x * self.gain;
            self.update(o.abs());
        }
    }

    #[inline]
    fn update(&mut self, magnitude: f32) {
        self.gain += self.rate * (self.reference - magnitude);
        if self.max_gain > 0.0 && self.gain > self.max_gain {
            self.gain = self.max_gain;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn equals_gnu_radios_agc_cc() {
        let x = golden_complex("tone");
        for (max, key) in [(None, "agc"), (Some(2.0), "agc_max2")] {
            let mut agc = Agc::new(1e-2, 1.0, 1.0, max).unwrap();
            let mut y = vec![Complex32::default(); x.len()];
            agc.process(&x, &mut y);
            // Same f32 operations in the same order (the golden file holds 9 digits).
            assert_close_complex(&y, &golden_complex(key), 1e-6, key);
        }
    }

    #[test]
    fn equals_gnu_radios_agc_ff() {
        let x: Vec<f32> = golden_real("real").iter().map(|v| 0.3 * v).collect();
        let mut agc = Agc::new(1e-2, 1.0, 1.0, None).unwrap();
        let mut y = vec![0.0; x.len()];
        agc.process_real(&x, &mut y);
        assert_close_real(&y, &golden_real("agc_ff"), 1e-6, "agc_ff");
    }

    #[test]
    fn real_loop_matches_the_recurrence() {
        let x = random_real(1, 1000);
        let mut agc = Agc::new(0.05, 0.5, 2.0, Some(3.0)).unwrap();
        let mut y = vec![0.0; x.len()];
        agc.process_real(&x, &mut y);
        let mut g = 2.0f64;
        for (n, (&x, &y)) in x.iter().zip(&y).enumerate() {
            let want = f64::from(x) * g;
            assert!((f64::from(y) - want).abs() < 1e-4, "{n}");
            g = (g + 0.05 * (0.5 - want.abs())).min(3.0);
        }
        assert_eq!(Agc::new(0.0, 1.0, 1.0, None).unwrap_err().name, "rate");
        assert_eq!(
            Agc::new(0.1, 1.0, 1.0, Some(-1.0)).unwrap_err().name,
            "max_gain"
        );
    }
}
