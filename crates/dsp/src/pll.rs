//! [`Pll`]: a phase-locked loop that tracks a carrier (GNU Radio's `pll_*` blocks).

use crate::error::{check, Num, ParamError};
use num_complex::Complex32;
use std::f32::consts::PI;

/// A second-order phase-locked loop with GNU Radio's `control_loop` (critically damped,
/// `ζ = √2/2`; gains `α = 4ζB / (1 + 2ζB + B²)`, `β = 4B² / (1 + 2ζB + B²)` for the loop
/// bandwidth `B` in rad/sample), its phase detector `arg(x) - φ` and its three outputs:
///
/// - [`track`](Self::track), as `pll_carriertracking_cc`: the input mixed down by the
///   loop's phase, `x · e^{-jφ}` (the carrier brought to DC, phase aligned);
/// - [`reference`](Self::reference), as `pll_refout_cc`: the recovered carrier `e^{jφ}`;
/// - [`detect_frequency`](Self::detect_frequency), as `pll_freqdet_cf`: the loop's frequency
///   in rad/sample.
///
/// Frequencies are in radians per sample (`2π·f/fs`); the loop's frequency is kept within
/// `[min_freq, max_freq]`. State is `f32` as in GNU Radio; the phase detector uses the exact
/// `atan2` where GNU Radio uses its `fast_atan2f` approximation.
///
/// ```
/// use radioflow_dsp::{Complex32, Nco, Pll};
/// use std::f32::consts::PI;
/// // A 19 kHz pilot at 240 kHz, acquired by a loop searching 18.9..19.1 kHz.
/// let fs = 240e3;
/// let w = |f: f32| 2.0 * PI * f / fs;
/// let mut pilot = vec![Complex32::default(); 24_000];
/// Nco::new(19e3, fs as f64).fill_exp(&mut pilot, 1.0, Complex32::default());
/// let mut pll = Pll::new(2e-3, w(19.1e3), w(18.9e3))?;
/// let mut at_dc = vec![Complex32::default(); pilot.len()];
/// pll.track(&pilot, &mut at_dc);
/// assert!((pll.frequency() - w(19e3)).abs() < 1e-5);
/// assert!((at_dc[23_999] - Complex32::new(1.0, 0.0)).norm() < 1e-2); // locked in phase
/// assert!(pll.lock_level() > 0.99);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Pll {
    /// The phase of the next sample, in `[-2π, 2π]`.
    phase: f32,
    freq: f32,
    alpha: f32,
    beta: f32,
    min_freq: f32,
    max_freq: f32,
    /// A smoothed in-phase correlation with the input: near the input's amplitude when
    /// locked, near 0 when not.
    lock: f32,
    lock_threshold: f32,
}

impl Pll {
    /// A loop of bandwidth `loop_bw` (rad/sample; about 2π/100 to 2π/200 for fast
    /// acquisition, smaller for less noise) searching `[min_freq, max_freq]` rad/sample,
    /// starting at phase and frequency 0 (clamped into the range).
    ///
    /// # Errors
    /// If `loop_bw` is not finite and positive or the range is empty or not finite.
    pub fn new(loop_bw: f32, max_freq: f32, min_freq: f32) -> Result<Self, ParamError> {
        check(loop_bw.is_finite() && loop_bw > 0.0, "loop_bw", || {
            format!("{} must be finite and positive", Num::from(loop_bw))
        })?;
        check(
            min_freq.is_finite() && max_freq.is_finite() && min_freq <= max_freq,
            "max_freq",
            || {
                let (max, min) = (Num::from(max_freq), Num::from(min_freq));
                format!("{max} must be finite and at least min_freq ({min})")
            },
        )?;
        let damping = 2f32.sqrt() / 2.0;
        let denom = 1.0 + 2.0 * damping * loop_bw + loop_bw * loop_bw;
        Ok(Self {
            phase: 0.0,
            freq: 0f32.clamp(min_freq, max_freq),
            alpha: 4.0 * damping * loop_bw / denom,
            beta: 4.0 * loop_bw * loop_bw / denom,
            min_freq,
            max_freq,
            lock: 0.0,
            lock_threshold: 0.0,
        })
    }

    /// The loop's frequency, in rad/sample.
    pub fn frequency(&self) -> f32 {
        self.freq
    }

    /// The loop's phase for the next sample, in radians.
    pub fn phase(&self) -> f32 {
        self.phase
    }

    /// The lock level [`track`](Self::track) measures: the input's in-phase component,
    /// smoothed with weight `α` (GNU Radio's `d_locksig`).
    pub fn lock_level(&self) -> f32 {
        self.lock
    }

    /// Sets the lock level above which [`is_locked`](Self::is_locked) says locked (0 at
    /// first).
    pub fn set_lock_threshold(&mut self, threshold: f32) {
        self.lock_threshold = threshold;
    }

    /// Whether `|lock level|` is above the threshold (GNU Radio's `lock_detector`).
    pub fn is_locked(&self) -> bool {
        self.lock.abs() > self.lock_threshold
    }

    /// Mixes `input` down by the loop's phase into the first `input.len()` samples of
    /// `output` (each sample with the phase before the loop sees it), and updates the lock
    /// level.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn track(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            let (s, c) = self.phase.sin_cos();
            *o = x * Complex32::new(c, -s);
            self.advance(x);
            self.lock = self.lock * (1.0 - self.alpha) + self.alpha * (x.re * c + x.im * s);
        }
    }

    /// Writes the recovered carrier `e^{jφ}` (the loop's phase for each sample, before it
    /// sees that sample) to the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn reference(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            let (s, c) = self.phase.sin_cos();
            *o = Complex32::new(c, s);
            self.advance(x);
        }
    }

    /// Writes the loop's frequency in rad/sample (before it sees each sample) to the first
    /// `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn detect_frequency(&mut self, input: &[Complex32], output: &mut [f32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            *o = self.freq;
            self.advance(x);
        }
    }

    /// One step of the loop on input `x`.
    #[inline]
    fn advance(&mut self, x: Complex32) {
        let mut error = x.im.atan2(x.re) - self.phase;
        if error > PI {
            error -= 2.0 * PI;
        } else if error < -PI {
            error += 2.0 * PI;
        }
        self.freq += self.beta * error;
        self.phase += self.freq + self.alpha * error;
        while self.phase > 2.0 * PI {
            self.phase -= 2.0 * PI;
        }
        while self.phase < -2.0 * PI {
            self.phase += 2.0 * PI;
        }
        self.freq = self.freq.clamp(self.min_freq, self.max_freq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    fn golden_pll() -> Pll {
        // As in golden/firdes.py.
        Pll::new(0.05, 0.4, -0.1).unwrap()
    }

    // GNU Radio's phase detector is fast_atan2f (an approximation within about 1e-5 rad)
    // and its sincosf may round differently; the loop is stable, so the differences stay
    // of that order: 1e-3 of the RMS.
    #[test]
    fn equals_gnu_radios_pll_carriertracking_cc() {
        let x = golden_complex("tone");
        let mut y = vec![Complex32::default(); x.len()];
        golden_pll().track(&x, &mut y);
        assert_close_complex(&y, &golden_complex("pll_carriertracking"), 1e-3, "track");
    }

    #[test]
    fn equals_gnu_radios_pll_refout_cc() {
        let x = golden_complex("tone");
        let mut y = vec![Complex32::default(); x.len()];
        golden_pll().reference(&x, &mut y);
        assert_close_complex(&y, &golden_complex("pll_refout"), 1e-3, "refout");
    }

    #[test]
    fn equals_gnu_radios_pll_freqdet_cf() {
        let x = golden_complex("tone");
        let mut y = vec![0.0; x.len()];
        golden_pll().detect_frequency(&x, &mut y);
        assert_close_real(&y, &golden_real("pll_freqdet"), 1e-3, "freqdet");
    }

    #[test]
    fn follows_the_recurrence_in_f64_across_calls() {
        // The loop written out in f64 on a noisy tone: the f32 loop stays within 1e-3 rad.
        let x = golden_complex("tone");
        let (bw, max, min) = (0.02f64, 0.3, -0.3);
        let z = 2f64.sqrt() / 2.0;
        let d = 1.0 + 2.0 * z * bw + bw * bw;
        let (a, b) = (4.0 * z * bw / d, 4.0 * bw * bw / d);
        let (mut ph, mut fr) = (0.0f64, 0.0f64);
        let mut want = Vec::new();
        for v in to64(&x) {
            want.push(ph);
            let mut e = v.arg() - ph;
            if e > std::f64::consts::PI {
                e -= std::f64::consts::TAU;
            } else if e < -std::f64::consts::PI {
                e += std::f64::consts::TAU;
            }
            fr += b * e;
            ph += fr + a * e;
            ph = (ph + std::f64::consts::TAU * 2.0) % std::f64::consts::TAU;
            fr = fr.clamp(min, max);
        }
        let mut pll = Pll::new(bw as f32, max as f32, min as f32).unwrap();
        let got = run_split_sync(3, &x, 200, |i, o| pll.reference(i, o));
        for (n, (g, w)) in got.iter().zip(&want).enumerate() {
            let diff = (f64::from(g.arg()) - w).rem_euclid(std::f64::consts::TAU);
            assert!(
                diff.min(std::f64::consts::TAU - diff) < 1e-3,
                "{n}: {g} vs {w}"
            );
        }
    }

    #[test]
    fn stays_within_its_frequency_range_and_reports_lock() {
        // A carrier in the range is locked to; its mirror image, outside, is not: the loop
        // stays within the range and does not lock.
        let mut x = vec![Complex32::default(); 5000];
        crate::Nco::new(0.1, 1.0).fill_exp(&mut x, 1.0, Complex32::default());
        let mut pll = Pll::new(0.05, 1.0, 0.0).unwrap();
        let mut y = vec![Complex32::default(); x.len()];
        pll.track(&x, &mut y);
        assert!((pll.frequency() - 2.0 * PI * 0.1).abs() < 1e-4);
        pll.set_lock_threshold(0.5);
        assert!(pll.is_locked());
        let mut pll = Pll::new(0.05, 1.0, 0.0).unwrap();
        let mut f = vec![0.0; x.len()];
        let x: Vec<Complex32> = x.iter().map(|z| z.conj()).collect();
        pll.detect_frequency(&x, &mut f);
        assert!(f.iter().all(|&v| (0.0..=1.0).contains(&v)));
        pll.track(&x, &mut y);
        pll.set_lock_threshold(0.5);
        assert!(!pll.is_locked(), "lock level {}", pll.lock_level());
        assert_eq!(Pll::new(0.1, -1.0, 1.0).unwrap_err().name, "max_freq");
    }
}
