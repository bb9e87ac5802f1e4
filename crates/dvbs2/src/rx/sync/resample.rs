//! A recording at any rate brought to the front end's 2 samples per symbol.
//!
//! Resampling in front, not a timing loop at the recording's rate: the Gardner loop's cubic
//! interpolator needs its input well oversampled (at 1.3 samples per symbol the signal's
//! band reaches 0.46 of the sample rate, where a 4-point interpolator is poor), and the matched
//! filter, timing loop and frame synchronisation stay the ones validated at 2 samples per
//! symbol, with their block sizes. One polyphase kernel ([`ArbResampler`], 32 branches)
//! serves every ratio: for a rate that is a multiple of 1/16 sample per symbol (every whole
//! number, 2.5, 3.0625, ...) each output falls on a branch and it is exactly a polyphase
//! rational resampler; otherwise two adjacent branches are interpolated linearly.
//!
//! The anti-alias low-pass, in symbol rates `Rs`: the signal occupies `±(1 + α)/2` (plus the
//! carrier offset); after resampling to `2·Rs` anything at `f` shows at `f - 2`, and the
//! images of an input at `s·Rs` sit at `s - f`. With `m = min(s, 2)` the lower of the two
//! rates, nothing lands on the signal's band if the filter stops from `m - (1 + α)/2 - Δ`,
//! while passing `(1 + α)/2 + Δ` for a carrier offset `Δ`. So the filter is cut at `m/2`
//! with a transition `m - (1 + α) - 2Δ`, `Δ` the smaller of 5 % of the symbol rate (the
//! receiver's specified carrier range) and a quarter of the spare band `m - (1 + α)`. Below
//! `1 + α + 0.05` samples per symbol there is too little spare band for a filter of sensible
//! length (and none at `1 + α`): such rates are refused.

use num_complex::Complex32;
use radioflow_dsp::firdes::{self, Window};
use radioflow_dsp::ArbResampler;

use super::sizes::{BLOCK, FLUSH_SYMBOLS, SPS, ZEROS};

/// Polyphase branches: with 32, every rate that is a multiple of 1/16 sample per symbol
/// falls on the branches exactly; elsewhere the error of the linear interpolation between
/// them is about 60 dB below the signal at its band's edge, less inside.
const FILTERS: usize = 32;
/// Carrier offset the filter passes undistorted where the rate leaves room, × symbol rate.
const CARRIER_MARGIN: f64 = 0.05;
/// Least spare band `min(s, 2) - (1 + α)`, symbol rates: the lowest rate accepted is
/// `1 + α + MIN_SPARE`.
pub(crate) const MIN_SPARE: f64 = 0.05;
/// Highest rate accepted, samples per symbol (the transmitter's highest).
pub(crate) const MAX_SPS: f64 = 64.0;
/// Kaiser window shape: about 70 dB at the band edges with [`WIDTH_ASKED`].
const KAISER_BETA: f64 = 7.0;
/// The tap count rule of [`firdes::low_pass`] (GNU Radio's) underestimates the Kaiser
/// window's transition: asked for 0.7 of the width wanted, the filter is about 70 dB down at
/// both true edges (it would be 35 dB asked for the full width).
const WIDTH_ASKED: f64 = 0.7;

/// The resampler of a front end whose input is not at 2 samples per symbol.
#[derive(Debug, Clone)]
pub(crate) struct Resample {
    rs: ArbResampler<Complex32>,
    /// Input samples per block: one block makes at most [`BLOCK`] outputs.
    block: usize,
    /// Input samples per output sample: `sps / 2`.
    ratio: f64,
}

impl Resample {
    /// A resampler from `sps` (finite, in `[1 + roll_off + MIN_SPARE, MAX_SPS]`) to 2 samples
    /// per symbol for RRC roll-off `roll_off`.
    pub(crate) fn new(sps: f64, roll_off: f64) -> Self {
        let lower = sps.min(SPS as f64);
        let spare = lower - (1.0 + roll_off);
        debug_assert!(spare >= MIN_SPARE * 0.999 && sps <= MAX_SPS, "sps {sps}");
        let margin = CARRIER_MARGIN.min(spare / 4.0);
        let transition = spare - 2.0 * margin;
        let n = FILTERS as f64;
        let taps = firdes::low_pass(
            n,
            n * sps,
            lower / 2.0,
            WIDTH_ASKED * transition,
            Window::Kaiser { beta: KAISER_BETA },
        )
        .expect("a low-pass within the checked rates");
        let ratio = sps / SPS as f64;
        let rs = ArbResampler::new(&taps, FILTERS, 1.0 / ratio).expect("valid resampler");
        // n inputs make at most ⌈n / ratio⌉ + 1 outputs.
        let block = (((BLOCK - 2) as f64 * ratio).floor() as usize).max(1);
        Resample { rs, block, ratio }
    }

    /// Input samples per block: their outputs fit in [`BLOCK`].
    pub(crate) fn block(&self) -> usize {
        self.block
    }

    /// Input samples per output sample.
    pub(crate) fn ratio(&self) -> f64 {
        self.ratio
    }

    /// The input has ended: resamples zeros into `out`, as many as push the last input
    /// sample out of the filter (taps per branch) and [`FLUSH_SYMBOLS`] symbols' worth more;
    /// returns the samples written (fewer than [`BLOCK`]).
    ///
    /// # Panics
    /// If `out` is shorter than they are.
    pub(crate) fn finish(&mut self, out: &mut [Complex32]) -> usize {
        let memory = self.rs.taps().len().div_ceil(self.rs.filters());
        let mut left = memory + (FLUSH_SYMBOLS as f64 * SPS as f64 * self.ratio).ceil() as usize;
        let mut made = 0;
        while left > 0 {
            let zeros = &ZEROS[..left.min(ZEROS.len())];
            made += self.process(zeros, &mut out[made..]);
            left -= zeros.len();
        }
        made
    }

    /// Resamples all of `input` into `out`; returns the samples written.
    ///
    /// # Panics
    /// If `out` cannot hold them (`⌈input.len() / ratio⌉ + 1` is always enough).
    pub(crate) fn process(&mut self, input: &[Complex32], out: &mut [Complex32]) -> usize {
        let (consumed, produced) = self.rs.process(input, out);
        assert_eq!(
            consumed,
            input.len(),
            "{} resampled samples do not fit in {}",
            (input.len() as f64 / self.ratio).ceil(),
            out.len()
        );
        produced
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_never_makes_more_than_a_block_of_outputs() {
        for sps in [1.25, 1.7, 2.5, 3.0, 3.37, 4.0, 16.0, 64.0] {
            let mut rs = Resample::new(sps, 0.2);
            let x = vec![Complex32::new(0.5, -0.5); rs.block()];
            let mut y = vec![Complex32::new(0.0, 0.0); BLOCK];
            let mut total = 0;
            for _ in 0..20 {
                let m = rs.process(&x, &mut y);
                assert!(m <= BLOCK, "{sps}: {m}");
                total += m;
            }
            // Two samples per symbol out, less the filter's first window.
            let want = 20.0 * rs.block() as f64 / rs.ratio();
            assert!(
                (total as f64) <= want + 1.0 && (total as f64) > want - 500.0,
                "{sps}: {total} of {want}"
            );
        }
    }
}
