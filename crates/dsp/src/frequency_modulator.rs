//! [`FrequencyModulator`]: a float stream's values as the frequency of a unit phasor.

use num_complex::Complex32;
use std::f32::consts::PI;

/// GNU Radio's `frequency_modulator_fc`: `φ[n] = φ[n-1] + sensitivity · x[n]`, kept in
/// `[-π, π)`, and `y[n] = e^{jφ[n]}`. The phase is `f32` and wrapped after each step as
/// GNU Radio's is; GNU Radio then takes the sine and cosine from a fixed-point table
/// (within about 5·10⁻⁶), this from `f32::sin_cos`.
///
/// ```
/// use radioflow_dsp::{Complex32, FrequencyModulator};
/// let mut fm = FrequencyModulator::new(std::f32::consts::FRAC_PI_2);
/// let mut y = [Complex32::default(); 2];
/// fm.process(&[1.0, 1.0], &mut y);
/// assert!((y[0] - Complex32::new(0.0, 1.0)).norm() < 1e-6); // a quarter turn per unit input
/// assert!((y[1] - Complex32::new(-1.0, 0.0)).norm() < 1e-6);
/// ```
#[derive(Clone, Debug)]
pub struct FrequencyModulator {
    sensitivity: f32,
    phase: f32,
}

impl FrequencyModulator {
    /// A modulator turning by `sensitivity` radians per unit of input per sample.
    pub fn new(sensitivity: f32) -> Self {
        Self {
            sensitivity,
            phase: 0.0,
        }
    }

    /// The sensitivity, radians per sample per unit of input.
    pub fn sensitivity(&self) -> f32 {
        self.sensitivity
    }

    /// Sets the sensitivity (GNU Radio's `set_sensitivity`), the phase kept.
    pub fn set_sensitivity(&mut self, sensitivity: f32) {
        self.sensitivity = sensitivity;
    }

    /// Modulates `input` into `output[..input.len()]`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[f32], output: &mut [Complex32]) {
        for (y, &x) in output[..input.len()].iter_mut().zip(input) {
            self.phase += self.sensitivity * x;
            self.phase = (self.phase + PI).rem_euclid(2.0 * PI) - PI;
            let (s, c) = self.phase.sin_cos();
            *y = Complex32::new(c, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn equals_the_integrated_phase_whatever_the_calls() {
        let x = random_real(3, 2000);
        // The naive reference: the phase summed in f64, unwrapped.
        let mut phase = 0f64;
        let want: Vec<Complex32> = x
            .iter()
            .map(|&v| {
                phase += f64::from(0.7f32 * v);
                Complex32::new(phase.cos() as f32, phase.sin() as f32)
            })
            .collect();
        let mut fm = FrequencyModulator::new(0.7);
        let got = run_split_sync(5, &x, 300, |a, b| fm.process(a, b));
        assert_close_complex(&got, &want, 1e-3, "frequency modulator");
    }
}
