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

/// Length of the window over which the pilot is measured and stereo decided, seconds.
const WINDOW: f64 = 0.02;

/// Pilot carrier-to-noise density (dB-Hz) from which the decoder switches to stereo. Why,
/// see [`StereoDecoder`].
const STEREO_ON_DB_HZ: f64 = 58.0;
/// Pilot carrier-to-noise density (dB-Hz) under which it goes back to mono: 3 dB of
/// hysteresis.
const STEREO_OFF_DB_HZ: f64 = 55.0;

/// Least pilot injection for stereo, in multiplex units (1 = full deviation): 2 %, where
/// BS.450 asks for 8-10 %. Without noise the ratio above is of two tiny numbers: this keeps a
/// clean mono signal (nothing at 19 kHz but rounding) in mono.
const MIN_PILOT: f64 = 0.02;

/// Farthest the tracked pilot may be from 19 kHz, Hz: BS.450's ±2 Hz and a recording's clock
/// (100 ppm is 1.9 Hz at 19 kHz), with room. The loop searches ±100 Hz; a programme tone
/// it locks to there is no pilot.
const MAX_PILOT_OFFSET: f64 = 10.0;

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
/// Without a pilot the `L-R` part is left out: both outputs are the mono `L+R`.
/// De-emphasis is not applied (it is linear, so it may follow, on each channel).
///
/// # Stereo or mono
///
/// Every 20 ms of multiplex (counted in samples, so the decisions do not depend on how the
/// input is split into calls) the decoder measures the pilot against the noise around it,
/// from the pilot filter's output `p` (18.5-19.5 kHz, 3 kHz transitions) and the loop's
/// carrier `r = e^{jφ}` over the window's `W` samples:
///
/// - the pilot, coherently: `S = Σ p·r*`, its power `C = |S/W|²`;
/// - the noise, what is left: `σ² = Σ|p|²/W − C` per sample, a density
///   `N0 = σ² / B` over the filter's noise bandwidth `B` (`fs·Σ|h|² / |H(19 kHz)|²`, about
///   3.4 kHz);
/// - `C/N0` in dB-Hz. Without a pilot (noise alone, which the loop follows) `|S|²` is the
///   noise's over the window: `C/N0 ≈ 10·log10(k / 0.02 s)` with `k` of order 1 to 20,
///   about 17 to 30 dB-Hz.
///
/// Stereo comes on when `C/N0` reaches 58 dB-Hz, the pilot's amplitude is at least 2 %
/// and the loop's frequency is within 10 Hz of 19 kHz; it goes back to mono under 55 dB-Hz
/// (or when the amplitude or the frequency fails).
///
/// Why 58 dB-Hz. Above the FM threshold the demodulated noise density grows as f²: a 9 %
/// pilot in a channel at a carrier-to-noise ratio CNR (200 kHz) comes out at about
/// `40 + CNR` dB-Hz. Measured on GNU Radio's stations (`radioflow-fm`'s
/// `tests/stereo_pilot.rs`, 2 s each, medians of the 20 ms windows): 50.9 dB-Hz at 10 dB CNR,
/// 60.3 at 20, 63.8 at 25, 65.9 at 30, 67.3 at 40 (the programme's leakage into the pilot's
/// band, through the filter's transitions, levels it off). So stereo comes on from about
/// 18 dB CNR and goes off under about 15: there the `L-R` band (23-53 kHz, where the noise
/// density is 2-8 times that under 15 kHz) makes stereo ~20 dB noisier than the mono sum,
/// and mono is what a listener wants, as receivers' stereo blend does. Without a pilot, the
/// windows measured at most 28 dB-Hz on the same stations in mono at 4 to 30 dB CNR (GNU
/// Radio's `wfm_tx` included, whose pre-emphasis leaves audio around 19 kHz and a coherent
/// level up to 7 %): 30 dB below. A clean recording's rounding is kept out by the 2 %
/// floor, where the ratio of two tiny numbers could be anything.
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
    detector: Detector,
    sample_rate: f64,
    scratch_pilot: Vec<Complex32>,
    scratch_reference: Vec<Complex32>,
    scratch_delayed: Vec<f32>,
    scratch_mixed: Vec<f32>,
    scratch_sum: Vec<f32>,
    scratch_diff: Vec<f32>,
}

/// The stereo decision (see [`StereoDecoder`]'s "Stereo or mono").
#[derive(Clone, Debug)]
struct Detector {
    stereo: bool,
    /// The pilot's injection and `C/N0` (dB-Hz) measured over the last whole window.
    level: f32,
    cn0: f32,
    /// Samples per window, and the window's sums so far: Σ p·r*, Σ |p|², samples.
    window: usize,
    coherent: Complex32,
    energy: f64,
    counted: usize,
    /// The pilot filter's noise bandwidth at 19 kHz, Hz.
    noise_bandwidth: f64,
}

impl Detector {
    /// The window has ended, the loop `offset` Hz from 19 kHz: measures the pilot against
    /// the noise, decides stereo or mono, starts the next window.
    fn decide(&mut self, offset: f64) {
        let w = self.counted as f64;
        let c = f64::from(self.coherent.norm_sqr()) / (w * w);
        let noise = (self.energy / w - c).max(f64::MIN_POSITIVE) / self.noise_bandwidth;
        let cn0 = 10.0 * (c / noise).log10();
        // The one-sided filter keeps half a real tone's amplitude.
        let level = 2.0 * c.sqrt();
        let threshold = if self.stereo {
            STEREO_OFF_DB_HZ
        } else {
            STEREO_ON_DB_HZ
        };
        self.stereo = cn0 >= threshold && level >= MIN_PILOT && offset.abs() <= MAX_PILOT_OFFSET;
        self.level = level as f32;
        self.cn0 = cn0 as f32;
        self.coherent = Complex32::default();
        self.energy = 0.0;
        self.counted = 0;
    }
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
        // fs·Σ|h|² / |H(19 kHz)|²: white noise's power through the filter, over the pilot's
        // gain, as a bandwidth.
        let (mut gain, mut power) = (num_complex::Complex64::new(0.0, 0.0), 0.0);
        for (k, h) in pilot_taps.iter().enumerate() {
            let h = num_complex::Complex64::new(f64::from(h.re), f64::from(h.im));
            gain += h * num_complex::Complex64::from_polar(
                1.0,
                -2.0 * PI * PILOT * k as f64 / sample_rate,
            );
            power += h.norm_sqr();
        }
        let noise_bandwidth = sample_rate * power / gain.norm_sqr();
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
            detector: Detector {
                stereo: false,
                level: 0.0,
                cn0: f32::NEG_INFINITY,
                window: (WINDOW * sample_rate).round() as usize,
                coherent: Complex32::default(),
                energy: 0.0,
                counted: 0,
                noise_bandwidth,
            },
            sample_rate,
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

    /// Whether the last samples were decoded in stereo: at the last 20 ms window's end a
    /// pilot stood out of the noise (see [`StereoDecoder`]'s "Stereo or mono").
    pub fn is_stereo(&self) -> bool {
        self.detector.stereo
    }

    /// The pilot's amplitude measured over the last whole window, in multiplex units (its
    /// injection: 0.09 for 9 %; about 0 without a pilot).
    pub fn pilot_level(&self) -> f32 {
        self.detector.level
    }

    /// The pilot's carrier-to-noise density over the last whole window, dB-Hz (−∞ before
    /// the first window ends): what stereo is decided on.
    pub fn pilot_cn0_db_hz(&self) -> f32 {
        self.detector.cn0
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
        let delayed = &mut self.scratch_delayed[..n];
        self.delay.process(x, delayed);
        let mixed = &mut self.scratch_mixed[..n];
        // Window by window: the decision taken at a window's end holds for the samples after.
        let det = &mut self.detector;
        let mut at = 0;
        while at < n {
            let end = n.min(at + det.window - det.counted);
            let (mut s, mut e) = (Complex32::default(), 0.0f32);
            for (p, r) in pilot[at..end].iter().zip(&reference[at..end]) {
                s += p * r.conj();
                e += p.norm_sqr();
            }
            det.coherent += s;
            det.energy += f64::from(e);
            det.counted += end - at;
            let (m, d, r) = (&mut mixed[at..end], &delayed[at..end], &reference[at..end]);
            if det.stereo {
                // -2·sin(2φ) = -4·sin φ·cos φ.
                for ((m, &v), r) in m.iter_mut().zip(d).zip(r) {
                    *m = -4.0 * v * r.re * r.im;
                }
            } else {
                m.fill(0.0);
            }
            if det.counted == det.window {
                let offset =
                    f64::from(self.pll.frequency()) * self.sample_rate / (2.0 * PI) - PILOT;
                det.decide(offset);
            }
            at = end;
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

    /// `mpx` plus white noise of `rms` (uniform, seeded: deterministic).
    fn with_noise(mpx: &[f32], rms: f32, seed: u64) -> Vec<f32> {
        // Uniform on (-1, 1): rms 1/√3.
        let scale = rms * 3f32.sqrt();
        mpx.iter()
            .zip(random_real(seed, mpx.len()))
            .map(|(m, n)| m + scale * n)
            .collect()
    }

    /// Whether the decoder was in stereo after each 4096-sample call over `mpx`, and the
    /// outputs.
    fn decisions(dec: &mut StereoDecoder, mpx: &[f32]) -> (Vec<bool>, Vec<f32>, Vec<f32>) {
        let (mut on, mut left, mut right) = (Vec::new(), Vec::new(), Vec::new());
        for chunk in mpx.chunks(4096) {
            let (l, r) = decode(dec, chunk);
            left.extend(l);
            right.extend(r);
            on.push(dec.is_stereo());
        }
        (on, left, right)
    }

    #[test]
    fn noise_alone_never_switches_to_stereo() {
        // A mono programme (the same tone left and right) in noise from far below to far
        // above the programme, 1 s each: the old in-phase level followed a loop locked on
        // the noise and passed.
        let fs = 240e3;
        let mono = multiplex(fs, 240_000, 1e3, 1e3, 0.0);
        for (k, rms) in [0.003f32, 0.03, 0.1, 0.3, 1.0].into_iter().enumerate() {
            let mut dec = StereoDecoder::new(fs, 5).unwrap();
            let (on, l, r) = decisions(&mut dec, &with_noise(&mono, rms, k as u64));
            assert!(on.iter().all(|&s| !s), "noise {rms}: {on:?}");
            assert_eq!(l, r, "noise {rms}");
            assert!(
                dec.pilot_cn0_db_hz() < 30.0,
                "noise {rms}: {}",
                dec.pilot_cn0_db_hz()
            );
        }
    }

    #[test]
    fn the_pilot_is_measured_against_the_noise_with_hysteresis() {
        // A 9 % pilot against white noise of variance σ² at 240 kHz: C/N0 = (0.045)²·fs/σ²
        // (the one-sided filter keeps half the pilot's amplitude and the positive
        // frequencies' density σ²/fs).
        let fs = 240e3;
        let cn0 = |rms: f64| 10.0 * (0.045f64.powi(2) * fs / (rms * rms)).log10();
        let stereo = multiplex(fs, 240_000, 1e3, 1.7e3, 0.09);
        let (clean, between, poor) = (0.01, 0.033, 0.08);
        assert!(cn0(clean) > STEREO_ON_DB_HZ + 5.0);
        assert!((cn0(between) - (STEREO_ON_DB_HZ + STEREO_OFF_DB_HZ) / 2.0).abs() < 0.3);
        assert!(cn0(poor) < STEREO_OFF_DB_HZ - 5.0);

        let mut dec = StereoDecoder::new(fs, 5).unwrap();
        let (on, ..) = decisions(&mut dec, &with_noise(&stereo, clean as f32, 1));
        // On within 0.1 s (the loop acquires during the first window; the sixth call) to the
        // end.
        assert!(on[6..].iter().all(|&s| s), "{on:?}");
        let measured = f64::from(dec.pilot_cn0_db_hz());
        assert!(
            (measured - cn0(clean)).abs() < 1.5,
            "{measured} vs {}",
            cn0(clean)
        );
        assert!(
            (dec.pilot_level() - 0.09).abs() < 0.005,
            "{}",
            dec.pilot_level()
        );
        // Between the two thresholds: stays on, ...
        let (on, ..) = decisions(&mut dec, &with_noise(&stereo, between as f32, 2));
        assert!(on.iter().all(|&s| s), "{on:?}");
        // ... does not come on from mono, ...
        let mut fresh = StereoDecoder::new(fs, 5).unwrap();
        let (on, l, r) = decisions(&mut fresh, &with_noise(&stereo, between as f32, 2));
        assert!(on.iter().all(|&s| !s), "{on:?}");
        assert_eq!(l, r);
        // ... and goes off below.
        let (on, ..) = decisions(&mut dec, &with_noise(&stereo, poor as f32, 3));
        assert!(on[3..].iter().all(|&s| !s), "{on:?}");
    }

    #[test]
    fn decisions_do_not_depend_on_how_calls_are_split() {
        // Windows counted in samples: the same output from the first sample on, however the
        // input is split (a short last call decides nothing).
        let fs = 240e3;
        let mpx = with_noise(&multiplex(fs, 120_000, 1e3, 3e3, 0.09), 0.01, 9);
        let mut whole = StereoDecoder::new(fs, 5).unwrap();
        let (l, r) = decode(&mut whole, &mpx);
        let mut split = StereoDecoder::new(fs, 5).unwrap();
        let got = run_split(11, &mpx, 64, |x, out: &mut [[f32; 2]]| {
            let (mut a, mut b) = (vec![0.0; out.len()], vec![0.0; out.len()]);
            let (c, p) = split.process(x, &mut a, &mut b);
            for (o, (a, b)) in out.iter_mut().zip(a.into_iter().zip(b)) {
                *o = [a, b];
            }
            (c, p)
        });
        let want: Vec<[f32; 2]> = l.iter().zip(&r).map(|(&a, &b)| [a, b]).collect();
        assert_eq!(got, want);
        assert!(whole.is_stereo() && split.is_stereo());
    }
}
