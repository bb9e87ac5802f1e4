//! Carrier recovery on a PLFRAME whose start is known: frequency and phase, PL descrambling
//! and unit energy.
//!
//! QPSK and 8PSK, pilots on or off, and 16APSK and 32APSK without pilots (`phase.rs`): the
//! frequency is acquired from the spectrum of the M-th power of all the symbols of the first
//! frame (or first few, near the thresholds), then tracked; the phase comes from a Kalman
//! smoother over the known blocks (header, pilots, the next SOF) and blocks of data symbols
//! (M-th power), interpolated linearly between them; amplitude and noise of QPSK and 8PSK
//! from the data's second and fourth moments, of APSK from the known blocks.
//!
//! 16APSK and 32APSK with pilots: the frequency estimate is refined in three stages, each
//! unambiguous over the residual the previous one leaves: lag-1 differential products of the
//! known symbols (range ±0.5 cycles/symbol), the phase between the halves of the known blocks
//! (±1/36), then the phase between consecutive known blocks (±1/2952). Each stage averages
//! over as many frames as the measured SNR requires before the next starts. The phase: per
//! pilot block, linearly interpolated.

use std::f64::consts::TAU;

use num_complex::Complex32;

use super::decide::Decider;
use super::derotate::{descramble, rot_at, segment, wrap};
use super::header::SOF_LEN;
use super::phase::{Known, PhaseTracker};
use crate::plframe::{PILOT_BLOCK, PILOT_PERIOD, SLOT};

/// Most known blocks in a frame: header, 22 pilot blocks, next SOF.
const MAX_BLOCKS: usize = 24;
/// Frequency error (standard deviation, cycles/symbol) after acquisition from the M-th
/// power's spectrum: about a bin.
const ACQUIRED_SPREAD: f64 = 1e-5;
/// Least frequency uncertainty kept while tracking, cycles/symbol.
const MIN_SPREAD: f64 = 1e-7;

/// What one known block (header, pilot block, next SOF) measured.
#[derive(Debug, Clone, Copy, Default)]
struct Block {
    /// First symbol in the frame.
    start: usize,
    len: usize,
    /// Σ z (modulation removed, frequency corrected).
    sum: Complex32,
    /// Σ over the first and the second half.
    half: [Complex32; 2],
    /// Σ z[n]·conj(z[n−1]).
    lag1: Complex32,
    /// Σ |z|².
    energy: f32,
}

impl Block {
    fn centre(&self) -> f64 {
        self.start as f64 + (self.len as f64 - 1.0) / 2.0
    }
}

/// Estimates for one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FrameCarrier {
    /// Es/N0 of this frame's known symbols, linear.
    pub(crate) snr: f32,
    /// Frequency offset estimate after this frame, cycles/symbol.
    pub(crate) freq: f64,
    /// The frequency loop has reached its last stage.
    pub(crate) locked: bool,
}

/// Frame layout: where the known symbols are.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// PLFRAME length in symbols (header included).
    pub(crate) len: usize,
    pub(crate) pilots: bool,
    /// The next frame's SOF follows the frame (a known block); false after the last frame
    /// of a transmission.
    pub(crate) next_sof: bool,
}

/// Carrier recovery state carried from frame to frame.
#[derive(Debug, Clone)]
pub(crate) struct Carrier {
    /// Frequency offset, cycles/symbol.
    freq: f64,
    /// Standard deviation of `freq`'s error, cycles/symbol.
    spread: f64,
    stage: usize,
    /// Frames averaged in the current stage, and frames the stage needs.
    frames: u32,
    needed: u32,
    /// Signal power and noise power (PSK: of the data, APSK: of the known symbols)
    /// averaged over frames, and the frames they average.
    sig: f32,
    noise: f32,
    averaged: u32,
    blocks: [Block; MAX_BLOCKS],
    nblocks: usize,
    /// QPSK and 8PSK: frequency acquisition, phase by Kalman smoothing, data moments.
    phase: PhaseTracker,
}

impl Carrier {
    /// Starts from a coarse frequency `freq` (cycles/symbol) measured on a header, with a
    /// standard deviation `spread`.
    pub(crate) fn new(freq: f64, spread: f64) -> Self {
        Carrier {
            freq,
            spread,
            stage: 0,
            frames: 0,
            needed: 1,
            sig: 0.0,
            averaged: 0,
            noise: 0.0,
            blocks: [Block::default(); MAX_BLOCKS],
            nblocks: 0,
            phase: PhaseTracker::new(),
        }
    }

    /// Starts again from a coarse frequency, as [`new`](Self::new) does (keeping the
    /// buffers).
    pub(crate) fn reset(&mut self, freq: f64, spread: f64) {
        self.freq = freq;
        self.spread = spread;
        self.stage = 0;
        self.frames = 0;
        self.needed = 1;
        self.sig = 0.0;
        self.averaged = 0;
        self.noise = 0.0;
        self.phase.forget();
    }

    /// Current frequency estimate, cycles/symbol.
    pub(crate) fn freq(&self) -> f64 {
        self.freq
    }

    /// How far the true frequency may be from [`freq`](Self::freq), cycles/symbol.
    pub(crate) fn uncertainty(&self) -> f64 {
        3.0 * self.spread
    }

    /// Measures the known blocks of the frame in `y` (frame then, with `layout.next_sof`, at
    /// least the next SOF) at the current frequency estimate.
    fn measure(&mut self, y: &[Complex32], layout: Layout, header: &[Complex32], scr: &[u8]) {
        let pilot = Complex32::new(
            std::f32::consts::FRAC_1_SQRT_2,
            std::f32::consts::FRAC_1_SQRT_2,
        );
        let mut n = 0;
        let freq = self.freq;
        let mut add = |start: usize, len: usize, reference: &dyn Fn(usize) -> Complex32| {
            let mut w = rot_at(freq, start);
            let step = rot_at(freq, 1);
            let mut b = Block {
                start,
                len,
                ..Block::default()
            };
            let mut prev = Complex32::new(0.0, 0.0);
            for i in 0..len {
                let z = y[start + i] * w * reference(i).conj();
                w *= step;
                b.sum += z;
                b.half[usize::from(2 * i >= len)] += z;
                if i > 0 {
                    b.lag1 += z * prev.conj();
                }
                b.energy += z.norm_sqr();
                prev = z;
            }
            self.blocks[n] = b;
            n += 1;
        };
        add(0, SLOT, &|i| header[i]);
        if layout.pilots {
            let mut pos = SLOT + PILOT_PERIOD;
            while pos + PILOT_BLOCK < layout.len {
                let p = pos;
                add(p, PILOT_BLOCK, &|i| {
                    descramble_inv(pilot, scr[p - SLOT + i])
                });
                pos += PILOT_BLOCK + PILOT_PERIOD;
            }
        }
        if layout.next_sof {
            add(layout.len, SOF_LEN, &|i| header_sof(header, i));
        }
        self.nblocks = n;
    }

    /// Frequency error at the current estimate by stage `stage`, cycles/symbol, and its
    /// standard deviation for one frame at SNR `snr`.
    fn error(&self, stage: usize, layout: Layout, snr: f64) -> (f64, f64) {
        let blocks = &self.blocks[..self.nblocks];
        match stage {
            0 => {
                let c: Complex32 = blocks.iter().map(|b| b.lag1).sum();
                let terms: usize = blocks.iter().map(|b| b.len - 1).sum();
                let var = (1.0 / snr + 0.5 / (snr * snr)) / terms as f64;
                (f64::from(c.arg()) / TAU, var.sqrt() / TAU)
            }
            1 => {
                // Halves of the header (lag 45) and of the pilot blocks (lag 18), weighted by
                // their inverse variances (∝ n·lag²); the header's range bounds the stage.
                let mut acc = 0.0;
                let mut info = 0.0;
                // c: Σ second half · conj(first half) over blocks of `len`, `n` symbols in all.
                let mut add = |c: Complex32, len: usize, n: usize| {
                    let lag = (len / 2) as f64;
                    let w = n as f64 * lag * lag;
                    acc += w * f64::from(c.arg()) / (TAU * lag);
                    info += w;
                };
                add(blocks[0].half[1] * blocks[0].half[0].conj(), SLOT, SLOT);
                let pilot_blocks = &blocks[1..blocks.len() - usize::from(layout.next_sof)];
                if layout.pilots && !pilot_blocks.is_empty() {
                    let c: Complex32 = pilot_blocks
                        .iter()
                        .map(|b| b.half[1] * b.half[0].conj())
                        .sum();
                    add(c, PILOT_BLOCK, PILOT_BLOCK * pilot_blocks.len());
                }
                let var = 2.0 / (snr * info) / (TAU * TAU);
                (acc / info, var.sqrt())
            }
            _ => {
                // Consecutive blocks (pilots only): each pair's phase step over its distance.
                let mut acc = 0.0;
                let mut wsum = 0.0;
                for pair in blocks.windows(2) {
                    let dist = pair[1].centre() - pair[0].centre();
                    let c = pair[1].sum * pair[0].sum.conj();
                    let w = f64::from(c.norm());
                    acc += w * f64::from(c.arg()) / (TAU * dist);
                    wsum += w;
                }
                let n = (PILOT_BLOCK * (self.nblocks - 1)) as f64;
                let var = 2.0 / (snr * n) / (TAU * 1476.0).powi(2);
                (acc / wsum.max(f64::MIN_POSITIVE), var.sqrt())
            }
        }
    }

    /// Range of the stage's estimator (with pilots), cycles/symbol.
    fn range(stage: usize) -> f64 {
        match stage {
            0 => 0.5,
            1 => 1.0 / SLOT as f64,
            _ => 1.0 / (2.0 * (PILOT_PERIOD + PILOT_BLOCK) as f64),
        }
    }

    /// Recovers the carrier of one frame: `y` holds the frame (at `y[0]`, `layout.len`
    /// symbols; `y[0]` the `at`-th symbol of the stream) and, with `layout.next_sof`, the
    /// next header's SOF;
    /// `header` is the frame's decoded PLHEADER; `scr` the PL scrambling sequence. Writes
    /// the data symbols (pilots removed, descrambled, unit energy) to `out`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn process(
        &mut self,
        y: &[Complex32],
        at: u64,
        layout: Layout,
        header: &[Complex32],
        scr: &[u8],
        decider: &Decider,
        out: &mut Vec<Complex32>,
    ) -> FrameCarrier {
        debug_assert!(y.len() >= layout.len + if layout.next_sof { SOF_LEN } else { 0 });
        self.measure(y, layout, header, scr);
        let snr = f64::from(self.block_snr());
        // The M-th power for every constellation but APSK with pilots (its pilots alone).
        let psk = Some(decider.mth_power()).filter(|m| m.constant_modulus() || !layout.pilots);
        if let Some(psk) = psk {
            // PSK: the frequency from the M-th power's spectrum at once, then from the
            // phase tracker.
            if self.stage < 2
                && let Some(df) = self.phase.acquire(y, layout.len, at, self.freq, psk)
            {
                self.freq += df;
                self.spread = ACQUIRED_SPREAD;
                self.stage = 2;
                self.measure(y, layout, header, scr);
            }
        }
        // APSK with pilots: the staged estimate, its last stage every frame.
        while psk.is_none() {
            let (e, sigma) = self.error(self.stage, layout, snr);
            // Frames this stage averages so that the next stage's range holds 4σ, at this
            // frame's SNR (the first frames' may be low while the loops converge).
            let next = Self::range(self.stage + 1);
            self.needed = ((4.0 * sigma / next).powi(2).ceil() as u32).clamp(1, 64);
            self.frames = self.frames.saturating_add(1);
            let gain = if self.stage == 2 {
                0.5
            } else {
                1.0 / f64::from(self.frames.min(16))
            };
            self.freq += gain * e;
            // A running mean of k estimates: σ/√k (the stage's last one tracks at gain ½).
            self.spread = if self.stage == 2 {
                sigma
            } else {
                sigma / f64::from(self.frames.min(16)).sqrt()
            };
            self.measure(y, layout, header, scr);
            if self.stage == 2 || self.frames < self.needed {
                break;
            }
            self.stage += 1;
            self.frames = 0;
        }
        // Amplitude and noise from the known blocks after their own phase; for QPSK and 8PSK
        // from the data's moments (thousands of symbols) where those are consistent.
        let known = {
            let blocks = &self.blocks[..self.nblocks];
            let n: usize = blocks.iter().map(|b| b.len).sum();
            let coh: f32 = blocks.iter().map(|b| b.sum.norm()).sum();
            let energy: f32 = blocks.iter().map(|b| b.energy).sum();
            let amp = coh / n as f32;
            (amp * amp, (energy / n as f32 - amp * amp).max(1e-12))
        };
        let moments = psk.and_then(|psk| {
            // The data at the known symbols' amplitude: APSK rings are told apart by radius.
            let scale = 1.0 / known.0.sqrt().max(f32::MIN_POSITIVE);
            let m = self
                .phase
                .measure(y, layout.len, layout.pilots, self.freq, scale, psk);
            m.filter(|_| psk.constant_modulus())
                .map(|(s, n)| (s * known.0, n * known.0))
        });
        let (sig, noise) = moments.unwrap_or(known);
        let amp = sig.sqrt();
        // Averaged once the loop has converged (a running mean, then over ~10 frames);
        // before, each frame's own.
        if self.stage < 2 {
            (self.sig, self.noise, self.averaged) = (sig, noise, 0);
        } else {
            self.averaged = (self.averaged + 1).min(10);
            let gain = 1.0 / self.averaged as f32;
            self.sig += gain * (sig - self.sig);
            self.noise += gain * (noise - self.noise);
        }
        let inv_amp = 1.0 / amp.max(f32::MIN_POSITIVE);
        out.clear();
        if let Some(psk) = psk {
            let blocks = &self.blocks[..self.nblocks];
            let mut known = [Known {
                pos: 0.0,
                phase: 0.0,
                r: 0.0,
            }; MAX_BLOCKS];
            let snr = f64::from(sig / noise);
            for (k, b) in known.iter_mut().zip(blocks) {
                *k = Known {
                    pos: b.centre(),
                    phase: f64::from(b.sum.arg()),
                    r: 1.0 / (2.0 * b.len as f64 * snr),
                };
            }
            let res = self.phase.track(
                y,
                layout.len,
                layout.pilots,
                &known[..blocks.len()],
                self.freq,
                (TAU * self.spread).powi(2),
                psk,
                psk.constant_modulus().then(|| f64::from(self.snr())),
                scr,
                inv_amp,
                out,
            );
            if self.stage == 2 && !res.coherent {
                // The frequency is lost: acquire again on the next frame.
                self.stage = 0;
            } else if self.stage == 2 {
                self.freq += res.freq / TAU;
                self.spread = (res.var.sqrt() / TAU).max(MIN_SPREAD);
            }
        } else {
            self.interpolate(y, layout, scr, inv_amp, out);
        }
        FrameCarrier {
            snr: sig / noise,
            freq: self.freq,
            locked: self.stage == 2,
        }
    }

    /// Es/N0 (linear) of the known symbols as last measured, from the lag-1 products (which
    /// a frequency error does not shrink) against the energy.
    fn block_snr(&self) -> f32 {
        let blocks = &self.blocks[..self.nblocks];
        let n: usize = blocks.iter().map(|b| b.len).sum();
        let sig =
            blocks.iter().map(|b| b.lag1).sum::<Complex32>().norm() / (n - blocks.len()) as f32;
        let energy: f32 = blocks.iter().map(|b| b.energy).sum::<f32>() / n as f32;
        (sig / (energy - sig).max(1e-6)).clamp(0.05, 1e4)
    }

    /// Smoothed Es/N0 of the known symbols, linear.
    pub(crate) fn snr(&self) -> f32 {
        self.sig / self.noise.max(f32::MIN_POSITIVE)
    }

    /// Pilots: phase per known block, linearly interpolated over the data between them.
    fn interpolate(
        &self,
        y: &[Complex32],
        layout: Layout,
        scr: &[u8],
        inv_amp: f32,
        out: &mut Vec<Complex32>,
    ) {
        let blocks = &self.blocks[..self.nblocks];
        let mut theta = f64::from(blocks[0].sum.arg());
        // Total phase to remove at symbol n: 2πf·n + θ(n), θ linear from `theta` at `c0`.
        let mut derotate = |start: usize, end: usize, theta: f64, c0: f64, slope: f64| {
            if start < end {
                let ph0 =
                    TAU * (self.freq * start as f64).fract() + theta + slope * (start as f64 - c0);
                let dph = TAU * self.freq + slope;
                segment(
                    &y[start..end],
                    &scr[start - SLOT..end - SLOT],
                    ph0,
                    dph,
                    inv_amp,
                    out,
                );
            }
        };
        let mut slope = 0.0;
        for pair in blocks.windows(2) {
            let next = theta + wrap(f64::from(pair[1].sum.arg()) - theta);
            let (c0, c1) = (pair[0].centre(), pair[1].centre());
            slope = (next - theta) / (c1 - c0);
            let start = pair[0].start + pair[0].len;
            derotate(start, pair[1].start.min(layout.len), theta, c0, slope);
            theta = next;
        }
        if !layout.next_sof {
            // The last frame: no SOF after it, the last slope carried on to its end.
            let last = blocks[blocks.len() - 1];
            derotate(
                last.start + last.len,
                layout.len,
                theta,
                last.centre(),
                slope,
            );
        }
    }
}

/// e^{+jRπ/2}·s: the scrambled form of a known symbol.
#[inline]
fn descramble_inv(s: Complex32, r: u8) -> Complex32 {
    descramble(s, 4 - (r & 3))
}

fn header_sof(header: &[Complex32], i: usize) -> Complex32 {
    header[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plframe::plheader;

    #[test]
    fn stage_estimators_measure_a_pure_frequency_offset() {
        let layout = Layout {
            len: 8370,
            pilots: true,
            next_sof: true,
        };
        let mut header = [Complex32::new(0.0, 0.0); SLOT];
        plheader(4, true, true, &mut header);
        let scr = super::super::scrambling::scrambling_sequence(0);
        let pilot = Complex32::new(
            std::f32::consts::FRAC_1_SQRT_2,
            std::f32::consts::FRAC_1_SQRT_2,
        );
        for eps in [-4e-3, 5e-4, 1e-4] {
            let y: Vec<Complex32> = (0..layout.len + SLOT)
                .map(|n| {
                    let s = if n < SLOT {
                        header[n]
                    } else if n >= layout.len {
                        header[n - layout.len]
                    } else {
                        descramble_inv(pilot, scr[n - SLOT])
                    };
                    s * Complex32::from_polar(1.0, (TAU * eps * n as f64) as f32)
                })
                .collect();
            // With the next SOF, and without it (the last frame of a transmission).
            for next_sof in [true, false] {
                let layout = Layout { next_sof, ..layout };
                let mut c = Carrier::new(0.0, 0.01);
                c.measure(&y, layout, &header, &scr);
                for stage in 0..3 {
                    let (e, _) = c.error(stage, layout, 100.0);
                    if Carrier::range(stage) > eps.abs() {
                        assert!(
                            (e - eps).abs() < 1e-6,
                            "stage {stage}, next SOF {next_sof}: {e} for {eps}"
                        );
                    }
                }
            }
        }
    }
}
