//! The front end: resampling to 2 samples per symbol (when the input is at another rate),
//! automatic gain control, matched RRC filter and symbol timing recovery, to one symbol per
//! sample.

use num_complex::Complex32;
use radioflow_dsp::firdes;
use radioflow_dsp::Fir;

use super::resample::Resample;
use super::sizes::{BLOCK, FLUSH_SYMBOLS, SPAN, SPS, ZEROS};
use super::timing::Gardner;

/// Block AGC and matched filter: the part of the front end without feedback.
#[derive(Debug, Clone)]
pub(crate) struct MatchedFilter {
    /// Block AGC gain applied to the matched filter's output.
    gain: f32,
    /// The gain has been set from a first block.
    gain_set: bool,
    mf: Fir<Complex32>,
    /// Matched filter input: `taps - 1` samples of history, then the block.
    mf_in: Vec<Complex32>,
}

impl MatchedFilter {
    /// The matched RRC filter for roll-off `alpha`.
    pub(crate) fn new(alpha: f64) -> Self {
        let taps = firdes::root_raised_cosine(1.0, SPS as f64, 1.0, alpha, 2 * SPAN * SPS + 1)
            .expect("valid RRC parameters");
        let ntaps = taps.len();
        let mut mf_in = Vec::with_capacity(BLOCK + ntaps);
        mf_in.resize(ntaps - 1, Complex32::new(0.0, 0.0));
        MatchedFilter {
            gain: 1.0,
            gain_set: false,
            mf: Fir::new(&taps),
            mf_in,
        }
    }

    /// Filters up to [`BLOCK`] samples of `input` into `y` (as long as `input`), at unit mean
    /// power; with `adapt` false (the samples after the end of the input: the filter's
    /// decaying tail, then nothing) at the gain of the blocks before.
    pub(crate) fn process_block(&mut self, input: &[Complex32], y: &mut [Complex32], adapt: bool) {
        debug_assert!(input.len() <= BLOCK && y.len() == input.len());
        let hist = self.mf.taps().len() - 1;
        self.mf_in.truncate(hist);
        self.mf_in.extend_from_slice(input);
        let n = input.len();
        self.mf.filter(&self.mf_in, y);
        // Block AGC: unit mean power at the matched filter's output (signal plus noise).
        let power: f32 = y.iter().map(|s| s.norm_sqr()).sum::<f32>() / n.max(1) as f32;
        if adapt && power > 0.0 && power.is_finite() {
            let target = power.sqrt().recip();
            if self.gain_set {
                self.gain += 0.25 * (target - self.gain);
            } else {
                self.gain = target;
                self.gain_set = true;
            }
        }
        let g = self.gain;
        for s in y.iter_mut() {
            *s *= g;
        }
        self.mf_in.copy_within(n.., 0);
    }
}

/// Resampler (for an input not at 2 samples per symbol), AGC, matched filter and Gardner
/// timing recovery.
#[derive(Debug, Clone)]
pub(crate) struct FrontEnd {
    pub(crate) resample: Option<Resample>,
    /// One block of resampled input (empty without a resampler).
    resampled: Vec<Complex32>,
    pub(crate) mf: MatchedFilter,
    pub(crate) timing: Gardner,
}

impl FrontEnd {
    /// A front end for input at `sps` samples per symbol (checked by the caller), RRC roll-off
    /// `alpha` and a timing loop bandwidth `bn_t` (× symbol rate).
    pub(crate) fn new(alpha: f64, bn_t: f64, sps: f64) -> Self {
        let resample = (sps != SPS as f64).then(|| Resample::new(sps, alpha));
        let room = if resample.is_some() { BLOCK } else { 0 };
        FrontEnd {
            resample,
            resampled: vec![Complex32::new(0.0, 0.0); room],
            mf: MatchedFilter::new(alpha),
            timing: Gardner::new(SPS as f64, bn_t),
        }
    }

    /// Input samples per call of [`process_block`](Self::process_block): [`BLOCK`] at 2
    /// samples per symbol, else as many as resample to at most [`BLOCK`].
    pub(crate) fn input_block(&self) -> usize {
        self.resample.as_ref().map_or(BLOCK, Resample::block)
    }

    /// Current estimate of the input's samples per symbol.
    pub(crate) fn samples_per_symbol(&self) -> f64 {
        let ratio = self.resample.as_ref().map_or(1.0, Resample::ratio);
        self.timing.samples_per_symbol() * ratio
    }

    /// Filters up to [`input_block`](Self::input_block) samples of `input` and appends the
    /// recovered symbols to `out`.
    pub(crate) fn process_block(&mut self, input: &[Complex32], out: &mut Vec<Complex32>) {
        debug_assert!(input.len() <= self.input_block());
        let input = match &mut self.resample {
            Some(rs) => {
                let n = rs.process(input, &mut self.resampled);
                &self.resampled[..n]
            }
            None => input,
        };
        let y = self.timing.input_space(input.len());
        self.mf.process_block(input, y, true);
        self.timing.run(out);
    }

    /// The input has ended: pushes zeros through the resampler (its whole filter), the
    /// matched filter (its gain held) and the timing loop, [`FLUSH_SYMBOLS`] symbols' worth
    /// after the last input sample, and appends the symbols that come out (the last input's,
    /// then the filters' ringing over the zeros).
    pub(crate) fn finish(&mut self, out: &mut Vec<Complex32>) {
        let input = match &mut self.resample {
            Some(rs) => {
                let n = rs.finish(&mut self.resampled);
                &self.resampled[..n]
            }
            None => &ZEROS[..FLUSH_SYMBOLS * SPS],
        };
        let y = self.timing.input_space(input.len());
        self.mf.process_block(input, y, false);
        self.timing.run(out);
    }
}
