//! [`Rotator`]: a frequency shift by an NCO mixer.

use crate::error::{finite, positive, ParamError};
use crate::nco::Nco;
use num_complex::Complex32;

/// Shifts a complex signal by `shift` Hz: `y[n] = x[n] · e^{j(2π·shift·n/fs + φ0)}`, as GNU
/// Radio's `rotator_cc` with `phase_inc = 2π·shift/fs`. The phase comes from an [`Nco`], so
/// it does not drift however long it runs (GNU Radio's recursive rotator is renormalized
/// every 512 samples instead), and continues across calls.
///
/// ```
/// use radioflow_dsp::{Complex32, Rotator};
/// // DC moved to a quarter of the sample rate: 1, j, -1, -j.
/// let mut r = Rotator::new(12e3, 48e3)?;
/// let mut y = [Complex32::default(); 4];
/// r.process(&[Complex32::new(1.0, 0.0); 4], &mut y);
/// assert!((y[1] - Complex32::new(0.0, 1.0)).norm() < 1e-6);
/// assert!((y[2] + Complex32::new(1.0, 0.0)).norm() < 1e-6);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Rotator {
    nco: Nco,
    sample_rate: f64,
}

impl Rotator {
    /// A shift by `shift` Hz (negative shifts down) for a signal at `sample_rate`.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and positive or `shift` is not finite.
    pub fn new(shift: f64, sample_rate: f64) -> Result<Self, ParamError> {
        positive("sample_rate", sample_rate)?;
        finite("shift", shift)?;
        Ok(Self {
            nco: Nco::new(shift, sample_rate),
            sample_rate,
        })
    }

    /// Changes the shift; the phase continues from where it is.
    ///
    /// # Errors
    /// If `shift` is not finite.
    pub fn set_shift(&mut self, shift: f64) -> Result<(), ParamError> {
        finite("shift", shift)?;
        self.nco.set_frequency(shift, self.sample_rate);
        Ok(())
    }

    /// Sets the phase of the next sample, in radians.
    ///
    /// # Panics
    /// If `radians` is not finite.
    pub fn set_phase(&mut self, radians: f64) {
        self.nco.set_phase(radians);
    }

    /// Shifts `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        let output = &mut output[..input.len()];
        self.nco.fill_exp(output, 1.0, Complex32::default());
        for (o, &x) in output.iter_mut().zip(input) {
            *o *= x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex64;
    use std::f64::consts::PI;

    #[test]
    fn matches_the_naive_mixer_across_calls() {
        let x = random_complex(1, 100_000);
        let (f, fs, phi) = (-1234.5, 10e3, 0.3);
        let mut r = Rotator::new(f, fs).unwrap();
        r.set_phase(phi);
        let got = run_split_sync(2, &x, 3000, |i, o| r.process(i, o));
        for (n, (g, x)) in got.iter().zip(to64(&x)).enumerate() {
            let want = x * Complex64::from_polar(1.0, 2.0 * PI * f * n as f64 / fs + phi);
            // f32 product of unit-scale values.
            assert!(
                (Complex64::new(g.re.into(), g.im.into()) - want).norm() < 1e-6,
                "{n}"
            );
        }
        assert_eq!(Rotator::new(f64::INFINITY, 1.0).unwrap_err().name, "shift");
    }

    #[test]
    fn equals_gnu_radios_rotator_cc() {
        let x = golden_complex("noise");
        let mut r = Rotator::new(-0.123, 1.0).unwrap();
        let mut y = vec![Complex32::default(); x.len()];
        r.process(&x, &mut y);
        // GNU Radio's rotator multiplies by an f32 phase increment, renormalizing every 512
        // samples: its phase strays by about 1e-7 rad per sample (from the f32 increment).
        let want = golden_complex("rotator");
        for (n, (g, w)) in y.iter().zip(&want).enumerate() {
            let tol = 1e-5 + 2e-7 * n as f32;
            assert!((g - w).norm() <= tol * w.norm().max(1.0), "{n}: {g} vs {w}");
        }
    }
}
