//! [`DecimatingFir`]: a streaming FIR filter keeping every `decimation`-th output.

use crate::error::{check, ParamError};
use crate::fir::{Fir, FirSample};
use crate::history::{windows, History, CHUNK};

/// A streaming FIR filter with real taps that keeps one output in `decimation`, with GNU
/// Radio's `fir_filter_xxf` semantics: `y[k] = Σ_j taps[j] · x[k·decimation - j]`, the input
/// starting from zero history (so `y[0] = taps[0] · x[0]`).
///
/// State is kept between calls: the output does not depend on how the input is split into
/// calls. For short filters and small decimations every output is computed, vectorized
/// across outputs, and every `decimation`-th kept; otherwise only the kept outputs are
/// computed, each a dot product vectorized along the taps (whichever is faster, see
/// `PICK_WORK` in the source).
///
/// ```
/// use radioflow_dsp::DecimatingFir;
/// let mut fir = DecimatingFir::<f32>::new(&[0.5, 0.5], 2)?;
/// let mut y = [0.0; 4];
/// // y[k] = (x[2k] + x[2k-1]) / 2, with x[-1] = 0.
/// assert_eq!(fir.process(&[2.0, 4.0, 6.0, 8.0, 10.0], &mut y), (5, 3));
/// assert_eq!(y[..3], [1.0, 5.0, 9.0]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DecimatingFir<T: FirSample> {
    fir: Fir<T>,
    decimation: usize,
    history: History<T>,
    /// Every output of a chunk, when computing them all pays ([`PICK_WORK`]; else empty).
    all: Vec<T>,
}

/// Computing every output (vectorized across outputs) and keeping one in `D` costs about
/// `D · taps · components / 16` cycles per kept output on AVX2; computing only the kept ones
/// (a dot product vectorized along the taps) `taps · components / 16` plus a fixed ~40 for
/// its reduction and tail. So every output is computed while `(D - 1) · taps · components`
/// is below this. Measured (24 M samples, AVX2, release): complex, 45 taps, by 5: 245 Msps
/// in computing all against 126 kept only; real, 385 taps, by 2: 72 against 48, by 4: 75
/// against 93, by 5: 82 against 152; complex, 145 taps, by 10: 296 kept only.
const PICK_WORK: usize = 640;

impl<T: FirSample> DecimatingFir<T> {
    /// A filter with these taps (`taps[0]` weighs the newest sample) keeping one output in
    /// `decimation`.
    ///
    /// # Errors
    /// If `taps` is empty or `decimation` is 0.
    pub fn new(taps: &[f32], decimation: usize) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        check(decimation > 0, "decimation", || "must be at least 1".into())?;
        let pick = decimation >= 2 && (decimation - 1) * taps.len() * T::COMPONENTS < PICK_WORK;
        Ok(Self {
            fir: Fir::new(taps),
            decimation,
            history: History::new(taps.len() - 1, CHUNK.max(taps.len() + decimation)),
            all: vec![T::default(); if pick { CHUNK } else { 0 }],
        })
    }

    /// The taps, as given.
    pub fn taps(&self) -> &[f32] {
        self.fir.taps()
    }

    /// The decimation factor.
    pub fn decimation(&self) -> usize {
        self.decimation
    }

    /// Filters from `input` into `output`: returns `(consumed, produced)`. It consumes input
    /// until `output` is full or `input` is used up, keeping what later outputs need; an
    /// output is produced once its last input has been consumed (by this call or earlier).
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        self.process_with(input, output, |i, o| o.copy_from_slice(i))
    }

    /// [`process`](Self::process) with the input transformed on its way into the history by
    /// `load(input, slots)` (the frequency-translating filter mixes it there).
    pub(crate) fn process_with<S>(
        &mut self,
        input: &[S],
        output: &mut [T],
        mut load: impl FnMut(&[S], &mut [T]),
    ) -> (usize, usize) {
        let (len, d) = (self.fir.taps().len(), self.decimation);
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let pending = self.history.pending();
            let mut n = windows(pending.len(), len, d).min(output.len() - produced);
            if !self.all.is_empty() {
                // Every output from the first kept one to the last: (n - 1)·d + 1.
                n = n.min((self.all.len() - 1) / d + 1);
            }
            if n > 0 {
                let out = &mut output[produced..produced + n];
                if d == 1 {
                    self.fir.filter(&pending[..n + len - 1], out);
                } else if self.all.is_empty() {
                    self.fir.filter_decimated(pending, out, d);
                } else {
                    let span = (n - 1) * d + 1;
                    self.fir
                        .filter(&pending[..span + len - 1], &mut self.all[..span]);
                    for (o, &a) in out.iter_mut().zip(self.all.iter().step_by(d)) {
                        *o = a;
                    }
                }
                self.history.advance(n * d);
                produced += n;
            }
            if produced == output.len() {
                break;
            }
            let took = self.history.load(&input[consumed..], &mut load);
            consumed += took;
            if took == 0 {
                break;
            }
        }
        (consumed, produced)
    }

    /// Forgets the input seen so far: back to zero history.
    pub fn reset(&mut self) {
        self.history.reset(self.fir.taps().len() - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex32;

    #[test]
    fn matches_the_naive_filter_however_the_input_is_split() {
        for (taps_len, d) in [(1, 1), (5, 1), (33, 1), (7, 3), (61, 4), (3, 10), (100, 7)] {
            let taps = random_real(taps_len as u64, taps_len);
            let x = random_complex(d as u64 + 100, 5000);
            let full = naive_convolve(
                &taps.iter().map(|&t| t.into()).collect::<Vec<_>>(),
                &to64(&x),
            );
            let want: Vec<Complex32> = full
                .iter()
                .step_by(d)
                .map(|z| Complex32::new(z.re as f32, z.im as f32))
                .collect();
            let mut fir = DecimatingFir::<Complex32>::new(&taps, d).unwrap();
            let whole = run_whole(&x, want.len() + 10, |i, o| fir.process(i, o));
            assert_eq!(whole.len(), want.len());
            // f32 sums of up to 100 terms of magnitude ≤ 1: within 1e-5 of the RMS.
            assert_close_complex(&whole, &want, 1e-5, "whole");
            let mut fir = DecimatingFir::<Complex32>::new(&taps, d).unwrap();
            let split = run_split(7 * d as u64, &x, 300, |i, o| fir.process(i, o));
            assert_eq!(split, whole, "taps {taps_len} d {d}: split differs");
        }
    }

    #[test]
    fn equals_gnu_radios_fir_filter_ccf() {
        let taps = golden_real("lowpass_taps");
        let x = golden_complex("noise");
        let mut fir = DecimatingFir::<Complex32>::new(&taps, 4).unwrap();
        let got = run_whole(&x, x.len(), |i, o| fir.process(i, o));
        assert_close_complex(&got, &golden_complex("decim_fir"), 1e-5, "decim 4");
    }

    #[test]
    fn reset_starts_over() {
        let mut fir = DecimatingFir::<f32>::new(&[1.0, 2.0, 3.0], 2).unwrap();
        let mut a = [0.0; 3];
        fir.process(&[1.0, 1.0, 1.0, 1.0, 1.0], &mut a);
        fir.reset();
        let mut b = [0.0; 3];
        fir.process(&[1.0, 1.0, 1.0, 1.0, 1.0], &mut b);
        assert_eq!(a, b);
        assert_eq!(a, [1.0, 6.0, 6.0]);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert_eq!(DecimatingFir::<f32>::new(&[], 1).unwrap_err().name, "taps");
        assert_eq!(
            DecimatingFir::<f32>::new(&[1.0], 0).unwrap_err().name,
            "decimation"
        );
    }
}
