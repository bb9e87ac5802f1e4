//! [`FftFir`]: FIR filtering by FFT (overlap-save), for long filters.

use crate::error::{check, ParamError};
use crate::history::{History, CHUNK};
use num_complex::Complex32;
use radioflow_fftplan::Fft;
use std::sync::Arc;

/// A streaming FIR filter with real taps on complex samples, computed by overlap-save FFT
/// convolution, as GNU Radio's `fft_filter_ccf` with decimation 1:
/// `y[n] = Σ_k taps[k] · x[n - k]` from zero history, the same outputs as
/// [`DecimatingFir`](crate::DecimatingFir) with decimation 1.
///
/// Each FFT of `size = 2^⌈log2(2·taps)⌉` samples (GNU Radio's choice) yields
/// `size - taps + 1` outputs, so the work per output grows with `log(taps)` instead of
/// `taps`: worth it from about a hundred taps. Outputs come a block at a time: up to that
/// many input samples wait for the block they complete.
///
/// ```
/// use radioflow_dsp::{Complex32, FftFir};
/// let mut fir = FftFir::new(&[0.5; 300])?;
/// assert_eq!(fir.fft_size(), 1024);
/// let x = vec![Complex32::new(1.0, -1.0); 10_000];
/// let mut y = vec![Complex32::default(); 10_000];
/// let (consumed, produced) = fir.process(&x, &mut y);
/// // Whole blocks of 1024 - 299 outputs.
/// assert_eq!((consumed, produced), (10_000, 13 * 725));
/// assert!((y[5000] - Complex32::new(150.0, -150.0)).norm() < 1e-3);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone)]
pub struct FftFir {
    taps: Vec<f32>,
    fft: Arc<dyn Fft<f32>>,
    ifft: Arc<dyn Fft<f32>>,
    /// The taps' spectrum (zero-padded to the FFT size), divided by the size because the
    /// inverse FFT does not scale.
    spectrum: Vec<Complex32>,
    history: History<Complex32>,
    /// The last block filtered; its outputs are `block[taps - 1..]`.
    block: Vec<Complex32>,
    /// Outputs `block[ready..]` are not handed out yet.
    ready: usize,
    scratch: Vec<Complex32>,
}

impl std::fmt::Debug for FftFir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FftFir")
            .field("taps", &self.taps.len())
            .field("fft_size", &self.block.len())
            .finish_non_exhaustive()
    }
}

impl FftFir {
    /// A filter with these taps (`taps[0]` weighs the newest sample).
    ///
    /// # Errors
    /// If `taps` is empty.
    pub fn new(taps: &[f32]) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        let size = (2 * taps.len()).next_power_of_two();
        let (fft, ifft) = (
            radioflow_fftplan::forward(size),
            radioflow_fftplan::inverse(size),
        );
        let mut spectrum = vec![Complex32::default(); size];
        for (s, &t) in spectrum.iter_mut().zip(taps) {
            *s = Complex32::new(t / size as f32, 0.0);
        }
        let scratch_len = fft
            .get_inplace_scratch_len()
            .max(ifft.get_inplace_scratch_len());
        let mut scratch = vec![Complex32::default(); scratch_len];
        fft.process_with_scratch(&mut spectrum, &mut scratch);
        Ok(Self {
            taps: taps.to_vec(),
            fft,
            ifft,
            spectrum,
            history: History::new(taps.len() - 1, CHUNK.max(size)),
            block: vec![Complex32::default(); size],
            ready: size,
            scratch,
        })
    }

    /// The taps, as given.
    pub fn taps(&self) -> &[f32] {
        &self.taps
    }

    /// The FFT size.
    pub fn fft_size(&self) -> usize {
        self.block.len()
    }

    /// Filters `input` into `output`: returns `(consumed, produced)`. It consumes input
    /// until `output` is full or `input` is used up; outputs come once their block is
    /// complete.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let size = self.block.len();
        let (mut consumed, mut produced) = (0, 0);
        loop {
            let n = (size - self.ready).min(output.len() - produced);
            output[produced..produced + n].copy_from_slice(&self.block[self.ready..self.ready + n]);
            self.ready += n;
            produced += n;
            if produced == output.len() {
                break;
            }
            let pending = self.history.pending();
            if pending.len() >= size {
                self.block.copy_from_slice(&pending[..size]);
                self.fft
                    .process_with_scratch(&mut self.block, &mut self.scratch);
                for (b, s) in self.block.iter_mut().zip(&self.spectrum) {
                    *b *= s;
                }
                self.ifft
                    .process_with_scratch(&mut self.block, &mut self.scratch);
                // The first taps - 1 outputs wrapped around (circular convolution): dropped.
                let valid = self.taps.len() - 1;
                self.history.advance(size - valid);
                self.ready = valid;
                continue;
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

    #[test]
    fn matches_the_naive_convolution_however_the_input_is_split() {
        for taps_len in [1, 2, 61, 200, 513] {
            let taps = random_real(taps_len as u64, taps_len);
            let x = random_complex(9, 6000);
            let h: Vec<f64> = taps.iter().map(|&t| t.into()).collect();
            let want: Vec<Complex32> = naive_convolve(&h, &to64(&x))
                .iter()
                .map(|z| Complex32::new(z.re as f32, z.im as f32))
                .collect();
            let mut fir = FftFir::new(&taps).unwrap();
            let step = fir.fft_size() - taps_len + 1;
            let whole = run_whole(&x, x.len(), |i, o| fir.process(i, o));
            // Whole blocks of `size` samples, `step` apart, over the history and the input.
            let blocks = (x.len() + taps_len - 1 - fir.fft_size()) / step + 1;
            assert_eq!(whole.len(), blocks * step);
            // f32 FFTs of size up to 2048: rounding of order 1e-6 of the RMS.
            assert_close_complex(&whole, &want[..whole.len()], 1e-5, "whole");
            let mut fir = FftFir::new(&taps).unwrap();
            let split = run_split(11, &x, 500, |i, o| fir.process(i, o));
            assert_eq!(split, whole, "{taps_len} taps");
        }
    }

    #[test]
    fn equals_gnu_radios_fft_filter_ccf() {
        let taps = golden_real("lowpass_taps");
        let x = golden_complex("noise");
        let mut fir = FftFir::new(&taps).unwrap();
        let got = run_whole(&x, x.len(), |i, o| fir.process(i, o));
        // GNU Radio (like this) outputs whole blocks only; compare what both made.
        let want = golden_complex("fft_filter");
        let n = got.len().min(want.len());
        assert!(n > 1900);
        assert_close_complex(&got[..n], &want[..n], 1e-5, "fft filter");
    }
}
