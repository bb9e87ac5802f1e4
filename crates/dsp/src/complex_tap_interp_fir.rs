//! [`ComplexTapInterpFir`]: a streaming interpolating FIR with complex taps.

use crate::complex_tap_fir::ComplexTapSample;
use crate::error::{check, ParamError};
use crate::history::CHUNK;
use crate::interpolating_fir::InterpolatingFir;
use num_complex::Complex32;

/// A streaming interpolating FIR with complex taps on real or complex samples, GNU Radio's
/// `interp_fir_filter_fcc` and `interp_fir_filter_ccc`: the input with `interpolation - 1`
/// zeros after each sample, filtered by `taps`, `y[n·I + p] = Σ_j taps[p + j·I] · x[n - j]`
/// from zero history. The taps' real and imaginary parts are two polyphase
/// [`InterpolatingFir`]s over the same input (SIMD), combined by
/// [`ComplexTapSample::combine`].
///
/// ```
/// use radioflow_dsp::ComplexTapInterpFir;
/// use num_complex::Complex32;
/// let j = Complex32::new(0.0, 1.0);
/// // Each input becomes itself, then itself times j.
/// let mut fir = ComplexTapInterpFir::<f32>::new(&[Complex32::new(1.0, 0.0), j], 2)?;
/// let mut y = [Complex32::default(); 4];
/// assert_eq!(fir.process(&[1.0, 2.0], &mut y), (2, 4));
/// assert_eq!(y, [Complex32::new(1.0, 0.0), j, Complex32::new(2.0, 0.0), 2.0 * j]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ComplexTapInterpFir<T: ComplexTapSample> {
    re: InterpolatingFir<T>,
    im: InterpolatingFir<T>,
    /// A chunk of the outputs of the taps' real and imaginary parts.
    scratch: [Vec<T>; 2],
}

impl<T: ComplexTapSample> ComplexTapInterpFir<T> {
    /// A filter making `interpolation` outputs per input with these taps (designed at the
    /// output rate).
    ///
    /// # Errors
    /// If `taps` is empty or `interpolation` is 0.
    pub fn new(taps: &[Complex32], interpolation: usize) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        let re: Vec<f32> = taps.iter().map(|t| t.re).collect();
        let im: Vec<f32> = taps.iter().map(|t| t.im).collect();
        // Whole groups of `interpolation` outputs fit in a chunk.
        let chunk = CHUNK.max(interpolation);
        Ok(Self {
            re: InterpolatingFir::new(&re, interpolation)?,
            im: InterpolatingFir::new(&im, interpolation)?,
            scratch: [vec![T::default(); chunk], vec![T::default(); chunk]],
        })
    }

    /// The interpolation factor.
    pub fn interpolation(&self) -> usize {
        self.re.interpolation()
    }

    /// Interpolates `input` into `output`: returns `(consumed, produced)`, as
    /// [`InterpolatingFir::process`] (whole groups of `interpolation` outputs).
    pub fn process(&mut self, input: &[T], output: &mut [Complex32]) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let room = (output.len() - produced).min(self.scratch[0].len());
            let [re, im] = &mut self.scratch;
            let (c, p) = self.re.process(&input[consumed..], &mut re[..room]);
            // Same taps length and interpolation: the two consume and produce alike.
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

    /// Zero-stuffed input convolved with the taps, in f64.
    fn naive(taps: &[Complex32], i: usize, x: &[Complex32]) -> Vec<Complex32> {
        let (taps, x) = (to64(taps), to64(x));
        (0..x.len() * i)
            .map(|m| {
                let s: Complex64 = (0..taps.len().min(m + 1))
                    .filter(|k| (m - k) % i == 0)
                    .map(|k| taps[k] * x[(m - k) / i])
                    .sum();
                Complex32::new(s.re as f32, s.im as f32)
            })
            .collect()
    }

    #[test]
    fn matches_the_naive_filter_however_the_input_is_split() {
        let x = random_complex(3, 1500);
        for (len, i) in [(1, 1), (13, 1), (31, 3), (40, 8)] {
            let taps = random_complex(len as u64 + 50, len);
            let want = naive(&taps, i, &x);
            let mut fir = ComplexTapInterpFir::<Complex32>::new(&taps, i).unwrap();
            let got = run_split(4, &x, 300, |a, b| fir.process(a, b));
            assert_eq!(got.len(), want.len(), "{len} taps by {i}");
            assert_close_complex(&got, &want, 1e-5, "complex samples");
            // Real samples: the same with a zero imaginary part.
            let real: Vec<f32> = x.iter().map(|z| z.re).collect();
            let as_complex: Vec<Complex32> = real.iter().map(|&r| Complex32::new(r, 0.0)).collect();
            let want = naive(&taps, i, &as_complex);
            let mut fir = ComplexTapInterpFir::<f32>::new(&taps, i).unwrap();
            let got = run_split(5, &real, 300, |a, b| fir.process(a, b));
            assert_close_complex(&got, &want, 1e-5, "real samples");
        }
    }

    #[test]
    fn refuses_bad_parameters() {
        let one = [Complex32::new(1.0, 0.0)];
        assert_eq!(
            ComplexTapInterpFir::<f32>::new(&[], 2).unwrap_err().name,
            "taps"
        );
        assert_eq!(
            ComplexTapInterpFir::<f32>::new(&one, 0).unwrap_err().name,
            "interpolation"
        );
    }
}
