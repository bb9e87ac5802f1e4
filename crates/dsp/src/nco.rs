//! [`Nco`]: a numerically controlled oscillator.

use num_complex::Complex32;
use std::f64::consts::PI;

/// Samples between re-anchoring the rotators to the exact phase accumulator. Bounds the
/// rounding error a rotator can accumulate (about `ANCHOR / LANES` f64 multiplications).
const ANCHOR: usize = 1024;

/// Independent rotators stepped side by side, so the recurrence vectorises instead of being
/// one long dependency chain.
const LANES: usize = 8;

/// One full turn of the phase accumulator, as f64 (2^64).
const TURN: f64 = 18_446_744_073_709_551_616.0;

/// A numerically controlled oscillator: a phase accumulator producing
/// `amplitude · cos(φ) + offset`, `amplitude · sin(φ) + offset` or
/// `amplitude · (cos(φ) + j sin(φ)) + offset`, where `φ` advances by
/// `2π · frequency / sample_rate` per sample and the first sample is at the initial phase.
///
/// The phase is a 64-bit fixed-point fraction of a turn, advanced with exact wrapping integer
/// arithmetic: it accumulates no rounding error, and the only deviation from the ideal phase
/// comes from quantising `frequency / sample_rate` (an f64 quotient, then 2^-64 turn), well
/// under 1e-15 rad per sample. Samples come from complex rotators in f64
/// (`z ← z · e^{jω}`) re-anchored to that exact phase every 1024 samples and at the start of
/// every call, so for runs of millions of samples the output stays within f32 rounding of
/// `amplitude · sin(2π f n / fs + φ₀) + offset`, and the phase is continuous across calls of
/// any size.
///
/// ```
/// use radioflow_dsp::Nco;
///
/// let mut nco = Nco::new(250.0, 1_000.0); // a quarter turn per sample
/// let mut out = [0.0f32; 4];
/// nco.fill_cos(&mut out, 2.0, 1.0);
/// let want = [3.0, 1.0, -1.0, 1.0];
/// assert!(out.iter().zip(want).all(|(o, w)| (o - w).abs() < 1e-6));
/// ```
#[derive(Clone, Debug)]
pub struct Nco {
    /// Phase of the next sample, in units of 2^-64 turns.
    phase: u64,
    /// Phase increment per sample, in units of 2^-64 turns (wrapping: negative frequencies
    /// are large increments).
    step: u64,
    /// `e^{j · LANES · ω}`: what one lane advances by per group of `LANES` samples.
    lane_step: (f64, f64),
}

impl Nco {
    /// An oscillator at `frequency` Hz for `sample_rate` samples per second, at phase 0.
    /// Frequencies outside ±`sample_rate / 2` alias, as they would after sampling.
    ///
    /// # Panics
    /// If `sample_rate` is not finite and positive or `frequency` is not finite.
    pub fn new(frequency: f64, sample_rate: f64) -> Self {
        let mut nco = Self {
            phase: 0,
            step: 0,
            lane_step: (1.0, 0.0),
        };
        nco.set_frequency(frequency, sample_rate);
        nco
    }

    /// Changes the frequency; the phase continues from where it is.
    ///
    /// # Panics
    /// As for [`new`](Self::new).
    pub fn set_frequency(&mut self, frequency: f64, sample_rate: f64) {
        assert!(
            sample_rate.is_finite() && sample_rate > 0.0,
            "sample rate must be finite and positive, got {sample_rate}"
        );
        assert!(
            frequency.is_finite(),
            "frequency must be finite, got {frequency}"
        );
        self.step = turns_to_fixed(frequency / sample_rate);
        self.lane_step = unit(self.step.wrapping_mul(LANES as u64));
    }

    /// Sets the phase of the next sample, in radians (any value; it is taken modulo 2π).
    ///
    /// # Panics
    /// If `radians` is not finite.
    pub fn set_phase(&mut self, radians: f64) {
        assert!(radians.is_finite(), "phase must be finite, got {radians}");
        self.phase = turns_to_fixed(radians / (2.0 * PI));
    }

    /// The phase of the next sample, in radians, in `[-π, π)`.
    pub fn phase(&self) -> f64 {
        fixed_to_radians(self.phase)
    }

    /// Advances the phase by `n` samples without producing them.
    pub fn skip(&mut self, n: u64) {
        self.phase = self.phase.wrapping_add(self.step.wrapping_mul(n));
    }

    /// Fills `out` with `amplitude · cos(φ) + offset` and advances the phase by `out.len()`.
    pub fn fill_cos(&mut self, out: &mut [f32], amplitude: f32, offset: f32) {
        self.generate(out, |o, re, _| *o = re as f32 * amplitude + offset);
    }

    /// Fills `out` with `amplitude · sin(φ) + offset` and advances the phase by `out.len()`.
    pub fn fill_sin(&mut self, out: &mut [f32], amplitude: f32, offset: f32) {
        self.generate(out, |o, _, im| *o = im as f32 * amplitude + offset);
    }

    /// Fills `out` with `amplitude · e^{jφ} + offset` (cosine in the real part, sine in the
    /// imaginary part) and advances the phase by `out.len()`.
    #[inline]
    pub fn fill_exp(&mut self, out: &mut [Complex32], amplitude: f32, offset: Complex32) {
        self.generate(out, |o, re, im| {
            *o = Complex32::new(
                re as f32 * amplitude + offset.re,
                im as f32 * amplitude + offset.im,
            );
        });
    }

    /// Calls `emit(slot, cos φ, sin φ)` for every slot of `out` with the phase of that sample.
    #[inline]
    fn generate<T>(&mut self, out: &mut [T], mut emit: impl FnMut(&mut T, f64, f64)) {
        for chunk in out.chunks_mut(ANCHOR) {
            // Lane k holds the sample at phase + k·ω, computed from the exact accumulator.
            let mut re = [0.0f64; LANES];
            let mut im = [0.0f64; LANES];
            for k in 0..LANES {
                (re[k], im[k]) = unit(self.phase.wrapping_add(self.step.wrapping_mul(k as u64)));
            }
            let (wr, wi) = self.lane_step;
            for group in chunk.chunks_mut(LANES) {
                for ((o, &r), &i) in group.iter_mut().zip(&re).zip(&im) {
                    emit(o, r, i);
                }
                for k in 0..LANES {
                    let r = re[k] * wr - im[k] * wi;
                    im[k] = re[k] * wi + im[k] * wr;
                    re[k] = r;
                }
            }
            self.skip(chunk.len() as u64);
        }
    }
}

/// `turns` (any real number) as a fixed-point fraction of a turn, modulo one turn.
fn turns_to_fixed(turns: f64) -> u64 {
    // rem_euclid gives [0, 1); rounding can reach exactly 1.0, which wraps to 0 through u128.
    ((turns.rem_euclid(1.0) * TURN).round() as u128) as u64
}

/// A fixed-point phase as radians in `[-π, π)`.
fn fixed_to_radians(phase: u64) -> f64 {
    // Reading it as signed centres the range on zero, where sin_cos is most accurate.
    (phase as i64) as f64 * (PI / (TURN / 2.0))
}

/// `(cos φ, sin φ)` of a fixed-point phase.
fn unit(phase: u64) -> (f64, f64) {
    let (s, c) = fixed_to_radians(phase).sin_cos();
    (c, s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Runs `nco` over `total` samples in random call sizes (fixed seed), returning the
    /// largest deviation from `reference(n)` in units of the amplitude.
    fn max_error(
        total: usize,
        seed: u64,
        mut fill: impl FnMut(&mut [f64]),
        reference: impl Fn(usize) -> f64,
    ) -> f64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut buf = vec![0.0f64; 5000];
        let (mut n, mut worst) = (0, 0.0f64);
        while n < total {
            let len = rng.gen_range(1..=buf.len()).min(total - n);
            fill(&mut buf[..len]);
            for (i, x) in buf[..len].iter().enumerate() {
                worst = worst.max((x - reference(n + i)).abs());
            }
            n += len;
        }
        worst
    }

    /// 2π f n / fs + φ in f64: the naive formula the NCO must match.
    fn naive_phase(f: f64, fs: f64, phi: f64, n: usize) -> f64 {
        2.0 * PI * f * n as f64 / fs + phi
    }

    // Tolerance: f32 rounding of a unit sample (6e-8) times amplitude and offset, plus the
    // f64 rotator error (about 1e-13). 1e-6 relative leaves margin yet catches any drift:
    // a frequency error of one part in 1e12 would already exceed it within 2e6 samples.
    const TOL: f64 = 1e-6;
    const SAMPLES: usize = 2_000_000;

    #[test]
    fn sin_and_cos_track_the_naive_formula_without_drift() {
        let mut rng = StdRng::seed_from_u64(7);
        for case in 0..6 {
            let fs = rng.gen_range(1e3..1e7);
            let f = rng.gen_range(-0.5..0.5) * fs;
            let phi = rng.gen_range(-10.0..10.0);
            let (amp, off) = (rng.gen_range(0.1..4.0f32), rng.gen_range(-2.0..2.0f32));
            let scale = f64::from(amp) + f64::from(off.abs());
            let mut tmp = vec![0.0f32; 5000];

            let mut nco = Nco::new(f, fs);
            nco.set_phase(phi);
            let err = max_error(
                SAMPLES,
                case,
                |b| {
                    nco.fill_sin(&mut tmp[..b.len()], amp, off);
                    b.iter_mut().zip(&tmp).for_each(|(o, &x)| *o = f64::from(x));
                },
                |n| f64::from(amp) * naive_phase(f, fs, phi, n).sin() + f64::from(off),
            );
            assert!(
                err <= TOL * scale,
                "sin case {case}: f={f} fs={fs} error {err}"
            );

            let mut nco = Nco::new(f, fs);
            nco.set_phase(phi);
            let err = max_error(
                SAMPLES,
                case + 100,
                |b| {
                    nco.fill_cos(&mut tmp[..b.len()], amp, off);
                    b.iter_mut().zip(&tmp).for_each(|(o, &x)| *o = f64::from(x));
                },
                |n| f64::from(amp) * naive_phase(f, fs, phi, n).cos() + f64::from(off),
            );
            assert!(
                err <= TOL * scale,
                "cos case {case}: f={f} fs={fs} error {err}"
            );
        }
    }

    #[test]
    fn complex_exp_is_cos_plus_j_sin() {
        let (f, fs, amp) = (1234.5, 48_000.0, 0.75f32);
        let off = Complex32::new(0.25, -0.5);
        let mut nco = Nco::new(f, fs);
        let mut out = vec![Complex32::default(); SAMPLES];
        // Uneven calls: the phase must carry over exactly.
        let mut rest = &mut out[..];
        for len in [1, 7, 1023, 1025, 4096].iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (head, tail) = rest.split_at_mut((*len).min(rest.len()));
            nco.fill_exp(head, amp, off);
            rest = tail;
        }
        let a = f64::from(amp);
        for (n, z) in out.iter().enumerate() {
            let p = naive_phase(f, fs, 0.0, n);
            let re = a * p.cos() + f64::from(off.re);
            let im = a * p.sin() + f64::from(off.im);
            assert!(
                (f64::from(z.re) - re).abs() <= TOL,
                "re at {n}: {z} vs {re}"
            );
            assert!(
                (f64::from(z.im) - im).abs() <= TOL,
                "im at {n}: {z} vs {im}"
            );
        }
    }

    #[test]
    fn phase_returns_after_whole_cycles() {
        let mut nco = Nco::new(1_000.0, 48_000.0);
        nco.set_phase(1.0);
        let mut buf = vec![0.0f32; 48_000];
        for _ in 0..100 {
            nco.fill_sin(&mut buf, 1.0, 0.0);
        }
        // 100 s of 1 kHz: 100 000 whole turns, so the phase is back where it started, up to
        // the quantisation of 1/48 turn per sample (f64, then 2^-64 turn): about 1e-11 rad.
        assert!((nco.phase() - 1.0).abs() < 1e-9, "phase {}", nco.phase());
    }

    #[test]
    fn skip_matches_generating() {
        let (mut a, mut b) = (Nco::new(-3.3, 10.0), Nco::new(-3.3, 10.0));
        let mut buf = vec![0.0f32; 777];
        a.fill_cos(&mut buf, 1.0, 0.0);
        b.skip(777);
        assert_eq!(a.phase(), b.phase());
    }

    #[test]
    fn frequencies_alias_like_sampling() {
        let (mut a, mut b) = (Nco::new(0.1, 1.0), Nco::new(1.1, 1.0));
        let (mut x, mut y) = (vec![0.0f32; 100], vec![0.0f32; 100]);
        a.fill_sin(&mut x, 1.0, 0.0);
        b.fill_sin(&mut y, 1.0, 0.0);
        assert!(x.iter().zip(&y).all(|(p, q)| (p - q).abs() < 1e-6));
    }

    #[test]
    #[should_panic(expected = "sample rate")]
    fn zero_sample_rate_panics() {
        let _ = Nco::new(1.0, 0.0);
    }
}
