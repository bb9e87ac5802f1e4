//! [`StereoDecoder`]: FM broadcast stereo, from the demodulated multiplex to left and right.

use crate::complex_tap_fir::ComplexTapFir;
use crate::decimating_fir::DecimatingFir;
use crate::error::{check, positive, ParamError};
use crate::firdes::{self, Window};
use crate::moving_average::Delay;
use crate::pll::Pll;
use num_complex::Complex32;
use std::f64::consts::PI;

/// Samples of multiplex handled per inner step (the scratch buffers' length).
const STEP: usize = 4096;

/// Pilot frequency (ITU-R BS.450-3: 19 kHz ± 2 Hz).
const PILOT: f64 = 19e3;

/// The pilot's amplitude (after the one-sided pilot filter, which halves it) above which
/// the decoder is in stereo, in multiplex units (1 = full deviation): a pilot injected at
/// 3% or more. BS.450 asks for 8-10%; without a pilot the decoder gives mono.
const LOCK_LEVEL: f32 = 0.015;

/// Decodes an FM stereo multiplex (ITU-R BS.450: `M = (L+R) + (L-R)·sin(2θ) + p·sin(θ)`,
/// `θ` the 19 kHz pilot's phase) into left and right audio, filtered to 15 kHz and decimated:
///
/// 1. the pilot is picked out as a complex tone by a one-sided band-pass (18.5-19.5 kHz,
///    [`ComplexTapFir`]) and tracked by a [`Pll`];
/// 2. the 38 kHz subcarrier is regenerated from the loop's phase `φ` (the pilot's phase
///    minus π/2, the analytic signal of `sin θ` being `-j·e^{jθ}`):
///    `2·sin(2θ) = -2·sin(2φ)`;
/// 3. the multiplex, delayed by the pilot filter's group delay so the regenerated subcarrier
///    lines up with it, gives `L+R` through a low-pass and `L-R` through the same low-pass
///    after the product with the subcarrier;
/// 4. `L = (L+R) + (L-R)`, `R = (L+R) - (L-R)`, so a mono listener's `L+R` and the stereo
///    channels have the same scale.
///
/// Without a pilot (its level, see [`pilot_level`](Self::pilot_level), under 0.015 (a 3%
/// injection) over a 4096-sample step) the `L-R` part
/// is left out: both outputs are the mono `L+R`. De-emphasis is not applied (it is linear,
/// so it may follow, on each channel).
///
/// ```
/// use radioflow_dsp::StereoDecoder;
/// use std::f64::consts::PI;
/// // 240 kHz multiplex: left 1 kHz, right silent, pilot at 10%; out at 48 kHz.
/// let fs = 240e3;
/// let mpx: Vec<f32> = (0..48_000)
///     .map(|n| {
///         let t = n as f64 / fs;
///         let (l, r) = (0.4 * (2.0 * PI * 1e3 * t).sin(), 0.0);
///         let theta = 2.0 * PI * 19e3 * t;
///         (0.5 * (l + r) + 0.5 * (l - r) * (2.0 * theta).sin() + 0.1 * theta.sin()) as f32
///     })
///     .collect();
/// let mut dec = StereoDecoder::new(fs, 5)?;
/// let (mut left, mut right) = (vec![0.0; 9_600], vec![0.0; 9_600]);
/// assert_eq!(dec.process(&mpx, &mut left, &mut right), (48_000, 9_600));
/// assert!(dec.is_stereo());
/// let peak = |x: &[f32]| x.iter().fold(0f32, |m, v| m.max(v.abs()));
/// assert!((peak(&left[4_800..]) - 0.4).abs() < 0.01);
/// assert!(peak(&right[4_800..]) < 0.004); // better than 40 dB apart
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct StereoDecoder {
    pilot: ComplexTapFir,
    pll: Pll,
    delay: Delay<f32>,
    sum: DecimatingFir<f32>,
    diff: DecimatingFir<f32>,
    decimation: usize,
    /// Inputs consumed so far, modulo `decimation`.
    phase: usize,
    stereo: bool,
    pilot_level: f32,
    scratch_pilot: Vec<Complex32>,
    scratch_reference: Vec<Complex32>,
    scratch_delayed: Vec<f32>,
    scratch_mixed: Vec<f32>,
    scratch_sum: Vec<f32>,
    scratch_diff: Vec<f32>,
}

impl StereoDecoder {
    /// A decoder for a multiplex at `sample_rate` (at least 120 kHz: the `L-R` band reaches
    /// 53 kHz), giving audio at `sample_rate / decimation` (at least 32 kHz, for the 15 kHz
    /// audio band).
    ///
    /// # Errors
    /// If `sample_rate` is not finite or below 120 kHz, `decimation` is 0, or the audio
    /// rate is below 32 kHz.
    pub fn new(sample_rate: f64, decimation: usize) -> Result<Self, ParamError> {
        positive("sample_rate", sample_rate)?;
        check(sample_rate >= 120e3, "sample_rate", || {
            format!("{sample_rate} Hz is too low for a stereo multiplex (at least 120000)")
        })?;
        check(decimation > 0, "decimation", || "must be at least 1".into())?;
        check(
            sample_rate / decimation as f64 >= 32e3,
            "decimation",
            || {
                format!(
                    "{decimation} leaves {} Hz of audio rate, below 32000",
                    sample_rate / decimation as f64
                )
            },
        )?;
        // Stop bands from 15.5 kHz (L+R ends at 15) and 22.5 kHz (L-R starts at 23) around
        // the pilot: half the band's 1 kHz plus half the 6 kHz transition.
        let pilot_taps = firdes::complex_band_pass(
            1.0,
            sample_rate,
            PILOT - 500.0,
            PILOT + 500.0,
            6e3,
            Window::Hamming,
        )?;
        // 15 kHz audio; the pilot (at 19 kHz) in the stop band.
        let audio = firdes::low_pass(1.0, sample_rate, 16.5e3, 3e3, Window::Hamming)?;
        let w = |f: f64| (2.0 * PI * f / sample_rate) as f32;
        Ok(Self {
            // The delay of a linear-phase filter of N (odd) taps.
            delay: Delay::new((pilot_taps.len() - 1) / 2),
            pilot: ComplexTapFir::new(&pilot_taps, 1)?,
            // About 40 Hz of loop bandwidth at 240 kHz.
            pll: Pll::new(1e-3, w(PILOT + 100.0), w(PILOT - 100.0))?,
            sum: DecimatingFir::new(&audio, decimation)?,
            diff: DecimatingFir::new(&audio, decimation)?,
            decimation,
            phase: 0,
            stereo: false,
            pilot_level: 0.0,
            scratch_pilot: vec![Complex32::default(); STEP],
            scratch_reference: vec![Complex32::default(); STEP],
            scratch_delayed: vec![0.0; STEP],
            scratch_mixed: vec![0.0; STEP],
            scratch_sum: vec![0.0; STEP + 1],
            scratch_diff: vec![0.0; STEP + 1],
        })
    }

    /// The decimation from multiplex to audio.
    pub fn decimation(&self) -> usize {
        self.decimation
    }

    /// Whether the last step was decoded in stereo (a pilot was there and tracked).
    pub fn is_stereo(&self) -> bool {
        self.stereo
    }

    /// The pilot's level measured over the last step: its in-phase amplitude after the
    /// one-sided pilot filter, in multiplex units (about half the injection when locked).
    pub fn pilot_level(&self) -> f32 {
        self.pilot_level
    }

    /// The loop's pilot frequency estimate, in Hz at `sample_rate`.
    pub fn pilot_frequency(&self, sample_rate: f64) -> f64 {
        f64::from(self.pll.frequency()) * sample_rate / (2.0 * PI)
    }

    /// Decodes `mpx` into `left` and `right`: returns `(consumed, produced)`, the same
    /// count written to both. It consumes input until the shorter output is full or the
    /// input is used up; audio sample `k` is the filtered multiplex at input `k·decimation`
    /// (counted from the first call), as [`DecimatingFir`].
    pub fn process(&mut self, mpx: &[f32], left: &mut [f32], right: &mut [f32]) -> (usize, usize) {
        let d = self.decimation;
        let space = left.len().min(right.len());
        let (mut consumed, mut produced) = (0, 0);
        while consumed < mpx.len() {
            // Inputs that complete at most the outputs there is room for: output k needs
            // input k·d, so after the next (d - phase) % d inputs each d more make one.
            let fits = (space - produced) * d + (d - self.phase) % d;
            let n = (mpx.len() - consumed).min(STEP).min(fits);
            if n == 0 {
                break;
            }
            let x = &mpx[consumed..consumed + n];
            let p = self.step(x, &mut left[produced..space], &mut right[produced..space]);
            consumed += n;
            produced += p;
            self.phase = (self.phase + n) % d;
        }
        (consumed, produced)
    }

    /// Decodes `x` (at most [`STEP`] samples, whose outputs fit) into the outputs.
    fn step(&mut self, x: &[f32], left: &mut [f32], right: &mut [f32]) -> usize {
        let n = x.len();
        let pilot = &mut self.scratch_pilot[..n];
        let reference = &mut self.scratch_reference[..n];
        let (c, p) = self.pilot.process(x, pilot);
        debug_assert_eq!((c, p), (n, n), "an undecimated filter makes one per input");
        self.pll.reference(pilot, reference);
        // In-phase correlation of the pilot with the loop's carrier: the pilot's amplitude
        // when locked, about 0 otherwise.
        let level = pilot
            .iter()
            .zip(&*reference)
            .map(|(p, r)| p.re * r.re + p.im * r.im)
            .sum::<f32>()
            / n as f32;
        self.pilot_level = level;
        self.stereo = level > LOCK_LEVEL;
        let delayed = &mut self.scratch_delayed[..n];
        self.delay.process(x, delayed);
        let mixed = &mut self.scratch_mixed[..n];
        if self.stereo {
            // -2·sin(2φ) = -4·sin φ·cos φ.
            for ((m, &v), r) in mixed.iter_mut().zip(&*delayed).zip(&*reference) {
                *m = -4.0 * v * r.re * r.im;
            }
        } else {
            mixed.fill(0.0);
        }
        // One slot more than the outputs due: a full output would stop the filters before
        // they take the inputs after the last output's.
        let room = left.len().min(STEP) + 1;
        let sum = &mut self.scratch_sum[..room];
        let diff = &mut self.scratch_diff[..room];
        let (c1, p1) = self.sum.process(delayed, sum);
        let (c2, p2) = self.diff.process(mixed, diff);
        debug_assert!(c1 == n && c2 == n && p1 == p2, "the caller sized the step");
        for (((l, r), &s), &d) in left.iter_mut().zip(right.iter_mut()).zip(&*sum).zip(&*diff) {
            *l = s + d;
            *r = s - d;
        }
        debug_assert!(p1 <= left.len());
        p1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    /// A BS.450 multiplex: `left` and `right` tones of amplitude 0.4, pilot `pilot`.
    fn multiplex(fs: f64, n: usize, fl: f64, fr: f64, pilot: f64) -> Vec<f32> {
        (0..n)
            .map(|k| {
                let t = k as f64 / fs;
                let l = 0.4 * (2.0 * PI * fl * t).sin();
                let r = 0.4 * (2.0 * PI * fr * t).sin();
                let theta = 2.0 * PI * PILOT * t;
                (0.45 * (l + r) + 0.45 * (l - r) * (2.0 * theta).sin() + pilot * theta.sin()) as f32
            })
            .collect()
    }

    /// Squared amplitude of the `f` Hz component of `x` at `fs` (least squares on cos and sin).
    fn tone_power(x: &[f32], fs: f64, f: f64) -> f64 {
        let (mut c, mut s) = (0.0, 0.0);
        for (k, &v) in x.iter().enumerate() {
            let p = 2.0 * PI * f * k as f64 / fs;
            c += f64::from(v) * p.cos();
            s += f64::from(v) * p.sin();
        }
        let n = x.len() as f64;
        (c * c + s * s) * 4.0 / (n * n)
    }

    fn decode(dec: &mut StereoDecoder, mpx: &[f32]) -> (Vec<f32>, Vec<f32>) {
        let n = mpx.len() / dec.decimation() + 1;
        let (mut l, mut r) = (vec![0.0; n], vec![0.0; n]);
        let (c, p) = dec.process(mpx, &mut l, &mut r);
        assert_eq!(c, mpx.len());
        l.truncate(p);
        r.truncate(p);
        (l, r)
    }

    #[test]
    fn separates_left_and_right_by_more_than_40_db() {
        let fs = 240e3;
        let mpx = multiplex(fs, 240_000, 1e3, 1.7e3, 0.09);
        let mut dec = StereoDecoder::new(fs, 5).unwrap();
        let (l, r) = decode(&mut dec, &mpx);
        assert!(dec.is_stereo());
        assert!((dec.pilot_frequency(fs) - PILOT).abs() < 0.5);
        // Skip 0.1 s of acquisition.
        let (l, r) = (&l[4_800..], &r[4_800..]);
        let db = |a: f64, b: f64| 10.0 * (a / b).log10();
        let left = db(tone_power(l, 48e3, 1e3), tone_power(r, 48e3, 1e3));
        let right = db(tone_power(r, 48e3, 1.7e3), tone_power(l, 48e3, 1.7e3));
        eprintln!("separation: left {left:.1} dB, right {right:.1} dB");
        assert!(
            left > 40.0 && right > 40.0,
            "separation {left:.1} / {right:.1} dB"
        );
        // The channels' scale: 0.45·(L+R) + 0.45·(L-R) = 0.9·L.
        assert!((tone_power(l, 48e3, 1e3).sqrt() - 0.36).abs() < 0.01);
    }

    #[test]
    fn without_a_pilot_both_channels_are_the_mono_sum() {
        let fs = 240e3;
        let mpx = multiplex(fs, 48_000, 1e3, 1.7e3, 0.0);
        let mut dec = StereoDecoder::new(fs, 5).unwrap();
        let (l, r) = decode(&mut dec, &mpx);
        assert!(!dec.is_stereo());
        assert_eq!(l, r);
        assert!((tone_power(&l[1_000..], 48e3, 1.7e3).sqrt() - 0.18).abs() < 0.01);
    }

    #[test]
    fn output_does_not_depend_on_how_calls_are_split() {
        let fs = 192e3;
        let mpx = multiplex(fs, 60_000, 1e3, 3e3, 0.1);
        let mut whole = StereoDecoder::new(fs, 4).unwrap();
        let (l, r) = decode(&mut whole, &mpx);
        let mut split = StereoDecoder::new(fs, 4).unwrap();
        // Interleaved outputs, one buffer for run_split: left then right halves.
        let got = run_split(7, &mpx, 64, |x, out: &mut [[f32; 2]]| {
            let (mut a, mut b) = (vec![0.0; out.len()], vec![0.0; out.len()]);
            let (c, p) = split.process(x, &mut a, &mut b);
            for (o, (a, b)) in out.iter_mut().zip(a.into_iter().zip(b)) {
                *o = [a, b];
            }
            (c, p)
        });
        assert_eq!(got.len(), l.len());
        // Steps fall elsewhere: the lock decision may differ only at the very start.
        for (k, (g, (l, r))) in got.iter().zip(l.iter().zip(&r)).enumerate().skip(2_000) {
            assert!(
                (g[0] - l).abs() < 1e-4 && (g[1] - r).abs() < 1e-4,
                "sample {k}"
            );
        }
    }

    #[test]
    fn rejects_rates_too_low() {
        assert_eq!(StereoDecoder::new(96e3, 2).unwrap_err().name, "sample_rate");
        assert_eq!(StereoDecoder::new(240e3, 8).unwrap_err().name, "decimation");
        assert_eq!(StereoDecoder::new(240e3, 0).unwrap_err().name, "decimation");
    }
}
