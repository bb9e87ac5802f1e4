//! [`ComplexTapFir`]: a streaming FIR with complex taps on real or complex samples.

use crate::decimating_fir::DecimatingFir;
use crate::error::{check, ParamError};
use crate::fir::FirSample;
use crate::history::CHUNK;
use num_complex::Complex32;

/// A sample a complex-tap filter takes (`f32` or `Complex32`): filtered by the real and by
/// the imaginary parts of the taps as two real-tap filters (the SIMD kernels), the two
/// outputs make the complex one.
pub trait ComplexTapSample: FirSample {
    /// `re + j·im`, where `re` and `im` are the outputs of the taps' real and imaginary parts.
    fn combine(re: Self, im: Self) -> Complex32;
}

impl ComplexTapSample for f32 {
    fn combine(re: f32, im: f32) -> Complex32 {
        Complex32::new(re, im)
    }
}

impl ComplexTapSample for Complex32 {
    fn combine(re: Complex32, im: Complex32) -> Complex32 {
        Complex32::new(re.re - im.im, re.im + im.re)
    }
}

/// A streaming decimating FIR with complex taps on real or complex samples, as GNU Radio's
/// `fir_filter_fcc` and `fir_filter_ccc`: `y[k] = Σ_j taps[j] · x[k·decimation - j]` from
/// zero history. The real and imaginary parts of the taps are two real-tap
/// [`DecimatingFir`]s over the same input (SIMD), combined by [`ComplexTapSample::combine`].
///
/// With [`firdes::complex_band_pass`](crate::firdes::complex_band_pass) taps it picks one
/// side of a real signal's spectrum, e.g. FM stereo's 19 kHz pilot as a complex tone for a
/// [`Pll`](crate::Pll).
///
/// ```
/// use radioflow_dsp::{firdes, ComplexTapFir};
/// // The pilot of a stereo multiplex at 240 kHz, as a complex tone.
/// let taps = firdes::complex_band_pass(1.0, 240e3, 18.5e3, 19.5e3, 1e3, firdes::Window::Hamming)?;
/// let mut pilot = ComplexTapFir::new(&taps, 1)?;
/// let x: Vec<f32> = (0..24_000)
///     .map(|n| (2.0 * std::f32::consts::PI * 19e3 * n as f32 / 240e3).cos())
///     .collect();
/// let mut y = vec![Default::default(); x.len()];
/// assert_eq!(pilot.process(&x, &mut y), (24_000, 24_000));
/// // cos = (e^{jωn} + e^{-jωn}) / 2: the positive half, at amplitude 1/2.
/// assert!((y[20_000].norm() - 0.5).abs() < 0.01);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ComplexTapFir<T: ComplexTapSample = f32> {
    re: DecimatingFir<T>,
    im: DecimatingFir<T>,
    /// A chunk of the outputs of the taps' real and imaginary parts.
    scratch: [Vec<T>; 2],
}

impl<T: ComplexTapSample> ComplexTapFir<T> {
    /// A filter with these taps (`taps[0]` weighs the newest sample) keeping one output in
    /// `decimation`.
    ///
    /// # Errors
    /// If `taps` is empty or `decimation` is 0.
    pub fn new(taps: &[Complex32], decimation: usize) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        let re: Vec<f32> = taps.iter().map(|t| t.re).collect();
        let im: Vec<f32> = taps.iter().map(|t| t.im).collect();
        Ok(Self {
            re: DecimatingFir::new(&re, decimation)?,
            im: DecimatingFir::new(&im, decimation)?,
            scratch: [vec![T::default(); CHUNK], vec![T::default(); CHUNK]],
        })
    }

    /// The decimation.
    pub fn decimation(&self) -> usize {
        self.re.decimation()
    }

    /// Filters `input` into `output`: returns `(consumed, produced)`, as
    /// [`DecimatingFir::process`].
    pub fn process(&mut self, input: &[T], output: &mut [Complex32]) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let room = (output.len() - produced).min(CHUNK);
            let [re, im] = &mut self.scratch;
            let (c, p) = self.re.process(&input[consumed..], &mut re[..room]);
            // Same taps length and decimation: the two consume and produce alike.
            let both = self.im.process(&input[consumed..], &mut im[..room]);
            debug_assert_eq!((c, p), both);
            for ((o, &r), &i) in output[produced..produced + p]
                .iter_mut()
                .zip(&*re)
                .zip(&*im)
            {
                *o = T::combine(r, i);
            }
            consumed += c;
            produced += p;
            if c == 0 && p == 0 {
                break;
            }
        }
        (consumed, produced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex64;

    #[test]
    fn matches_the_naive_filter_however_the_input_is_split() {
        let x = random_real(1, 4000);
        for (len, d) in [(1, 1), (31, 1), (31, 3), (64, 10)] {
            let taps = random_complex(len as u64, len);
            let want: Vec<Complex32> = (0..x.len())
                .step_by(d)
                .map(|n| {
                    let s: Complex64 = (0..len.min(n + 1))
                        .map(|j| to64(&[taps[j]])[0] * f64::from(x[n - j]))
                        .sum();
                    Complex32::new(s.re as f32, s.im as f32)
                })
                .collect();
            let mut fir = ComplexTapFir::new(&taps, d).unwrap();
            let got = run_split(2, &x, 300, |i, o| fir.process(i, o));
            assert_eq!(got.len(), want.len());
            assert_close_complex(&got, &want, 1e-5, "complex taps");
        }
    }

    #[test]
    fn complex_samples_match_the_naive_filter_however_the_input_is_split() {
        let x = random_complex(7, 3000);
        for (len, d) in [(1, 1), (31, 1), (31, 3), (64, 10)] {
            let taps = random_complex(len as u64 + 100, len);
            let want: Vec<Complex32> = (0..x.len())
                .step_by(d)
                .map(|n| {
                    let s: Complex64 = (0..len.min(n + 1))
                        .map(|j| to64(&[taps[j]])[0] * to64(&[x[n - j]])[0])
                        .sum();
                    Complex32::new(s.re as f32, s.im as f32)
                })
                .collect();
            let mut fir = ComplexTapFir::<Complex32>::new(&taps, d).unwrap();
            let got = run_split(2, &x, 300, |i, o| fir.process(i, o));
            assert_eq!(got.len(), want.len());
            assert_close_complex(&got, &want, 1e-5, "complex taps, complex samples");
        }
    }

    #[test]
    fn equals_gnu_radios_fir_filter_fcc() {
        let taps = golden_complex("complex_band_pass_taps");
        let x = golden_real("real");
        let mut fir = ComplexTapFir::new(&taps, 3).unwrap();
        let got = run_whole(&x, x.len(), |i, o| fir.process(i, o));
        assert_close_complex(&got, &golden_complex("fir_fcc"), 1e-5, "fir_filter_fcc");
    }
}
