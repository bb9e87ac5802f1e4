//! [`CyclicPrefixer`]: OFDM symbols with their cyclic prefixes and raised-cosine flanks.

use crate::error::{check, ParamError};
use num_complex::Complex32;
use std::f64::consts::PI;

/// Prepends a cyclic prefix to each OFDM symbol of `fft_len` time-domain samples, as GNU
/// Radio's `ofdm_cyclic_prefixer`: the prefix lengths are taken in turn from a list (LTE's
/// `(160,) + (144,)*6`; one length for a uniform prefix), and with a `rolloff` of `r` > 1
/// samples the first `r - 1` outputs of each symbol are shaped by a raised-cosine up-flank
/// and overlap the previous symbol's cyclic continuation, shaped by the down-flank
/// (`up[i] = (1 + cos(π(i+1)/r - π)) / 2`, `down[i] = (1 + cos(π(r-i-1)/r - π)) / 2`).
///
/// ```
/// use radioflow_dsp::{Complex32, CyclicPrefixer};
/// let mut cp = CyclicPrefixer::new(4, &[2], 0)?;
/// let x: Vec<Complex32> = (1..=4).map(|k| Complex32::new(k as f32, 0.0)).collect();
/// let mut y = vec![Complex32::default(); cp.next_len()];
/// cp.symbol(&x, &mut y);
/// let re: Vec<f32> = y.iter().map(|z| z.re).collect();
/// assert_eq!(re, [3.0, 4.0, 1.0, 2.0, 3.0, 4.0]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CyclicPrefixer {
    fft_len: usize,
    cp_lengths: Vec<usize>,
    /// Index of the next symbol's prefix length in `cp_lengths`.
    state: usize,
    up: Vec<f32>,
    down: Vec<f32>,
    /// The previous symbol's shaped continuation, added to the next one's first outputs.
    delay: Vec<Complex32>,
}

impl CyclicPrefixer {
    /// Symbols of `fft_len` samples with prefixes of `cp_lengths` in turn and flanks of
    /// `rolloff` samples (0 or 1: none).
    ///
    /// # Errors
    /// If `fft_len` is 0 (names `fft_len`); if `cp_lengths` is empty, all 0, or has a
    /// length above `fft_len` (names `cp_lengths`; GNU Radio reads outside the symbol
    /// there); if `rolloff` is above a prefix length (names `rolloff`), as GNU Radio
    /// refuses it.
    pub fn new(fft_len: usize, cp_lengths: &[usize], rolloff: usize) -> Result<Self, ParamError> {
        check(fft_len > 0, "fft_len", || "must be at least 1".into())?;
        check(cp_lengths.iter().any(|&c| c > 0), "cp_lengths", || {
            "needs at least one prefix length that is not 0".into()
        })?;
        check(
            cp_lengths.iter().all(|&c| c <= fft_len),
            "cp_lengths",
            || format!("a prefix is at most the symbol's {fft_len} samples long"),
        )?;
        let r = if rolloff == 1 { 0 } else { rolloff };
        // GNU Radio's message says "smaller", its test lets a rolloff equal to a prefix by.
        check(cp_lengths.iter().all(|&c| r <= c), "rolloff", || {
            format!("{rolloff} must be at most every cyclic prefix length")
        })?;
        let flank = |k: usize| (0.5 * (1.0 + (PI * k as f64 / r as f64 - PI).cos())) as f32;
        let taps = r.saturating_sub(1);
        Ok(Self {
            fft_len,
            cp_lengths: cp_lengths.to_vec(),
            state: 0,
            up: (1..=taps).map(flank).collect(),
            down: (1..=taps).map(|i| flank(r - i)).collect(),
            delay: vec![Complex32::default(); taps],
        })
    }

    /// Samples per input symbol.
    pub fn fft_len(&self) -> usize {
        self.fft_len
    }

    /// The length of the next symbol's output (its prefix and the symbol).
    pub fn next_len(&self) -> usize {
        self.fft_len + self.cp_lengths[self.state]
    }

    /// The output length of the next `n` symbols.
    pub fn len_of(&self, n: usize) -> usize {
        let k = self.cp_lengths.len();
        (0..n)
            .map(|i| self.fft_len + self.cp_lengths[(self.state + i) % k])
            .sum()
    }

    /// The samples [`flush`](Self::flush) writes: `rolloff - 1`, or 0.
    pub fn tail_len(&self) -> usize {
        self.delay.len()
    }

    /// One symbol `x` with its prefix (and flanks) into the first
    /// [`next_len`](Self::next_len) samples of `y`; moves to the next prefix length.
    ///
    /// # Panics
    /// If `x` is not `fft_len` samples or `y` is shorter than the output.
    pub fn symbol(&mut self, x: &[Complex32], y: &mut [Complex32]) {
        let n = self.fft_len;
        assert_eq!(x.len(), n, "a symbol is {n} samples");
        let cp = self.cp_lengths[self.state];
        y[..cp].copy_from_slice(&x[n - cp..]);
        y[cp..cp + n].copy_from_slice(x);
        for (i, d) in self.delay.iter_mut().enumerate() {
            y[i] = y[i] * self.up[i] + *d;
            *d = x[i] * self.down[i];
        }
        self.state = (self.state + 1) % self.cp_lengths.len();
    }

    /// Writes the last symbol's shaped continuation ([`tail_len`](Self::tail_len) samples)
    /// into `y` and clears it (the end of a frame).
    pub fn flush(&mut self, y: &mut [Complex32]) {
        for (o, d) in y.iter_mut().zip(&mut self.delay) {
            *o = std::mem::take(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[f32]) -> Vec<Complex32> {
        v.iter().map(|&r| Complex32::new(r, 0.0)).collect()
    }

    fn re(v: &[Complex32]) -> Vec<f32> {
        v.iter().map(|z| z.re).collect()
    }

    #[test]
    fn prefixes_in_turn_and_flanks_as_gnu_radio() {
        // GNU Radio 3.10: ofdm_cyclic_prefixer(8, 12, 3, "len") on 1..=16 as one frame.
        let x = c(&(1..=16).map(|k| k as f32).collect::<Vec<_>>());
        let mut cp = CyclicPrefixer::new(8, &[4], 3).unwrap();
        let mut y = vec![Complex32::default(); 26];
        cp.symbol(&x[..8], &mut y[..12]);
        cp.symbol(&x[8..], &mut y[12..24]);
        cp.flush(&mut y[24..]);
        let want = [
            1.25, 4.5, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 4.0, 11.0, 15.0, 16.0,
            9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 6.75, 2.5,
        ];
        for (g, w) in re(&y).iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{:?}", re(&y));
        }
        // A list of lengths in turn: 2, 1, 2.
        let mut cp = CyclicPrefixer::new(4, &[2, 1], 0).unwrap();
        assert_eq!(cp.len_of(3), 17);
        let mut y = vec![Complex32::default(); 6];
        cp.symbol(&x[..4], &mut y);
        assert_eq!(re(&y), [3.0, 4.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(cp.next_len(), 5);
        cp.symbol(&x[4..8], &mut y[..5]);
        assert_eq!(re(&y[..5]), [8.0, 5.0, 6.0, 7.0, 8.0]);
    }

    #[test]
    fn bad_parameters_are_named() {
        let name =
            |f: usize, cp: &[usize], r: usize| CyclicPrefixer::new(f, cp, r).unwrap_err().name;
        assert_eq!(name(0, &[1], 0), "fft_len");
        assert_eq!(name(8, &[], 0), "cp_lengths");
        assert_eq!(name(8, &[0, 0], 0), "cp_lengths");
        assert_eq!(name(8, &[9], 0), "cp_lengths");
        assert_eq!(name(8, &[4, 2], 3), "rolloff");
        assert!(
            CyclicPrefixer::new(4, &[2], 2).is_ok(),
            "GNU Radio takes a rolloff of the prefix"
        );
        assert!(
            CyclicPrefixer::new(8, &[4, 0], 1).is_ok(),
            "a rolloff of 1 is none"
        );
    }
}
