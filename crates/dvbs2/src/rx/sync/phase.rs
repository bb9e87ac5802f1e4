//! Carrier phase of one PLFRAME by the constellation's M-th power (QPSK and 8PSK with or
//! without pilots, 16APSK and 32APSK without): a Kalman filter and smoother over phase
//! observations of blocks of symbols, and the frequency acquisition that precedes it.
//!
//! Observations, in time order: the known blocks (PLHEADER, pilot blocks, the next SOF) give
//! the phase itself; blocks of data symbols give it modulo 2π/M through the M-th power
//! (Viterbi & Viterbi with amplitude weight |z|²: (z·e^{−j·offset})^M/|z|^{M−2}, the offset
//! of z's ring; APSK rings whose point count does not divide M are left out). The state is the
//! phase and the residual frequency. The smoother (Rauch–Tung–Striebel) gives the phase at
//! each observation from the whole frame; the data are derotated by its linear
//! interpolation. A data block's weight is its phase variance: for QPSK and 8PSK from the
//! Es/N0 (the data's moments measure it within tenths of a dB; |E w|²/var w at that Es/N0 is
//! tabulated), for APSK from the M-th power's partial sums pooled over frames.
//!
//! Without pilots each data observation's innovation is wrapped into ±π/M, so the filter
//! unwraps the data phases against its prediction, and each data block is long enough that
//! its phase noise stays within a quarter of the ambiguity. With pilots the known blocks
//! alone are smoothed first, and each data block is observed as its deviation from that
//! phase θ: Im(Σw·e^{−jMθ}) ≈ |μ|·n·M·(phase − θ), linear with Gaussian noise however low
//! the block's SNR. (Near 8PSK's thresholds a block of 512 symbols has an M-th power SNR
//! below 1: its argument's tails reach across ±π/M, and the wrapped innovations pulled the
//! phase 2π/8 away between pilot blocks.)
//!
//! Frequency acquisition (while the carrier loop has not converged): the spectrum of the
//! M-th power (one FFT), whose peak lies at M times the residual frequency — range
//! ±1/(2M) cycles/symbol. Frames of up to `FFT_LEN` symbols are added coherently to the
//! frames before them (derotated alike, in stream time) until the peak stands out: a short
//! 8PSK frame alone does not below about 7 dB, three do at 5.5 dB.

use std::f64::consts::TAU;
use std::fmt;
use std::sync::Arc;

use num_complex::Complex32;
use radioflow_fftplan::Fft;

use super::derotate::{rot_at, segment, Rotator, LANES};
use crate::plframe::{PILOT_BLOCK, PILOT_PERIOD, SLOT};

/// Symbols per partial sum of the M-th power; data observations are whole multiples.
const FINE: usize = 32;
/// Shortest data observation, symbols (fewer observations at high SNR, where the phase
/// noise between them is still followed by the interpolation).
const MIN_BLOCK: usize = 128;
/// Longest data observation, symbols.
const MAX_BLOCK: usize = 512;
/// Most data symbols of a PLFRAME (QPSK normal).
const MAX_DATA: usize = 64_800 / 2;
/// Acquisition FFT length (a QPSK normal frame without pilots at one point per symbol).
const FFT_LEN: usize = 32_768;
/// Least ratio of the acquisition spectrum's peak to its mean power: noise alone reaches
/// about ln(32768) ≈ 10 over the independent bins (20 with a probability of 7e-5); a QPSK
/// short frame at 0 dB gives 30–50, an 8PSK one at 7 dB about 20, at 6 dB 10–17 (two
/// together 20–35).
const PEAK_RATIO: f32 = 20.0;
/// |z|² below which a symbol is taken as zero (its M-th power would overflow).
const TINY: f32 = 1e-12;
/// Phase noise of the model, rad² per symbol (Wiener: 1e-3 rad/√symbol, the tests' strongest),
/// and frequency drift, rad² per symbol³. More phase noise (1e-5) shortens the smoother's
/// memory to about a pilot period, and near 8PSK's thresholds its phase error (0.03 rad)
/// doubles the frames lost.
const Q_PHASE: f64 = 1e-6;
const Q_FREQ: f64 = 1e-13;
/// Frames whose M-th power statistics are averaged (APSK's block weights, and whether the
/// frequency is lost).
const POOL_FRAMES: u32 = 8;

/// |E w|²/var w of the M-th power w = z^M/|z|^{M−2} of one PSK symbol z = e^{jθ} + n
/// (θ a constellation point, n complex Gaussian), at Es/N0 = −4, −3, ..., 30 dB: for QPSK
/// (M = 4) and 8PSK (M = 8), by numerical integration over n (checked by simulation in
/// the tests).
const PSK_RHO: [[f64; 35]; 2] = [
    [
        3.5854e-04, 7.6380e-04, 1.5822e-03, 3.1784e-03, 6.1756e-03, 1.1581e-02, 2.0924e-02,
        3.6392e-02, 6.0924e-02, 9.8261e-02, 1.5295e-01, 2.3037e-01, 3.3680e-01, 4.7962e-01,
        6.6768e-01, 9.1182e-01, 1.2256e+00, 1.6259e+00, 2.1345e+00, 2.7783e+00, 3.5918e+00,
        4.6184e+00, 5.9128e+00, 7.5438e+00, 9.5984e+00, 1.2186e+01, 1.5444e+01, 1.9547e+01,
        2.4712e+01, 3.1215e+01, 3.9403e+01, 4.9710e+01, 6.2687e+01, 7.9024e+01, 9.9591e+01,
    ],
    [
        1.1468e-09, 5.9654e-09, 2.9943e-08, 1.4431e-07, 6.6397e-07, 2.8986e-06, 1.1924e-05,
        4.5868e-05, 1.6367e-04, 5.3726e-04, 1.6096e-03, 4.3726e-03, 1.0731e-02, 2.3798e-02,
        4.7914e-02, 8.8355e-02, 1.5097e-01, 2.4202e-01, 3.6844e-01, 5.3830e-01, 7.6143e-01,
        1.0502e+00, 1.4202e+00, 1.8913e+00, 2.4887e+00, 3.2443e+00, 4.1982e+00, 5.4014e+00,
        6.9178e+00, 8.8283e+00, 1.1235e+01, 1.4265e+01, 1.8080e+01, 2.2884e+01, 2.8933e+01,
    ],
];

/// [`PSK_RHO`] at Es/N0 `esn0` (linear) for M = 4 or 8: interpolated in dB on a log
/// scale; above 30 dB ρ grows as Es/N0.
fn psk_rho(m: u32, esn0: f64) -> f64 {
    let table = &PSK_RHO[usize::from(m == 8)];
    let db = 10.0 * esn0.max(1e-12).log10();
    let x = (db + 4.0).clamp(0.0, 34.0);
    let i = (x as usize).min(33);
    let f = x - i as f64;
    let ln = (1.0 - f) * table[i].ln() + f * table[i + 1].ln();
    ln.exp() * 10f64.powf((db - 30.0).max(0.0) / 10.0)
}

/// One phase observation.
#[derive(Debug, Clone, Copy, Default)]
struct Obs {
    /// Centre, symbols from the frame start.
    pos: f64,
    /// Measured phase, radians (modulo `period`).
    phase: f64,
    /// 2π for known symbols, 2π/M for data.
    period: f64,
    /// Variance of `phase`, rad².
    r: f64,
}

/// Kalman state at one observation: phase, frequency (rad/symbol), covariance.
#[derive(Debug, Clone, Copy, Default)]
struct State {
    x: [f64; 2],
    p: [[f64; 2]; 2],
}

/// A known block's phase measurement, for [`PhaseTracker::track`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Known {
    /// Centre, symbols from the frame start.
    pub(crate) pos: f64,
    /// Phase, radians.
    pub(crate) phase: f64,
    /// Its variance, rad².
    pub(crate) r: f64,
}

/// What [`PhaseTracker::track`] found beyond the frequency it was given.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Residual {
    /// Residual frequency at the frame's end, rad/symbol.
    pub(crate) freq: f64,
    /// Its variance.
    pub(crate) var: f64,
    /// The data's M-th power was coherent enough to track: false after a frequency error
    /// of more than about 1/(2·M·32) cycles/symbol, where the frames pooled tell (QPSK and
    /// 8PSK: their |E w|² is under half of what the Es/N0 gives, by more than its
    /// deviation; APSK: its blocks are too noisy to track).
    pub(crate) coherent: bool,
}

/// A constellation's M-th power: QPSK and 8PSK (M = 4, 8: one ring), 16APSK (M = 12: both
/// rings) and 32APSK (M = 16: the 4- and 16-point rings; the 12-point ring is left out).
#[derive(Debug, Clone, Copy)]
pub(crate) struct MthPower {
    pub(crate) m: u32,
    /// Per ring, innermost first: e^{−j·offset} (its points at `offset + k·2π/m_ring`), the
    /// |z|² above which a symbol belongs to the next ring, whether the ring is used (m_ring
    /// divides M).
    pub(crate) rings: [(Complex32, f32, bool); 3],
    pub(crate) nrings: usize,
}

impl MthPower {
    /// One ring: the data's moments give its signal and noise powers.
    pub(crate) fn constant_modulus(&self) -> bool {
        self.nrings == 1
    }

    /// (z·e^{−j·offset})^M / |z|^{M−2}, with the offset of z's ring: its phase is M times
    /// z's phase error; zero on a ring left out.
    #[inline(always)]
    pub(crate) fn power(&self, z: Complex32) -> Complex32 {
        let p = z.norm_sqr();
        if p < TINY {
            return Complex32::new(0.0, 0.0);
        }
        let inv = 1.0 / p;
        let mut ring = self.rings[0];
        for r in &self.rings[1..self.nrings] {
            if p > ring.1 {
                ring = *r;
            }
        }
        if !ring.2 {
            return Complex32::new(0.0, 0.0);
        }
        // (w/|w|)^M·|w|²: the same, without |w|^{−(M−2)} overflowing for a small |w| (at
        // M = 16 below |w|² ≈ 3e-6, where w^M underflowed to zero: 0·∞).
        let u = z * ring.0 * inv.sqrt();
        let u2 = u * u;
        let u4 = u2 * u2;
        let um = match self.m {
            4 => u4,
            8 => u4 * u4,
            12 => u4 * u4 * u4,
            _ => {
                let u8 = u4 * u4;
                u8 * u8
            }
        };
        um * p
    }

    /// Adds the M-th powers of `s[l]·rot[l]` to `sums` (zeros contribute nothing).
    #[inline(always)]
    fn accumulate(&self, s: &[Complex32; LANES], rot: &[Complex32; LANES], sums: &mut Sums) {
        match (self.nrings, self.m) {
            (1, 4) => self.accumulate_psk::<2>(s, rot, sums),
            (1, _) => self.accumulate_psk::<3>(s, rot, sums),
            _ => {
                for l in 0..LANES {
                    let z = s[l] * rot[l];
                    let p = self.power(z);
                    let q = z.norm_sqr();
                    sums.add(l, p, q);
                }
            }
        }
    }

    /// [`accumulate`](Self::accumulate) for one ring of M = 2^SQUARINGS points, lane by lane
    /// in real arithmetic (which the compiler vectorizes).
    #[inline(always)]
    fn accumulate_psk<const SQUARINGS: u32>(
        &self,
        s: &[Complex32; LANES],
        rot: &[Complex32; LANES],
        sums: &mut Sums,
    ) {
        let d = self.rings[0].0;
        for l in 0..LANES {
            let zr = s[l].re * rot[l].re - s[l].im * rot[l].im;
            let zi = s[l].re * rot[l].im + s[l].im * rot[l].re;
            let q = zr * zr + zi * zi;
            let inv = if q > TINY { 1.0 / q } else { 0.0 };
            let (mut wr, mut wi) = (zr * d.re - zi * d.im, zr * d.im + zi * d.re);
            for _ in 0..SQUARINGS {
                (wr, wi) = (wr * wr - wi * wi, 2.0 * wr * wi);
            }
            // |z|^{−(M−2)}: inv for M = 4, inv³ for M = 8.
            let g = if SQUARINGS == 2 { inv } else { inv * inv * inv };
            sums.add(l, Complex32::new(wr * g, wi * g), q);
        }
    }
}

/// Sums of one partial sum's symbols, per lane: the M-th powers w, |w|², |z|², |z|⁴.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    w: [Complex32; LANES],
    e: [f32; LANES],
    p2: [f32; LANES],
    p4: [f32; LANES],
}

impl Sums {
    #[inline(always)]
    fn add(&mut self, l: usize, w: Complex32, q: f32) {
        self.w[l] += w;
        self.e[l] += w.norm_sqr();
        self.p2[l] += q;
        self.p4[l] += q * q;
    }
}

struct Planned(Arc<dyn Fft<f32>>);

impl fmt::Debug for Planned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fft({})", self.0.len())
    }
}

impl Clone for Planned {
    fn clone(&self) -> Self {
        Planned(Arc::clone(&self.0))
    }
}

/// Buffers for the phase of a frame (made once: nothing is allocated per frame).
#[derive(Debug, Clone)]
pub(crate) struct PhaseTracker {
    /// Partial sums of the M-th power: first symbol, symbols spanned, symbols used, sum.
    fine: Vec<(usize, usize, usize, Complex32)>,
    /// Every `stride`-th data symbol enters the partial sums: more than 1 at high SNR,
    /// chosen from the previous frame's noise.
    stride: usize,
    obs: Vec<Obs>,
    /// Predicted and filtered states per observation.
    pred: Vec<State>,
    filt: Vec<State>,
    /// Smoothed phase per observation.
    phase: Vec<f64>,
    /// Smoothed phase per known block from the known blocks alone.
    guide: Vec<f64>,
    /// Σ|w|² of the M-th powers in `fine`.
    energy: f64,
    fft: Planned,
    spectrum: Vec<Complex32>,
    scratch: Vec<Complex32>,
    /// The M-th powers of the last `FFT_LEN` symbols acquisition has seen since it last
    /// succeeded, one per symbol, at index (absolute symbol mod `FFT_LEN`), zero where no
    /// frame was: frames of up to `FFT_LEN` symbols are acquired coherently over several
    /// (a short 8PSK frame alone does not stand out of the noise below about 7 dB).
    history: Vec<Complex32>,
    /// What `history` holds: M, the frequency it was derotated by, the absolute symbol just
    /// after its last one.
    history_of: Option<(u32, f64, u64)>,
    /// Per M (4, 8, 12, 16: VCM frames of each constellation apart), Σ|S|², Σ|w|², Σn², Σn
    /// of the partial sums averaged over the frames since the frequency was acquired (at
    /// most `POOL_FRAMES`), and how many.
    pooled: [([f64; 4], u32); 4],
}

/// The data segments [start, end) of a PLFRAME of `len` symbols: between the header, the
/// pilot blocks (with `pilots`) and the end.
fn data_segments(len: usize, pilots: bool) -> impl Iterator<Item = (usize, usize)> {
    let mut start = Some(SLOT);
    std::iter::from_fn(move || {
        let s = start?;
        let end = if pilots && s + PILOT_PERIOD + PILOT_BLOCK < len {
            s + PILOT_PERIOD
        } else {
            len
        };
        start = (end < len).then_some(end + PILOT_BLOCK);
        Some((s, end))
    })
}

impl PhaseTracker {
    pub(crate) fn new() -> Self {
        let fft = radioflow_fftplan::forward(FFT_LEN);
        let scratch = vec![Complex32::new(0.0, 0.0); fft.get_inplace_scratch_len()];
        let max_obs = MAX_DATA / FINE + 2 * MAX_DATA / PILOT_PERIOD + 8;
        PhaseTracker {
            fine: Vec::with_capacity(max_obs),
            stride: 1,
            obs: Vec::with_capacity(max_obs),
            pred: Vec::with_capacity(max_obs),
            filt: Vec::with_capacity(max_obs),
            phase: Vec::with_capacity(max_obs),
            guide: Vec::with_capacity(max_obs),
            energy: 0.0,
            fft: Planned(fft),
            spectrum: vec![Complex32::new(0.0, 0.0); FFT_LEN],
            scratch,
            history: vec![Complex32::new(0.0, 0.0); FFT_LEN],
            history_of: None,
            pooled: [([0.0; 4], 0); 4],
        }
    }

    /// Forgets the frames [`acquire`](Self::acquire) and [`track`](Self::track) have seen.
    pub(crate) fn forget(&mut self) {
        self.history_of = None;
        self.pooled = [([0.0; 4], 0); 4];
    }

    fn pool_index(m: u32) -> usize {
        (m as usize / 4 - 1).min(3)
    }

    /// The residual frequency (cycles/symbol) of the frame `y[..len]` (its first symbol the
    /// `at`-th of the stream) after derotation by `freq`, from the peak of its M-th power's
    /// spectrum (header and pilots are points of the constellation's M-th power too), with
    /// the frames before it that the same `freq` derotated and that fit in `FFT_LEN`
    /// symbols; `None` if the peak does not stand out of the noise.
    pub(crate) fn acquire(
        &mut self,
        y: &[Complex32],
        len: usize,
        at: u64,
        freq: f64,
        mp: MthPower,
    ) -> Option<f64> {
        let decim = len.div_ceil(FFT_LEN);
        let step = rot_at(freq, 1);
        if decim == 1 {
            // Zeros over the gap since the last frame (if the same `freq` derotated it),
            // then this frame's M-th powers, derotated from the stream's first symbol so
            // that their phase continues the last frame's.
            let n = FFT_LEN as u64;
            match self.history_of {
                Some((m, f, end)) if m == mp.m && f == freq && at >= end && at - end < n => {
                    for p in end..at {
                        self.history[(p % n) as usize] = Complex32::new(0.0, 0.0);
                    }
                }
                _ => self.history.fill(Complex32::new(0.0, 0.0)),
            }
            let rot = |k: u64| {
                let ph = (freq * (at + k) as f64).fract() * TAU;
                Complex32::new(ph.cos() as f32, -ph.sin() as f32)
            };
            let mut w = rot(0);
            for (k, &s) in (0..).zip(&y[..len]) {
                self.history[((at + k) % n) as usize] = mp.power(s * w);
                w *= step;
                if k % 64 == 63 {
                    w = rot(k + 1);
                }
            }
            self.history_of = Some((mp.m, freq, at + len as u64));
            self.spectrum.copy_from_slice(&self.history);
        } else {
            self.history_of = None;
            self.spectrum.fill(Complex32::new(0.0, 0.0));
            let mut w = Complex32::new(1.0, 0.0);
            for (k, chunk) in y[..len].chunks(decim).enumerate() {
                let mut acc = Complex32::new(0.0, 0.0);
                for &s in chunk {
                    acc += mp.power(s * w);
                    w *= step;
                }
                self.spectrum[k] = acc;
                if k % 64 == 63 {
                    w = rot_at(freq, (k + 1) * decim);
                }
            }
        }
        self.fft
            .0
            .process_with_scratch(&mut self.spectrum, &mut self.scratch);
        let (mut best, mut peak, mut total) = (0, 0.0f32, 0.0f32);
        for (k, x) in self.spectrum.iter().enumerate() {
            let p = x.norm_sqr();
            total += p;
            if p > peak {
                (best, peak) = (k, p);
            }
        }
        if peak < PEAK_RATIO * total / FFT_LEN as f32 {
            return None;
        }
        // Parabola through the peak's magnitude and its neighbours.
        let mag = |k: usize| f64::from(self.spectrum[k % FFT_LEN].norm());
        let (a, b, c) = (mag(best + FFT_LEN - 1), mag(best), mag(best + 1));
        let den = a - 2.0 * b + c;
        let delta = if den < 0.0 { 0.5 * (a - c) / den } else { 0.0 };
        let k = if best > FFT_LEN / 2 {
            best as f64 - FFT_LEN as f64
        } else {
            best as f64
        };
        // A new frequency: the statistics of the frames before are of another.
        self.forget();
        Some((k + delta) / (FFT_LEN * decim) as f64 / f64::from(mp.m))
    }

    /// First pass over the data symbols of the frame `y` (`len` symbols, derotated by
    /// `freq` cycles/symbol, scaled by `scale`): partial sums of the M-th power for [`track`](Self::track), and
    /// the data's signal and noise powers by their second and fourth moments (M2M4: for a
    /// constant-modulus constellation in complex Gaussian noise M2 = S + N and
    /// M4 = S² + 4SN + 2N²); `None` where the moments are not consistent with that (too
    /// little signal).
    pub(crate) fn measure(
        &mut self,
        y: &[Complex32],
        len: usize,
        pilots: bool,
        freq: f64,
        scale: f32,
        mp: MthPower,
    ) -> Option<(f32, f32)> {
        self.fine.clear();
        self.energy = 0.0;
        let (mut m2, mut m4, mut count) = (0.0f64, 0.0f64, 0usize);
        let stride = self.stride;
        for (a, b) in data_segments(len, pilots) {
            let dph = TAU * freq * stride as f64;
            let mut rot = Rotator::new(TAU * (freq * a as f64).fract(), dph, scale);
            let mut n = a;
            while n < b {
                let end = (n + FINE).min(b);
                let mut sums = Sums::default();
                let mut buf = [Complex32::new(0.0, 0.0); LANES];
                let mut k = n;
                while k < end {
                    if stride == 1 && k + LANES <= end {
                        buf.copy_from_slice(&y[k..k + LANES]);
                    } else {
                        for (l, o) in buf.iter_mut().enumerate() {
                            *o = y[..end].get(k + l * stride).copied().unwrap_or_default();
                        }
                    }
                    mp.accumulate(&buf, &rot.w, &mut sums);
                    rot.advance();
                    k += LANES * stride;
                }
                let used = (end - n).div_ceil(stride);
                self.energy += f64::from(sums.e.iter().sum::<f32>());
                m2 += f64::from(sums.p2.iter().sum::<f32>());
                m4 += f64::from(sums.p4.iter().sum::<f32>());
                count += used;
                self.fine.push((n, end - n, used, sums.w.iter().sum()));
                n = end;
            }
        }
        let (m2, m4) = (m2 / count.max(1) as f64, m4 / count.max(1) as f64);
        let s2 = 2.0 * m2 * m2 - m4;
        (s2 > 0.0).then(|| {
            let sig = s2.sqrt();
            (sig as f32, (m2 - sig).max(1e-6 * m2) as f32)
        })
    }

    /// The data symbols of the frame `y` to `out`, after [`measure`](Self::measure) with the
    /// same `y`, `len`, `pilots`, `freq`, `mp`: phase from the Kalman smoother over `known`
    /// (header, pilot blocks, next SOF, in order: one more than the data segments; as many
    /// for the last frame of a transmission, which has no next SOF) and the
    /// data's M-th power, PL descrambled with `scr`, scaled by `scale`. `freq_var`: the
    /// variance of the frequency error, (rad/symbol)²; `esn0`: the Es/N0 (linear) of a PSK
    /// constellation (`None` for APSK).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn track(
        &mut self,
        y: &[Complex32],
        len: usize,
        pilots: bool,
        known: &[Known],
        freq: f64,
        freq_var: f64,
        mp: MthPower,
        esn0: Option<f64>,
        scr: &[u8],
        scale: f32,
        out: &mut Vec<Complex32>,
    ) -> Residual {
        // |E w|² and var w from the partial sums: Σ|S|² = |μ|²·Σn² + σ²·Σn, Σ|w|² =
        // (|μ|² + σ²)·Σn. Then the phase variance of one data symbol, (σ²/2|μ|²)/M².
        let mut sums = [0.0f64, self.energy, 0.0, 0.0];
        for &(_, _, n, s) in &self.fine {
            sums[0] += f64::from(s.norm_sqr());
            sums[2] += (n * n) as f64;
            sums[3] += n as f64;
        }
        // Pooled with the frames before (near the thresholds one frame's |μ|² is about as
        // large as its error).
        let pool = &mut self.pooled[Self::pool_index(mp.m)];
        pool.1 = (pool.1 + 1).min(POOL_FRAMES);
        for (p, s) in pool.0.iter_mut().zip(sums) {
            *p += (s - *p) / f64::from(pool.1);
        }
        let [s2, energy, n2, n1] = pool.0;
        let pooled_frames = pool.1;
        let m = f64::from(mp.m);
        let mu2 = (s2 - energy) / (n2 - n1).max(1.0);
        let sigma2 = energy / n1.max(1.0) - mu2;
        let measured = mu2 / sigma2.max(f64::MIN_POSITIVE);
        // |E w|²/var w per symbol: for PSK from the Es/N0 (the data's moments measure it to
        // a few tenths of a dB, where the partial sums' |μ|² is lost in their noise near the
        // thresholds); for APSK as measured.
        let rho = esn0.map_or(measured.max(0.0), |esn0| psk_rho(mp.m, esn0));
        let r_sym = 1.0 / (2.0 * rho.max(f64::MIN_POSITIVE)) / (m * m);
        // Blocks long enough that their phase noise is a quarter of the ambiguity π/M; none
        // if even the longest is twice as noisy (without pilots).
        let target = (0.25 * std::f64::consts::PI / m).powi(2);
        let stride = self.stride as f64;
        let usable = rho > 0.0 && r_sym * stride / MAX_BLOCK as f64 <= 4.0 * target;
        // PSK: the frequency is lost when the data's M-th power shows less than half of
        // the ρ expected, where the measurement tells (its deviation at ρ = 0 is
        // √Σn²/(Σn² − Σn) per frame). APSK: when the blocks cannot be tracked.
        let coherent = if esn0.is_some() {
            let dev = (n2 / f64::from(pooled_frames)).sqrt() / (n2 - n1).max(1.0);
            rho < 6.0 * dev || measured >= rho / 2.0
        } else {
            usable
        };
        let fines = ((r_sym * stride / target / FINE as f64).ceil() as usize)
            .clamp(MIN_BLOCK / FINE, MAX_BLOCK / FINE);
        // The next frame: every 2nd or 4th symbol where the shortest block then still has a
        // sixteenth of the target's variance.
        self.stride = [4, 2, 1]
            .into_iter()
            .find(|&s| r_sym * s as f64 / MIN_BLOCK as f64 <= target / 16.0)
            .unwrap_or(1);

        // With pilots, the data are observed around the phase of the known blocks alone
        // (`guide`): each partial sum's M-th power projected on the guide's, Im(S·e^{−jMθ})
        // ≈ |μ|·n·M·(phase − θ), a linear observation with Gaussian noise however low the
        // block's SNR (its argument's tails reach across ±π/M near the thresholds).
        self.guide.clear();
        if pilots {
            self.obs.clear();
            self.obs.extend(known.iter().map(|k| Obs {
                pos: k.pos,
                phase: k.phase,
                period: TAU,
                r: k.r,
            }));
            self.smooth(freq_var);
            self.guide.extend_from_slice(&self.phase);
        }
        // |μ| from E|w|² = |μ|² + σ² (this frame's) and ρ.
        let mu = (self.energy / sums[3].max(1.0) * rho / (1.0 + rho)).sqrt();
        let guide = &self.guide;
        // Linear between the known blocks around segment `i`; after the last block (no next
        // SOF: the last frame of a transmission) carried on from the two before.
        let guided = |i: usize, c: f64| {
            let j = i.min(known.len() - 2);
            let (k0, k1) = (known[j], known[j + 1]);
            guide[j] + (guide[j + 1] - guide[j]) * (c - k0.pos) / (k1.pos - k0.pos)
        };

        // Observations in time order: known block, its segment's data blocks, ...
        self.obs.clear();
        let mut fine = self.fine.iter().peekable();
        for (i, (_, b)) in data_segments(len, pilots).enumerate() {
            let k = known[i];
            self.obs.push(Obs {
                pos: k.pos,
                phase: k.phase,
                period: TAU,
                r: k.r,
            });
            while let Some(&&(start, _, _, _)) = fine.peek() {
                if start >= b {
                    break;
                }
                let (mut sum, mut span, mut used) = (Complex32::new(0.0, 0.0), 0, 0);
                for _ in 0..fines {
                    match fine.next_if(|f| f.0 < b) {
                        Some(&(a, n, u, s)) => {
                            if pilots {
                                let c = a as f64 + (n as f64 - 1.0) / 2.0;
                                sum += s * Complex32::from_polar(1.0, (-m * guided(i, c)) as f32);
                            } else {
                                sum += s;
                            }
                            span += n;
                            used += u;
                        }
                        None => break,
                    }
                }
                let pos = start as f64 + (span as f64 - 1.0) / 2.0;
                if pilots && rho > 0.0 && used > 0 {
                    self.obs.push(Obs {
                        pos,
                        phase: guided(i, pos) + f64::from(sum.im) / (m * mu * used as f64),
                        period: TAU,
                        r: r_sym / used as f64,
                    });
                } else if !pilots && usable && sum.norm_sqr() > 0.0 {
                    self.obs.push(Obs {
                        pos,
                        phase: f64::from(sum.arg()) / m,
                        period: TAU / m,
                        r: r_sym / used as f64,
                    });
                }
            }
        }
        // The next SOF, when the frame has one.
        if known.len() > data_segments(len, pilots).count() {
            let last = known[known.len() - 1];
            self.obs.push(Obs {
                pos: last.pos,
                phase: last.phase,
                period: TAU,
                r: last.r,
            });
        }

        let residual = Residual {
            // One frame alone does not tell: the one frequency was acquired on is coherent.
            coherent: coherent || pooled_frames < 2,
            ..self.smooth(freq_var)
        };

        // Derotation by the smoothed phase, linear between observations.
        out.clear();
        let mut i = 0;
        for (a, b) in data_segments(len, pilots) {
            let mut n = a;
            while n < b {
                while i + 2 < self.obs.len() && self.obs[i + 1].pos <= n as f64 {
                    i += 1;
                }
                let (p0, t0) = (self.obs[i].pos, self.phase[i]);
                // One observation alone (the header of a last frame without pilots whose
                // data could not be tracked): its phase throughout.
                let (slope, end) = match self.obs.get(i + 1) {
                    Some(o1) => (
                        (self.phase[i + 1] - t0) / (o1.pos - p0),
                        if i + 2 < self.obs.len() {
                            (o1.pos.ceil() as usize).clamp(n + 1, b)
                        } else {
                            b
                        },
                    ),
                    None => (0.0, b),
                };
                let ph0 = TAU * (freq * n as f64).fract() + t0 + slope * (n as f64 - p0);
                let dph = TAU * freq + slope;
                segment(&y[n..end], &scr[n - SLOT..end - SLOT], ph0, dph, scale, out);
                n = end;
            }
        }
        residual
    }

    /// Kalman filter forward, Rauch–Tung–Striebel smoother backward, over `self.obs`; the
    /// smoothed phases to `self.phase`.
    fn smooth(&mut self, freq_var: f64) -> Residual {
        self.pred.clear();
        self.filt.clear();
        // Unknown phase, frequency error of the given variance.
        let mut s = State {
            x: [0.0, 0.0],
            p: [[1e4, 0.0], [0.0, freq_var]],
        };
        let mut at = self.obs[0].pos;
        for o in &self.obs {
            let d = o.pos - at;
            at = o.pos;
            // Predict: phase += freq·d.
            let p = s.p;
            let p00 = p[0][0] + d * (p[0][1] + p[1][0]) + d * d * p[1][1];
            let p01 = p[0][1] + d * p[1][1];
            let q00 = Q_PHASE * d + Q_FREQ * d * d * d / 3.0;
            let q01 = Q_FREQ * d * d / 2.0;
            let pr = State {
                x: [s.x[0] + d * s.x[1], s.x[1]],
                p: [[p00 + q00, p01 + q01], [p01 + q01, p[1][1] + Q_FREQ * d]],
            };
            self.pred.push(pr);
            // Update with the innovation wrapped into the observation's ambiguity.
            let e = o.phase - pr.x[0];
            let e = e - o.period * (e / o.period).round();
            let sv = pr.p[0][0] + o.r;
            let k = [pr.p[0][0] / sv, pr.p[1][0] / sv];
            s = State {
                x: [pr.x[0] + k[0] * e, pr.x[1] + k[1] * e],
                p: [
                    [(1.0 - k[0]) * pr.p[0][0], (1.0 - k[0]) * pr.p[0][1]],
                    [
                        pr.p[1][0] - k[1] * pr.p[0][0],
                        pr.p[1][1] - k[1] * pr.p[0][1],
                    ],
                ],
            };
            self.filt.push(s);
        }
        let residual = Residual {
            freq: s.x[1],
            var: s.p[1][1],
            coherent: true,
        };
        // Smoother: x_s(i) = x_f(i) + C·(x_s(i+1) − x_p(i+1)), C = P_f(i)·Fᵀ·P_p(i+1)⁻¹.
        let n = self.obs.len();
        self.phase.clear();
        self.phase.resize(n, 0.0);
        let mut xs = s.x;
        self.phase[n - 1] = xs[0];
        for i in (0..n - 1).rev() {
            let (f, pr) = (self.filt[i], self.pred[i + 1]);
            let d = self.obs[i + 1].pos - self.obs[i].pos;
            // P_f·Fᵀ with F = [[1, d], [0, 1]].
            let a = [
                [f.p[0][0] + d * f.p[0][1], f.p[0][1]],
                [f.p[1][0] + d * f.p[1][1], f.p[1][1]],
            ];
            let det = pr.p[0][0] * pr.p[1][1] - pr.p[0][1] * pr.p[1][0];
            let inv = [
                [pr.p[1][1] / det, -pr.p[0][1] / det],
                [-pr.p[1][0] / det, pr.p[0][0] / det],
            ];
            let c = [
                [
                    a[0][0] * inv[0][0] + a[0][1] * inv[1][0],
                    a[0][0] * inv[0][1] + a[0][1] * inv[1][1],
                ],
                [
                    a[1][0] * inv[0][0] + a[1][1] * inv[1][0],
                    a[1][0] * inv[0][1] + a[1][1] * inv[1][1],
                ],
            ];
            let dx = [xs[0] - pr.x[0], xs[1] - pr.x[1]];
            xs = [
                f.x[0] + c[0][0] * dx[0] + c[0][1] * dx[1],
                f.x[1] + c[1][0] * dx[0] + c[1][1] * dx[1],
            ];
            self.phase[i] = xs[0];
        }
        residual
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Solves a·x = b (Gaussian elimination with partial pivoting).
    fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
        let n = b.len();
        for c in 0..n {
            let p = (c..n)
                .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
                .unwrap();
            a.swap(c, p);
            b.swap(c, p);
            let (top, rest) = a.split_at_mut(c + 1);
            let pivot = &top[c];
            for (r, row) in rest.iter_mut().enumerate() {
                let f = row[c] / pivot[c];
                for (x, &p) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *x -= f * p;
                }
                b[c + 1 + r] -= f * b[c];
            }
        }
        let mut x = vec![0.0; n];
        for r in (0..n).rev() {
            let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
            x[r] = (b[r] - s) / a[r][r];
        }
        x
    }

    #[test]
    fn smoother_equals_the_batch_least_squares_solution() {
        // Without wrapping, the smoothed phases minimize Σ(z−θ)²/r + Σ wᵀQ⁻¹w + x₀ᵀP₀⁻¹x₀
        // over the whole trajectory: written out as normal equations and solved directly.
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut t = PhaseTracker::new();
        let freq_var = 1e-8;
        let mut pos = 44.5;
        t.obs.clear();
        for _ in 0..15 {
            t.obs.push(Obs {
                pos,
                phase: rng.gen_range(-0.5..0.5) + 2e-4 * pos,
                period: 1e9,
                r: rng.gen_range(0.001..0.05),
            });
            pos += rng.gen_range(20.0..300.0);
        }
        t.smooth(freq_var);
        let n = t.obs.len();
        let mut a = vec![vec![0.0; 2 * n]; 2 * n];
        let mut b = vec![0.0; 2 * n];
        a[0][0] += 1e-4;
        a[1][1] += 1.0 / freq_var;
        for (i, o) in t.obs.iter().enumerate() {
            a[2 * i][2 * i] += 1.0 / o.r;
            b[2 * i] += o.phase / o.r;
            if i + 1 < n {
                let d = t.obs[i + 1].pos - o.pos;
                let q = [
                    [Q_PHASE * d + Q_FREQ * d * d * d / 3.0, Q_FREQ * d * d / 2.0],
                    [Q_FREQ * d * d / 2.0, Q_FREQ * d],
                ];
                let det = q[0][0] * q[1][1] - q[0][1] * q[1][0];
                let qi = [
                    [q[1][1] / det, -q[0][1] / det],
                    [-q[1][0] / det, q[0][0] / det],
                ];
                // w = x_{i+1} − F·x_i = J·(x_i, x_{i+1}), J = [[−1, −d, 1, 0], [0, −1, 0, 1]].
                let j = [[-1.0, -d, 1.0, 0.0], [0.0, -1.0, 0.0, 1.0]];
                let idx = [2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 3];
                for (r, &ir) in idx.iter().enumerate() {
                    for (c, &ic) in idx.iter().enumerate() {
                        let mut v = 0.0;
                        for k in 0..2 {
                            for l in 0..2 {
                                v += j[k][r] * qi[k][l] * j[l][c];
                            }
                        }
                        a[ir][ic] += v;
                    }
                }
            }
        }
        let x = solve(a, b);
        for i in 0..n {
            assert!(
                (t.phase[i] - x[2 * i]).abs() < 1e-7,
                "observation {i}: {} against {}",
                t.phase[i],
                x[2 * i]
            );
        }
    }

    #[test]
    fn lane_kernel_equals_the_power_symbol_by_symbol() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for (m, offset) in [(4, std::f32::consts::FRAC_PI_4), (8, 0.0)] {
            let mp = MthPower {
                m,
                rings: [(Complex32::from_polar(1.0, -offset), f32::MAX, true); 3],
                nrings: 1,
            };
            let mut c = || Complex32::new(rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5));
            let mut s: [Complex32; LANES] = std::array::from_fn(|_| c());
            s[3] = Complex32::new(0.0, 0.0);
            let rot: [Complex32; LANES] = std::array::from_fn(|_| c());
            let mut sums = Sums::default();
            mp.accumulate(&s, &rot, &mut sums);
            for l in 0..LANES {
                let z = s[l] * rot[l];
                let w = mp.power(z);
                let tol = 1e-5 * (1.0 + w.norm_sqr());
                assert!((sums.w[l] - w).norm() < tol, "M = {m}, lane {l}");
                assert!((sums.e[l] - w.norm_sqr()).abs() < tol, "M = {m}, lane {l}");
                assert!(
                    (sums.p2[l] - z.norm_sqr()).abs() < 1e-5,
                    "M = {m}, lane {l}"
                );
            }
        }
    }

    /// Symbols `first..first + len` of a stream of unit PSK points k·2π/M (k pseudo-random)
    /// turned by 2π·cfo·n + 0.3, plus complex Gaussian noise at Es/N0 `esn0_db`.
    fn psk_signal(
        m: u32,
        esn0_db: f64,
        cfo: f64,
        first: usize,
        len: usize,
        rng: &mut impl Rng,
    ) -> Vec<Complex32> {
        let sigma = (0.5 / 10f64.powf(esn0_db / 10.0)).sqrt();
        (first..first + len)
            .map(|n| {
                let k = (n * 7 + n * n / 3) % m as usize;
                let ph = TAU * k as f64 / f64::from(m) + TAU * cfo * n as f64 + 0.3;
                let (u, v): (f64, f64) = (rng.gen_range(1e-12..1.0), rng.r#gen());
                let r = sigma * (-2.0 * u.ln()).sqrt();
                Complex32::from_polar(1.0, ph as f32)
                    + Complex32::from_polar(r as f32, (TAU * v) as f32)
            })
            .collect()
    }

    #[test]
    fn psk_rho_table_agrees_with_simulation() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for (m, db) in [(4, 0.0), (4, 6.5), (8, 6.0), (8, 12.0), (8, 24.0)] {
            let mp = MthPower {
                m,
                rings: [(Complex32::new(1.0, 0.0), f32::MAX, true); 3],
                nrings: 1,
            };
            let y = psk_signal(m, db, 0.0, 0, 400_000, &mut rng);
            let turn = Complex32::from_polar(1.0, -0.3);
            let (mut sum, mut energy) = (Complex32::new(0.0, 0.0), 0.0f64);
            for &z in &y {
                let w = mp.power(z * turn);
                sum += w;
                energy += f64::from(w.norm_sqr());
            }
            let mu2 = f64::from((sum / y.len() as f32).norm_sqr());
            let rho = mu2 / (energy / y.len() as f64 - mu2);
            let want = psk_rho(m, 10f64.powf(db / 10.0));
            // ρ's estimate has a relative deviation of about √(2/(nρ)): four of them.
            let n = y.len() as f64;
            assert!(
                (rho / want - 1.0).abs() < 4.0 * (2.0 / (n * want)).sqrt() + 0.02,
                "M = {m} at {db} dB: simulated {rho:.4e}, table {want:.4e}"
            );
        }
    }

    #[test]
    fn acquisition_adds_the_frames_too_noisy_alone() {
        // 8PSK short frames (5598 symbols) at 5.5 dB: the peak of one frame's spectrum is
        // about 8 times the mean, under the threshold; two or three frames' are over it.
        let mut rng = rand::rngs::StdRng::seed_from_u64(21);
        let mut t = PhaseTracker::new();
        let mp = MthPower {
            m: 8,
            rings: [(Complex32::new(1.0, 0.0), f32::MAX, true); 3],
            nrings: 1,
        };
        let (len, cfo) = (5598, 0.0123);
        let alone = psk_signal(8, 5.5, cfo, 0, len, &mut rng);
        assert_eq!(t.acquire(&alone, len, 0, 0.0, mp), None);
        t.forget();
        let mut found = None;
        for k in 0..6 {
            let y = psk_signal(8, 5.5, cfo, k * len, len, &mut rng);
            if let Some(f) = t.acquire(&y, len, (k * len) as u64, 0.0, mp) {
                found = Some((k, f));
                break;
            }
        }
        let (k, f) = found.expect("no acquisition in 6 frames");
        assert!(k >= 1, "acquired on the first frame alone");
        assert!((f - cfo).abs() < 3e-6, "{f} for {cfo}");
    }

    #[test]
    fn acquisition_finds_the_frequency_of_noisy_psk_frames() {
        // QPSK at 0 dB and 8PSK at 7 dB, 8100 symbols, offsets within ±1/(2M) cycles/symbol.
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut t = PhaseTracker::new();
        for (m, esn0_db, offset) in [(4, 0.0, 0.093), (4, 0.0, -0.004), (8, 7.0, -0.041)] {
            let sigma = (0.5 / 10f64.powf(esn0_db / 10.0)).sqrt();
            let mut noise = || {
                // Box–Muller.
                let (u, v): (f64, f64) = (rng.gen_range(1e-12..1.0), rng.r#gen());
                let r = sigma * (-2.0 * u.ln()).sqrt();
                Complex32::new((r * (TAU * v).cos()) as f32, (r * (TAU * v).sin()) as f32)
            };
            let offset_angle = if m == 4 {
                std::f64::consts::FRAC_PI_4
            } else {
                0.0
            };
            let y: Vec<Complex32> = (0..8100)
                .map(|n| {
                    let k = (n * 7 + n * n / 3) % m as usize;
                    let ph = offset_angle
                        + TAU * k as f64 / f64::from(m)
                        + TAU * offset * n as f64
                        + 0.3;
                    Complex32::from_polar(1.0, ph as f32) + noise()
                })
                .collect();
            let mp = MthPower {
                m,
                rings: [(
                    Complex32::from_polar(1.0, -offset_angle as f32),
                    f32::MAX,
                    true,
                ); 3],
                nrings: 1,
            };
            let got = t.acquire(&y, y.len(), 0, 0.0, mp);
            let got = got.unwrap_or_else(|| panic!("M = {m}: no peak"));
            assert!((got - offset).abs() < 3e-6, "M = {m}: {got} for {offset}");
            // Noise alone: no peak.
            let noise_only: Vec<Complex32> = (0..8100).map(|_| noise()).collect();
            assert_eq!(t.acquire(&noise_only, 8100, 0, 0.0, mp), None);
        }
    }
}
