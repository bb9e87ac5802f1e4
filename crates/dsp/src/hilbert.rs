//! [`Hilbert`]: a real signal to its analytic (complex) signal.

use crate::decimating_fir::DecimatingFir;
use crate::error::ParamError;
use crate::firdes::{self, Window};
use crate::history::CHUNK;
use crate::moving_average::Delay;
use num_complex::Complex32;

/// The analytic signal of a real input, as GNU Radio's `hilbert_fc`: the real part is the
/// input delayed by `(ntaps - 1) / 2` samples, the imaginary part its Hilbert transform by
/// an FIR of `ntaps` taps ([`firdes::hilbert`]). Negative frequencies are suppressed, so
/// `cos(ωn)` becomes about `e^{jω(n - delay)}` in the FIR's pass band.
///
/// ```
/// use radioflow_dsp::{firdes::Window, Hilbert};
/// let mut h = Hilbert::new(65, Window::Hamming)?;
/// let x: Vec<f32> = (0..1000).map(|n| (0.5 * n as f32).cos()).collect();
/// let mut y = vec![Default::default(); 1000];
/// h.process(&x, &mut y);
/// assert!(y[500..].iter().all(|z| (z.norm() - 1.0).abs() < 0.01)); // constant envelope
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Hilbert {
    fir: DecimatingFir<f32>,
    delay: Delay<f32>,
    /// One chunk of the imaginary part, then of the real part.
    scratch: [Vec<f32>; 2],
}

impl Hilbert {
    /// A transformer with an FIR of `ntaps` taps (odd) designed with `window`.
    ///
    /// # Errors
    /// As for [`firdes::hilbert`].
    pub fn new(ntaps: usize, window: Window) -> Result<Self, ParamError> {
        let taps = firdes::hilbert(ntaps, window)?;
        Ok(Self {
            fir: DecimatingFir::new(&taps, 1)?,
            delay: Delay::new(ntaps / 2),
            scratch: [vec![0.0; CHUNK], vec![0.0; CHUNK]],
        })
    }

    /// Transforms `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[f32], output: &mut [Complex32]) {
        let output = &mut output[..input.len()];
        for (x, o) in input.chunks(CHUNK).zip(output.chunks_mut(CHUNK)) {
            let [im, re] = &mut self.scratch;
            let (im, re) = (&mut im[..x.len()], &mut re[..x.len()]);
            let (consumed, produced) = self.fir.process(x, im);
            debug_assert_eq!((consumed, produced), (x.len(), x.len()));
            self.delay.process(x, re);
            for ((o, &r), &i) in o.iter_mut().zip(re.iter()).zip(im.iter()) {
                *o = Complex32::new(r, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn equals_gnu_radios_hilbert_fc() {
        let x = golden_real("real");
        let mut h = Hilbert::new(65, Window::Hamming).unwrap();
        let mut y = vec![Complex32::default(); x.len()];
        // In uneven calls: the state carries over.
        let (a, b) = x.split_at(777);
        let (ya, yb) = y.split_at_mut(777);
        h.process(a, ya);
        h.process(b, yb);
        assert_close_complex(&y, &golden_complex("hilbert"), 1e-5, "hilbert");
    }

    #[test]
    fn suppresses_negative_frequencies() {
        // A real tone at 0.1 cycles/sample: the analytic signal keeps +0.1 and drops -0.1.
        let n = 4096;
        let x: Vec<f32> = (0..n)
            .map(|k| (0.2 * std::f32::consts::PI * k as f32).cos())
            .collect();
        let mut y = vec![Complex32::default(); n];
        Hilbert::new(101, Window::Blackman)
            .unwrap()
            .process(&x, &mut y);
        let tone = |f: f64| {
            let s: num_complex::Complex64 = to64(&y[200..])
                .iter()
                .enumerate()
                .map(|(k, z)| {
                    z * num_complex::Complex64::from_polar(
                        1.0,
                        -2.0 * std::f64::consts::PI * f * k as f64,
                    )
                })
                .sum();
            s.norm() / (n - 200) as f64
        };
        assert!((tone(0.1) - 1.0).abs() < 1e-3, "{}", tone(0.1));
        assert!(tone(-0.1) < 1e-3, "{}", tone(-0.1));
    }
}
