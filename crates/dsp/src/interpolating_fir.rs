//! [`InterpolatingFir`]: a polyphase FIR filter producing `interpolation` outputs per input.

use crate::error::{check, ParamError};
use crate::fir::{Fir, FirSample};
use crate::history::{windows, History, CHUNK};

/// The polyphase branches of `taps` for `interpolation` phases: branch `p` holds
/// `taps[p], taps[p + I], taps[p + 2I], ...`, all padded with zeros to the same length.
pub(crate) fn polyphase<T: FirSample>(taps: &[f32], interpolation: usize) -> Vec<Fir<T>> {
    let len = taps.len().div_ceil(interpolation);
    (0..interpolation)
        .map(|p| {
            let branch: Vec<f32> = (0..len)
                .map(|j| taps.get(p + j * interpolation).copied().unwrap_or(0.0))
                .collect();
            Fir::new(&branch)
        })
        .collect()
}

/// A streaming interpolating FIR filter, GNU Radio's `interp_fir_filter_xxf`: the input with
/// `interpolation - 1` zeros after each sample, filtered by `taps`, computed as
/// `interpolation` polyphase branches so no multiply touches a zero:
/// `y[n·I + p] = Σ_j taps[p + j·I] · x[n - j]`, from zero history.
///
/// State is kept between calls; the output does not depend on how the input is split.
///
/// ```
/// use radioflow_dsp::InterpolatingFir;
/// // Linear interpolation by 2.
/// let mut fir = InterpolatingFir::<f32>::new(&[0.5, 1.0, 0.5], 2)?;
/// let mut y = [0.0; 6];
/// assert_eq!(fir.process(&[2.0, 4.0, 6.0], &mut y), (3, 6));
/// assert_eq!(y, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct InterpolatingFir<T: FirSample> {
    branches: Vec<Fir<T>>,
    taps: Vec<f32>,
    history: History<T>,
    /// One branch's outputs, before they are interleaved.
    scratch: Vec<T>,
}

impl<T: FirSample> InterpolatingFir<T> {
    /// A filter making `interpolation` outputs per input with these taps (designed at the
    /// output rate; a gain of `interpolation` keeps the signal's level).
    ///
    /// # Errors
    /// If `taps` is empty or `interpolation` is 0.
    pub fn new(taps: &[f32], interpolation: usize) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        check(interpolation > 0, "interpolation", || {
            "must be at least 1".into()
        })?;
        let branches = polyphase(taps, interpolation);
        let len = branches[0].taps().len();
        Ok(Self {
            branches,
            taps: taps.to_vec(),
            history: History::new(len - 1, CHUNK.max(len)),
            scratch: vec![T::default(); CHUNK],
        })
    }

    /// The taps, as given.
    pub fn taps(&self) -> &[f32] {
        &self.taps
    }

    /// The interpolation factor.
    pub fn interpolation(&self) -> usize {
        self.branches.len()
    }

    /// Interpolates `input` into `output`: returns `(consumed, produced)`. Outputs come in
    /// whole input samples (`interpolation` at a time), so an `output` shorter than that
    /// gets nothing.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let i = self.branches.len();
        let len = self.branches[0].taps().len();
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let pending = self.history.pending();
            let n = windows(pending.len(), len, 1)
                .min((output.len() - produced) / i)
                .min(self.scratch.len());
            if n > 0 {
                let out = &mut output[produced..produced + n * i];
                for (p, branch) in self.branches.iter().enumerate() {
                    branch.filter(&pending[..n + len - 1], &mut self.scratch[..n]);
                    // Whole output groups rather than `step_by`: no per-item stride
                    // arithmetic, and the group index is in bounds (p < i).
                    for (o, &s) in out.chunks_exact_mut(i).zip(&self.scratch[..n]) {
                        o[p] = s;
                    }
                }
                self.history.advance(n);
                produced += n * i;
            }
            if output.len() - produced < i {
                break;
            }
            let took = self.history.extend(&input[consumed..]);
            consumed += took;
            if took == 0 {
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
    use num_complex::{Complex32, Complex64};

    /// Zero-stuffed input convolved with the taps, in f64.
    fn naive(taps: &[f32], i: usize, x: &[Complex32]) -> Vec<Complex32> {
        let mut up = vec![Complex64::default(); x.len() * i];
        for (n, z) in to64(x).into_iter().enumerate() {
            up[n * i] = z;
        }
        let h: Vec<f64> = taps.iter().map(|&t| t.into()).collect();
        naive_convolve(&h, &up)
            .iter()
            .map(|z| Complex32::new(z.re as f32, z.im as f32))
            .collect()
    }

    #[test]
    fn matches_zero_stuffing_and_filtering_however_the_input_is_split() {
        for (taps_len, i) in [(1, 1), (7, 1), (12, 3), (61, 4), (5, 8), (100, 7)] {
            let taps = random_real(taps_len as u64, taps_len);
            let x = random_complex(i as u64, 3000);
            let want = naive(&taps, i, &x);
            let mut fir = InterpolatingFir::<Complex32>::new(&taps, i).unwrap();
            let whole = run_whole(&x, want.len(), |a, b| fir.process(a, b));
            assert_eq!(whole.len(), want.len());
            assert_close_complex(&whole, &want, 1e-5, "whole");
            let mut fir = InterpolatingFir::<Complex32>::new(&taps, i).unwrap();
            let split = run_split(5, &x, 900, |a, b| fir.process(a, b));
            assert_eq!(split, whole, "taps {taps_len} interpolation {i}");
        }
    }

    #[test]
    fn equals_gnu_radios_interp_fir_filter_ccf() {
        let taps = golden_real("lowpass_taps");
        let x = &golden_complex("noise")[..1000];
        let mut fir = InterpolatingFir::<Complex32>::new(&taps, 3).unwrap();
        let got = run_whole(x, 3000, |a, b| fir.process(a, b));
        assert_close_complex(&got, &golden_complex("interp_fir"), 1e-5, "interp 3");
    }
}
