//! [`QuadratureDemod`]: FM demodulation by the phase step between samples.

use num_complex::Complex32;

/// An FM (quadrature) demodulator, GNU Radio's `quadrature_demod_cf`:
/// `y[n] = gain · arg(x[n] · conj(x[n-1]))`, with `x[-1] = 0` (so `y[0] = 0`).
///
/// For a deviation of `Δf` Hz at `fs` samples/s, `gain = fs / (2π·Δf)` gives ±1 at full
/// deviation. The angle is the exact `atan2` (GNU Radio's `fast_atan2f` approximates it).
///
/// ```
/// use radioflow_dsp::{Complex32, Nco, QuadratureDemod};
/// // A carrier 1 kHz above centre at 48 kHz: a steady phase step of 2π/48 rad.
/// let mut x = vec![Complex32::default(); 100];
/// Nco::new(1e3, 48e3).fill_exp(&mut x, 1.0, Complex32::default());
/// let mut y = vec![0.0; 100];
/// QuadratureDemod::new(48e3 / (2.0 * std::f32::consts::PI * 1e3)).process(&x, &mut y);
/// assert!((y[50] - 1.0).abs() < 1e-4);
/// ```
#[derive(Clone, Debug)]
pub struct QuadratureDemod {
    gain: f32,
    last: Complex32,
}

impl QuadratureDemod {
    /// A demodulator scaling the phase step (radians per sample) by `gain`.
    pub fn new(gain: f32) -> Self {
        Self {
            gain,
            last: Complex32::default(),
        }
    }

    /// The gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Demodulates `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) {
        let output = &mut output[..input.len()];
        let mut last = self.last;
        for (y, &x) in output.iter_mut().zip(input) {
            let p = x * last.conj();
            *y = self.gain * p.im.atan2(p.re);
            last = x;
        }
        self.last = last;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn matches_the_definition_across_calls() {
        let x = random_complex(1, 3000);
        let want: Vec<f64> = (0..x.len())
            .map(|n| {
                let prev = if n == 0 {
                    Complex32::default()
                } else {
                    x[n - 1]
                };
                let (a, b) = (to64(&[x[n]])[0], to64(&[prev])[0]);
                0.5 * (a * b.conj()).arg()
            })
            .collect();
        let mut demod = QuadratureDemod::new(0.5);
        let got = run_split_sync(2, &x, 400, |i, o: &mut [f32]| demod.process(i, o));
        for (n, (g, w)) in got.iter().zip(&want).enumerate() {
            // f32 product and atan2: a few ulps of π.
            assert!((f64::from(*g) - w).abs() < 1e-6, "{n}: {g} vs {w}");
        }
    }

    #[test]
    fn equals_gnu_radios_quadrature_demod_cf() {
        let x = golden_complex("fm");
        let mut y = vec![0.0; x.len()];
        QuadratureDemod::new(1.7).process(&x, &mut y);
        // GNU Radio's fast_atan2f is an approximation (about 1e-5 rad): 2e-5 of the gain.
        let want = golden_real("quad_demod");
        assert_eq!(y.len(), want.len());
        for (n, (g, w)) in y.iter().zip(&want).enumerate() {
            assert!((g - w).abs() < 2e-5 * 1.7, "{n}: {g} vs {w}");
        }
    }
}
