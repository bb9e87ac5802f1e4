//! Receiver synchronisation (EN 302 307-1 clause 5.5 seen from the receiver): from complex
//! samples (2 samples per symbol, or any rate from just over `1 + roll-off` to 64 through a
//! resampler) to PLFRAMEs of descrambled data symbols with their MODCOD.
//!
//! [`Synchronizer`] chains a polyphase resampler to 2 samples per symbol when the input is at
//! another rate (`resample.rs`), a block AGC, the matched RRC filter, Gardner timing recovery
//! with a cubic interpolator (`front_end.rs`, `timing.rs`), PLHEADER acquisition by differential
//! correlation with the SOF and the PLS code's pair structure, soft PLS decoding by a fast
//! Hadamard transform (`header.rs`), and carrier recovery with PL descrambling (`carrier.rs`;
//! `phase.rs` for all but APSK with pilots: frequency acquisition from the M-th power's
//! spectrum, phase by a Kalman smoother over the known blocks and the data). Dummy PLFRAMEs are skipped. After the first frames nothing is
//! allocated per frame.
//!
//! ```
//! use num_complex::Complex32;
//! use radioflow_dvbs2::rx::sync::{SyncConfig, Synchronizer};
//!
//! let mut rx = Synchronizer::new(SyncConfig::default())?;
//! let samples = vec![Complex32::new(0.0, 0.0); 10_000]; // no signal: no frame
//! let mut frames = 0;
//! rx.process(&samples, |_frame| frames += 1);
//! assert_eq!(frames, 0);
//! assert!(!rx.stats().locked);
//! # Ok::<(), radioflow_dvbs2::rx::sync::SyncError>(())
//! ```

mod carrier;
mod decide;
mod derotate;
mod front_end;
mod header;
mod phase;
mod resample;
mod scrambling;
mod sizes;
mod timing;

#[cfg(test)]
mod alloc_tests;
#[cfg(test)]
mod channel;
#[cfg(test)]
mod gr_tests;
#[cfg(test)]
mod tests;

use std::f64::consts::TAU;

use num_complex::Complex32;
use radioflow_dsp::Num;
use thiserror::Error;

use crate::modcod::{CodeRate, FrameSize, Modcod};
use crate::plframe::{plframe_len, plheader, DUMMY_SLOTS, PILOT_BLOCK, PILOT_PERIOD, SLOT};
use carrier::{Carrier, Layout};
use decide::Decider;
use front_end::FrontEnd;
use header::{HeaderRef, Pls, TERMS};
use scrambling::{scrambling_sequence, MAX_FRAME};
use sizes::{BLOCK, FLUSH_SYMBOLS};

/// Header detection threshold on |c_sof ± c_pls| / (57·power): a header gives about
/// Es/(Es+N0) (0.35 ± 0.08 at −2.35 dB), other positions 0.15 ± 0.06.
const THRESHOLD: f32 = 0.27;
/// Least PLS decoding quality (best correlation over Σ|soft bits|) of an acquired header:
/// 0.8 ± 0.09 for a header at −2.35 dB, about 0.5 for noise.
const PLS_QUALITY: f32 = 0.62;
/// Symbols out of the timing loop ignored at start (about 4 / its bandwidth).
const WARMUP: usize = 2048;
/// Most candidate headers tried per acquisition window: at −2.35 dB about 3.4 % of the
/// positions pass the threshold, and ~100 of them pass a header's typical metric.
const CANDIDATES: usize = 4096;
/// Headers after a candidate that must be found where the PLS codes put them, each with a
/// metric of at least `CONFIRM_MIN` and all (candidate included) with a mean of at least
/// `CONFIRM_MEAN`: at −2.35 dB a header's metric is 0.35 ± 0.08, a noise position's
/// 0.15 ± 0.06, so four noise positions pass with a probability of about 1e-7, four headers
/// with about 0.9.
const CONFIRMATIONS: usize = 3;
const CONFIRM_MIN: f32 = 0.2;
const CONFIRM_MEAN: f32 = 0.3;
/// A metric no noise position reaches (their maximum over a window is about 0.55): such a
/// candidate and one more such header suffice.
const STRONG: f32 = 0.7;
/// Consecutive headers below the threshold before the lock is declared lost.
const MAX_MISSES: u32 = 4;
/// Mean power, against the headers' (signal and noise), below which the place of the next
/// header holds no signal: the transmission ended there (zeros, or the receiver's noise
/// after a transmitter at more than 10 dB Es/N0 went quiet).
const SILENCE: f32 = 0.1;

/// Synchroniser settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SyncConfig {
    /// RRC roll-off of the matched filter: 0.35, 0.25 or 0.20.
    pub roll_off: f64,
    /// Gold code index n of the PL scrambler, 0..=262 141 (clause 5.5.4).
    pub gold: u32,
    /// Timing loop noise bandwidth × symbol period.
    pub timing_bandwidth: f64,
    /// Samples per symbol of the input: 2, or any rate in
    /// [`min_samples_per_symbol`](Self::min_samples_per_symbol)`..=`
    /// [`MAX_SAMPLES_PER_SYMBOL`](Self::MAX_SAMPLES_PER_SYMBOL), resampled to 2 first.
    pub samples_per_symbol: f64,
}

impl Default for SyncConfig {
    /// Roll-off 0.20, Gold code 0, timing loop bandwidth 0.001, 2 samples per symbol.
    fn default() -> Self {
        SyncConfig {
            roll_off: 0.20,
            gold: 0,
            timing_bandwidth: 0.001,
            samples_per_symbol: 2.0,
        }
    }
}

impl SyncConfig {
    /// The highest input rate, samples per symbol.
    pub const MAX_SAMPLES_PER_SYMBOL: f64 = resample::MAX_SPS;

    /// The lowest input rate, samples per symbol: `1 + roll_off + 0.05`. The signal occupies
    /// `1 + roll_off` symbol rates; the anti-alias filter needs a little more.
    pub fn min_samples_per_symbol(&self) -> f64 {
        1.0 + self.roll_off + resample::MIN_SPARE
    }

    /// Whether the input is resampled to 2 samples per symbol first (it is at another rate).
    pub fn resamples(&self) -> bool {
        self.samples_per_symbol != sizes::SPS as f64
    }

    /// Checks every setting (what [`Synchronizer::new`] does first, without building it).
    ///
    /// # Errors
    /// [`SyncError`] names the setting out of range.
    pub fn validate(&self) -> Result<(), SyncError> {
        if !(self.roll_off > 0.0 && self.roll_off <= 1.0) {
            return Err(SyncError::RollOff(self.roll_off));
        }
        if self.gold > 262_141 {
            return Err(SyncError::Gold(self.gold));
        }
        if !(self.timing_bandwidth > 0.0 && self.timing_bandwidth <= 0.1) {
            return Err(SyncError::TimingBandwidth(self.timing_bandwidth));
        }
        let (sps, min) = (self.samples_per_symbol, self.min_samples_per_symbol());
        // 2 needs no resampler; other rates need its room (`min` rounded: 1.35 + 0.05 is
        // 1.4000000000000001 in f64).
        let lowest = min - 1e-9;
        if sps != sizes::SPS as f64 && !(lowest..=SyncConfig::MAX_SAMPLES_PER_SYMBOL).contains(&sps)
        {
            return Err(SyncError::SamplesPerSymbol {
                sps,
                min,
                max: SyncConfig::MAX_SAMPLES_PER_SYMBOL,
                band: 1.0 + self.roll_off,
                roll_off: self.roll_off,
            });
        }
        Ok(())
    }
}

/// Why a [`Synchronizer`] could not be built.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SyncError {
    /// Roll-off outside (0, 1].
    #[error("roll-off {} out of range (0, 1] (DVB-S2 uses 0.35, 0.25 or 0.20)", Num(*.0))]
    RollOff(f64),
    /// Gold code index out of 0..=262 141.
    #[error("Gold code index {0} out of range 0..=262141")]
    Gold(u32),
    /// Timing loop bandwidth outside (0, 0.1].
    #[error("timing loop bandwidth {} out of range (0, 0.1] (× symbol rate)", Num(*.0))]
    TimingBandwidth(f64),
    /// Input samples per symbol not finite or outside
    /// [`SyncConfig::min_samples_per_symbol`]`..=`[`SyncConfig::MAX_SAMPLES_PER_SYMBOL`].
    #[error(
        "{} samples per symbol out of range [{min:.2}, {max}] (the lowest: the signal's \
         band at roll-off {roll_off}, {band:.2} symbol rates, and 0.05 for the resampler's \
         filter)",
        Num(*sps)
    )]
    SamplesPerSymbol {
        /// The rate given.
        sps: f64,
        /// The lowest rate for the roll-off.
        min: f64,
        /// The highest rate.
        max: f64,
        /// The signal's bandwidth, `1 + roll_off`, in symbol rates.
        band: f64,
        /// The roll-off.
        roll_off: f64,
    },
}

/// One synchronised PLFRAME.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SyncFrame<'a> {
    /// MODCOD from the PLS code.
    pub modcod: Modcod,
    /// FECFRAME size from the PLS code.
    pub frame: FrameSize,
    /// Pilots on, from the PLS code.
    pub pilots: bool,
    /// The data symbols: PL descrambled, pilots removed, unit mean energy, Nldpc/η_MOD of
    /// them.
    pub data: &'a [Complex32],
    /// The last `erased` data symbols are not in the input, which ended inside them (a
    /// recording without its transmitter's filter tail, or cut): zeros, to be decoded as
    /// erasures ([`FrameDecoder::decode_erased`](crate::rx::FrameDecoder::decode_erased)).
    /// 0 but for the last frame of an input.
    pub erased: usize,
    /// Es/N0 (dB), averaged over frames: QPSK and 8PSK from the data symbols' second and
    /// fourth moments, APSK from the known symbols (header, pilots).
    pub esn0_db: f32,
    /// Es/N0 (dB) of this frame alone, measured as for `esn0_db`.
    pub frame_esn0_db: f32,
    /// Carrier frequency offset estimate, cycles per symbol.
    pub freq_offset: f64,
    /// The carrier loop has converged (its last, finest stage runs).
    pub carrier_locked: bool,
    /// Frames delivered before this one.
    pub index: u64,
    /// Symbols out of the timing loop before this frame's first header symbol.
    pub symbol_index: u64,
}

/// Counters and state of a [`Synchronizer`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SyncStats {
    /// Frame synchronisation holds.
    pub locked: bool,
    /// Frames delivered.
    pub frames: u64,
    /// Dummy PLFRAMEs skipped.
    pub dummy_frames: u64,
    /// Frames not delivered: a PLS code that neither the next header's position nor the
    /// previous frame confirms.
    pub skipped_frames: u64,
    /// Lock acquisitions (the first one included).
    pub acquisitions: u64,
    /// Times the lock was lost.
    pub lock_losses: u64,
    /// Symbols out of the timing loop.
    pub symbols: u64,
    /// Estimated input samples per symbol.
    pub samples_per_symbol: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Search,
    /// Trying `candidates[next..]` of the window starting at `syms[base]`, strongest first.
    Confirm {
        base: usize,
        next: usize,
    },
    Locked {
        misses: u32,
    },
}

/// The first half of a [`Synchronizer`] on its own: resampling (input not at 2 samples per
/// symbol), AGC, matched RRC filter and symbol timing recovery, from complex samples to
/// symbols, for a pipeline that runs frame synchronisation
/// ([`Synchronizer::process_symbols`]) on another thread.
#[derive(Debug, Clone)]
pub struct SymbolRecovery {
    front: FrontEnd,
}

impl SymbolRecovery {
    /// The front end `cfg` describes (its input rate, roll-off and timing loop bandwidth).
    ///
    /// # Errors
    /// [`SyncError`] names the setting out of range.
    pub fn new(cfg: SyncConfig) -> Result<Self, SyncError> {
        Synchronizer::new(cfg).map(|s| SymbolRecovery { front: s.front })
    }

    /// Appends the symbols recovered from `samples` (any length; state carries over) to
    /// `symbols`: about `samples.len() / samples_per_symbol` of them.
    pub fn process(&mut self, samples: &[Complex32], symbols: &mut Vec<Complex32>) {
        for block in samples.chunks(self.front.input_block()) {
            self.front.process_block(block, symbols);
        }
    }

    /// The input has ended: appends its last symbols to `symbols` (zeros pushed through the
    /// filters and the timing loop, whose delay holds them back; then a few symbols of the
    /// filters' ringing), for [`Synchronizer::finish_symbols`].
    pub fn finish(&mut self, symbols: &mut Vec<Complex32>) {
        self.front.finish(symbols);
    }

    /// Estimated input samples per symbol.
    pub fn samples_per_symbol(&self) -> f64 {
        self.front.samples_per_symbol()
    }
}

/// The resampler of a [`SymbolRecovery`] whose input is not at 2 samples per symbol, on its
/// own (no feedback: a pipeline stage of its own before [`MatchedFilter`]).
///
/// A polyphase filter bank of 32 branches, linearly interpolated between adjacent ones for
/// an arbitrary ratio ([`radioflow_dsp::ArbResampler`]); at a rate that is a multiple of 1/16
/// sample per symbol (whole numbers, 2.5, ...) it is exactly a polyphase rational resampler.
/// Its anti-alias low-pass follows from the roll-off: it passes the signal's band plus a
/// carrier offset of up to 5 % of the symbol rate (less close to the lowest rate), and stops
/// whatever would alias onto that band at 2 samples per symbol.
#[derive(Debug, Clone)]
pub struct Resampler {
    rs: resample::Resample,
}

impl Resampler {
    /// The resampler `cfg` needs: `None` when its input is at 2 samples per symbol already.
    ///
    /// # Errors
    /// [`SyncError`] names the setting out of range.
    pub fn new(cfg: SyncConfig) -> Result<Option<Self>, SyncError> {
        Synchronizer::new(cfg).map(|s| s.front.resample.map(|rs| Resampler { rs }))
    }

    /// Input samples whose output is at most 4096 samples (one block of the
    /// [`MatchedFilter`]'s AGC): give it blocks of this size to match a [`SymbolRecovery`].
    pub fn input_block(&self) -> usize {
        self.rs.block()
    }

    /// Resamples all of `samples` (state carries over) into `out`; returns the samples
    /// written, about `samples.len() · 2 / samples_per_symbol`.
    ///
    /// # Panics
    /// If `out` is too short for them: `⌈samples.len() · 2 / samples_per_symbol⌉ + 1` always
    /// suffices.
    pub fn process(&mut self, samples: &[Complex32], out: &mut [Complex32]) -> usize {
        self.rs.process(samples, out)
    }

    /// The input has ended: resamples the zeros that push its last samples out of the filter
    /// (and as many more as [`MatchedFilter::finish`] needs) into `out`; returns the samples
    /// written, fewer than 4096.
    ///
    /// # Panics
    /// If `out` is shorter than they are (4096 samples always suffice).
    pub fn finish(&mut self, out: &mut [Complex32]) -> usize {
        self.rs.finish(out)
    }
}

/// The matched filter and block AGC of a [`SymbolRecovery`] on their own (no feedback: a
/// pipeline stage of its own before [`TimingRecovery`]), on samples at 2 samples per symbol
/// (after the [`Resampler`], if any).
#[derive(Debug, Clone)]
pub struct MatchedFilter {
    mf: front_end::MatchedFilter,
}

impl MatchedFilter {
    /// The filter `cfg` describes (its roll-off).
    ///
    /// # Errors
    /// [`SyncError`] names the setting out of range.
    pub fn new(cfg: SyncConfig) -> Result<Self, SyncError> {
        Synchronizer::new(cfg).map(|s| MatchedFilter { mf: s.front.mf })
    }

    /// Filters `samples` into `out` (the same length), blocks of 4096 samples with a
    /// gain per block as [`SymbolRecovery::process`] does.
    pub fn process(&mut self, samples: &[Complex32], out: &mut [Complex32]) {
        assert_eq!(samples.len(), out.len(), "one filtered sample per sample");
        for (block, y) in samples.chunks(BLOCK).zip(out.chunks_mut(BLOCK)) {
            self.mf.process_block(block, y, true);
        }
    }

    /// Zeros to [`finish`](Self::finish) with after the end of an input at 2 samples per
    /// symbol (no [`Resampler`]): the filter's and the timing loop's delay, and a few symbols
    /// more (a frame whose last symbols the recording lacks, as when the transmitter's filter
    /// did not write its tail, is still delivered).
    pub const FLUSH: usize = FLUSH_SYMBOLS * sizes::SPS;

    /// Filters `samples`, what follows the end of the input ([`FLUSH`](Self::FLUSH) zeros,
    /// or what [`Resampler::finish`] wrote), into `out` (the same length) at the gain of the
    /// blocks before: the AGC does not follow the filter's decaying tail.
    pub fn finish(&mut self, samples: &[Complex32], out: &mut [Complex32]) {
        assert_eq!(samples.len(), out.len(), "one filtered sample per sample");
        for (block, y) in samples.chunks(BLOCK).zip(out.chunks_mut(BLOCK)) {
            self.mf.process_block(block, y, false);
        }
    }
}

/// The Gardner timing loop of a [`SymbolRecovery`] on its own, on [`MatchedFilter`] output.
#[derive(Debug, Clone)]
pub struct TimingRecovery {
    timing: timing::Gardner,
}

impl TimingRecovery {
    /// The loop `cfg` describes (its bandwidth).
    ///
    /// # Errors
    /// [`SyncError`] names the setting out of range.
    pub fn new(cfg: SyncConfig) -> Result<Self, SyncError> {
        Synchronizer::new(cfg).map(|s| TimingRecovery {
            timing: s.front.timing,
        })
    }

    /// Appends the symbols recovered from `filtered` (any length; state carries over).
    pub fn process(&mut self, filtered: &[Complex32], symbols: &mut Vec<Complex32>) {
        self.timing
            .input_space(filtered.len())
            .copy_from_slice(filtered);
        self.timing.run(symbols);
    }

    /// Estimated samples per symbol of its input (nominally 2: after the [`Resampler`]).
    pub fn samples_per_symbol(&self) -> f64 {
        self.timing.samples_per_symbol()
    }
}

/// DVB-S2 receiver synchronisation: complex samples in (at the rate
/// [`SyncConfig::samples_per_symbol`] says), one [`SyncFrame`] per PLFRAME out.
#[derive(Debug, Clone)]
pub struct Synchronizer {
    front: FrontEnd,
    header: HeaderRef,
    /// R_n of the PL scrambler for each symbol after the header (clause 5.5.4).
    scr: Vec<u8>,
    /// Symbols out of the front end; the next to look at is `syms[start]`.
    syms: Vec<Complex32>,
    /// Symbols dropped from the front of `syms` so far.
    dropped: u64,
    start: usize,
    state: State,
    carrier: Carrier,
    /// MODCODs 1..=28 and their decision makers, indexed by MODCOD number − 1.
    modcods: Vec<(Modcod, Decider)>,
    /// Acquisition candidates: position (in `syms`), frequency, its uncertainty, metric.
    candidates: Vec<(usize, f64, f64, f32)>,
    /// Mean symbol power, for the detection metric.
    power: f32,
    /// The PLS of the last frame tracked.
    last_pls: Option<Pls>,
    /// The current frame's PLHEADER.
    hdr_syms: [Complex32; SLOT],
    data: Vec<Complex32>,
    stats: SyncStats,
    /// Once the input has ended: the stream index of the first symbol not wholly from it
    /// (made by the zeros [`finish`](Self::finish) pushes through the filters).
    input_end: Option<u64>,
}

impl Synchronizer {
    /// Builds a synchroniser (the allocations it will need are made here).
    ///
    /// # Errors
    /// [`SyncError`] names the setting out of range.
    pub fn new(cfg: SyncConfig) -> Result<Self, SyncError> {
        cfg.validate()?;
        let scr = scrambling_sequence(cfg.gold);
        let modcods = Modcod::all().map(|m| (m, Decider::new(m))).collect();
        Ok(Synchronizer {
            front: FrontEnd::new(cfg.roll_off, cfg.timing_bandwidth, cfg.samples_per_symbol),
            header: HeaderRef::new(),
            scr,
            syms: Vec::with_capacity(4 * MAX_FRAME + 2 * BLOCK),
            dropped: 0,
            start: 0,
            state: State::Search,
            carrier: Carrier::new(0.0, 0.0),
            modcods,
            candidates: Vec::with_capacity(CANDIDATES + 1),
            power: 1.0,
            last_pls: None,
            hdr_syms: [Complex32::new(0.0, 0.0); SLOT],
            data: Vec::with_capacity(64_800 / 2),
            stats: SyncStats::default(),
            input_end: None,
        })
    }

    /// Counters and lock state.
    pub fn stats(&self) -> SyncStats {
        SyncStats {
            samples_per_symbol: self.front.samples_per_symbol(),
            ..self.stats
        }
    }

    /// Processes `input` (any length; state carries over between calls) and calls `sink`
    /// with each PLFRAME completed, in order. A frame is delivered once the next frame's
    /// header has arrived, or the input has ended ([`finish`](Self::finish)).
    pub fn process(&mut self, input: &[Complex32], mut sink: impl FnMut(&SyncFrame<'_>)) {
        for block in input.chunks(self.front.input_block()) {
            self.compact();
            let before = self.syms.len();
            self.front.process_block(block, &mut self.syms);
            self.stats.symbols += (self.syms.len() - before) as u64;
            self.frames(&mut sink);
        }
    }

    /// The input has ended: brings its last symbols out of the front end's filters and
    /// delivers the frames they complete, the last one without the next header that
    /// [`process`](Self::process) waits for (its header was where the frame before put it, so
    /// its PLS code decoded well or repeating the previous one suffices; its phase comes from
    /// its own known symbols). A frame cut short by the end of the input is not delivered,
    /// unless only its last few symbols are missing (a transmitter that did not write its
    /// pulse-shaping filter's tail). Call it once, after the last input.
    pub fn finish(&mut self, mut sink: impl FnMut(&SyncFrame<'_>)) {
        self.compact();
        self.input_end = Some(self.dropped + self.syms.len() as u64);
        let before = self.syms.len();
        self.front.finish(&mut self.syms);
        self.stats.symbols += (self.syms.len() - before) as u64;
        self.frames(&mut sink);
        self.last_frame(&mut sink);
    }

    /// [`finish`](Self::finish) for frame synchronisation alone
    /// ([`process_symbols`](Self::process_symbols)): `symbols` are the last ones, those
    /// [`SymbolRecovery::finish`] (or [`MatchedFilter::finish`] then
    /// [`TimingRecovery::process`]) made.
    pub fn finish_symbols(&mut self, symbols: &[Complex32], mut sink: impl FnMut(&SyncFrame<'_>)) {
        self.input_end = Some(self.dropped + self.syms.len() as u64);
        self.process_symbols(symbols, &mut sink);
        self.last_frame(&mut sink);
    }

    /// Drops the symbols before `start` once they are many (not while confirming an
    /// acquisition, which goes back to its window's start).
    fn compact(&mut self) {
        if self.start > 2 * MAX_FRAME && !matches!(self.state, State::Confirm { .. }) {
            self.syms.drain(..self.start);
            self.dropped += self.start as u64;
            self.start = 0;
        }
    }

    /// Frame synchronisation alone, on symbols a [`SymbolRecovery`] made (the two halves of
    /// [`process`](Self::process) on two threads). This synchroniser's own front end is not
    /// used: [`SyncStats::samples_per_symbol`] is then the [`SymbolRecovery`]'s to read.
    pub fn process_symbols(&mut self, symbols: &[Complex32], mut sink: impl FnMut(&SyncFrame<'_>)) {
        for chunk in symbols.chunks(BLOCK / sizes::SPS) {
            self.compact();
            self.syms.extend_from_slice(chunk);
            self.stats.symbols += chunk.len() as u64;
            self.frames(&mut sink);
        }
    }

    /// Frame synchronisation over the buffered symbols.
    fn frames(&mut self, sink: &mut impl FnMut(&SyncFrame<'_>)) {
        loop {
            let progressed = match self.state {
                State::Search => self.search(),
                State::Confirm { base, next } => self.confirm(base, next),
                State::Locked { misses } => self.track(misses, sink),
            };
            if !progressed {
                return;
            }
        }
    }

    /// Length in symbols of the PLFRAME a PLS announces, if the standard defines it.
    fn frame_len(&self, pls: Pls) -> Option<usize> {
        if pls.modcod == 0 {
            return Some(SLOT + DUMMY_SLOTS * SLOT);
        }
        let (m, _) = self.modcods.get(usize::from(pls.modcod) - 1)?;
        let frame = if pls.short {
            FrameSize::Short
        } else {
            FrameSize::Normal
        };
        if frame == FrameSize::Short && m.rate() == CodeRate::R9_10 {
            return None;
        }
        let slots = frame.nldpc() / m.constellation().bits_per_symbol() / SLOT;
        Some(plframe_len(slots, pls.pilots))
    }

    /// Decodes the header at `y[0]` whose frequency offset is `freq` ± `span` (cycles/symbol):
    /// the best PLS correlation over a grid of offsets, fine enough that the phase drifts by
    /// less than π/4 from the SOF to the end of the PLS code.
    /// Returns the PLS and its quality (correlation over Σ|soft bits|).
    fn decode_at(&self, y: &[Complex32], freq: f64, span: f64) -> (Pls, f32) {
        const STEP: f64 = 1.0 / (8.0 * 77.0);
        let k = (span / STEP).ceil() as i32;
        let mut best = (
            f32::MIN,
            Pls {
                modcod: 0,
                short: false,
                pilots: false,
            },
            0.0,
        );
        for i in -k..=k {
            let f = freq + f64::from(i) * STEP;
            let mut z = [Complex32::new(0.0, 0.0); SLOT];
            let step = Complex32::from_polar(1.0, (-TAU * f) as f32);
            let mut w = Complex32::new(1.0, 0.0);
            for (o, &s) in z.iter_mut().zip(&y[..SLOT]) {
                *o = s * w;
                w *= step;
            }
            let (pls, corr, quality) = self.header.decode(&z);
            if corr > best.0 {
                best = (corr, pls, quality);
            }
        }
        (best.1, best.2)
    }

    /// The best normalized header metric at `y[pos − 1 ..= pos + 1]`, and its position.
    fn metric_near(&self, y: &[Complex32], pos: usize) -> (f32, usize) {
        let mut best = (f32::MIN, pos);
        for p in pos.saturating_sub(1)..=pos + 1 {
            let m = self.header.metric(&y[p..]).0 / (TERMS as f32 * self.power);
            if m > best.0 {
                best = (m, p);
            }
        }
        best
    }

    /// Acquisition: the header positions above the threshold over one longest-frame window, to be
    /// confirmed by [`confirm`](Self::confirm). Returns whether it made progress.
    fn search(&mut self) -> bool {
        let window = MAX_FRAME + SLOT;
        // Skip the timing loop's convergence: the first headers would bias the carrier loop.
        let skip = WARMUP.saturating_sub(self.dropped as usize + self.start);
        if self.syms.len() - self.start < skip + window + SLOT {
            return false;
        }
        self.start += skip;
        let avail = self.syms.len() - self.start;
        debug_assert!(avail >= window + SLOT);
        let y = &self.syms[self.start..];
        let power: f32 =
            y[..window + SLOT].iter().map(|s| s.norm_sqr()).sum::<f32>() / (window + SLOT) as f32;
        self.power = power.max(f32::MIN_POSITIVE);
        let norm = 1.0 / (TERMS as f32 * self.power);
        self.candidates.clear();
        for p in 0..window {
            let (m, c) = self.header.metric(&y[p..]);
            let m = m * norm;
            if m < THRESHOLD || self.candidates.len() == CANDIDATES {
                continue;
            }
            // The lag-1 estimate's standard deviation at the SNR the metric implies.
            let snr = f64::from(m.min(0.99) / (1.0 - m.min(0.99)));
            let sigma = ((1.0 / snr + 0.5 / (snr * snr)) / TERMS as f64).sqrt() / TAU;
            let freq = f64::from(c.arg()) / TAU;
            self.candidates
                .push((self.start + p, freq, (3.0 * sigma).clamp(0.005, 0.1), m));
        }
        // First the candidates close to the strongest, earliest first (at high SNR these are
        // the headers: lock on the first), then the others, strongest first.
        let best = self.candidates.iter().map(|c| c.3).fold(0.0, f32::max);
        let tier = |m: f32| m >= 0.7 * best;
        self.candidates
            .sort_unstable_by(|a, b| match (tier(a.3), tier(b.3)) {
                (true, true) => a.0.cmp(&b.0),
                (false, false) => b.3.total_cmp(&a.3),
                (ta, tb) => tb.cmp(&ta),
            });
        self.state = State::Confirm {
            base: self.start,
            next: 0,
        };
        true
    }

    /// Confirms or rejects candidate `next` of the window at `syms[base]`: its PLS code must be
    /// valid and the next header must be where the code puts it.
    fn confirm(&mut self, base: usize, next: usize) -> bool {
        let Some(&(pos, freq, span, _)) = self.candidates.get(next) else {
            self.start = base + MAX_FRAME + SLOT;
            self.state = State::Search;
            return true;
        };
        let y = &self.syms[pos..];
        let mut at = 0;
        let mut sum = self.candidates[next].3;
        // A strong candidate (Es/N0 above ~3.7 dB) needs one confirmation.
        let (count, mean) = if sum >= STRONG {
            (1, STRONG)
        } else {
            (CONFIRMATIONS, CONFIRM_MEAN)
        };
        let mut confirmed = true;
        for _ in 0..count {
            let (pls, quality) = self.decode_at(&y[at..], freq, span);
            if quality < PLS_QUALITY {
                confirmed = false;
                break;
            }
            let Some(len) = self.frame_len(pls) else {
                confirmed = false;
                break;
            };
            if y.len() < at + len + SLOT + 2 {
                return false;
            }
            // At the exact position: the timing loop does not slip symbols while acquiring.
            let m = self.header.metric(&y[at + len..]).0 / (TERMS as f32 * self.power);
            sum += m;
            if m < CONFIRM_MIN {
                confirmed = false;
                break;
            }
            at += len;
        }
        let confirmed = confirmed && sum >= mean * (count + 1) as f32;
        if confirmed {
            self.start = pos;
            self.carrier.reset(freq, span / 3.0);
            self.last_pls = None;
            self.state = State::Locked { misses: 0 };
            self.stats.acquisitions += 1;
            self.stats.locked = true;
        } else {
            self.state = State::Confirm {
                base,
                next: next + 1,
            };
        }
        true
    }

    /// Tracking: the frame at `syms[start]`. Returns whether it consumed symbols.
    fn track(&mut self, misses: u32, sink: &mut impl FnMut(&SyncFrame<'_>)) -> bool {
        let y = &self.syms[self.start..];
        if y.len() < SLOT {
            return false;
        }
        let (decoded, quality) = self.decode_at(y, self.carrier.freq(), self.carrier.uncertainty());
        // The decoded PLS if it decoded well and the next header is where it says; else the
        // previous frame's (a decoding error near the threshold, CCM).
        let mut choice: Option<(Pls, usize, f32, usize)> = None;
        for (k, pls) in [Some(decoded), self.last_pls].into_iter().enumerate() {
            let Some(pls) = pls else { continue };
            if choice.is_some_and(|c| c.0 == pls) {
                continue;
            }
            let Some(len) = self.frame_len(pls) else {
                continue;
            };
            if y.len() < len + SLOT + 2 {
                return false;
            }
            let (m, next) = self.metric_near(y, len);
            let good = m >= THRESHOLD && (k > 0 || quality >= PLS_QUALITY);
            // Neither confirmed: the previous frame's PLS (a prior that is right in CCM).
            if good || choice.is_none() || k > 0 {
                choice = Some((pls, len, m, next));
            }
            if good {
                break;
            }
        }
        let Some((mut pls, mut len, mut m, mut next)) = choice else {
            self.lose_lock();
            self.start += 1;
            return true;
        };
        // The signal ends with this frame (silence where its next header would be): its own
        // PLS, decoded well, rather than the previous frame's (VCM), as at the end of the
        // input ([`last_frame`](Self::last_frame)).
        let ended = m < THRESHOLD
            && pls != decoded
            && quality >= PLS_QUALITY
            && self.frame_len(decoded).is_some_and(|l| {
                let p: f32 = y[l..l + SLOT].iter().map(|s| s.norm_sqr()).sum::<f32>();
                p < SILENCE * self.power * SLOT as f32
            });
        if ended {
            pls = decoded;
            len = self.frame_len(decoded).unwrap_or(len);
            (m, next) = self.metric_near(y, len);
        }
        // A frame is delivered when the next header confirms its length, or when its own header
        // was where the previous one said and it repeats that PLS (or the signal ends after
        // it); otherwise it is skipped.
        let trusted = m >= THRESHOLD || (misses == 0 && (self.last_pls == Some(pls) || ended));
        self.last_pls = Some(pls);
        let hp: f32 = y[..SLOT].iter().map(|s| s.norm_sqr()).sum::<f32>() / SLOT as f32;
        self.power += 0.1 * (hp - self.power);
        let misses = if m < THRESHOLD { misses + 1 } else { 0 };
        // The next SOF is a known block for the carrier only where a header shows: after the
        // last frame of a transmission (zeros, noise) it would pull the phase anywhere.
        self.deliver(pls, len, trusted, m >= CONFIRM_MIN, sink);
        self.start += next;
        if misses >= MAX_MISSES {
            self.lose_lock();
        } else {
            self.state = State::Locked { misses };
        }
        true
    }

    /// The input has ended with the frame at `syms[start]` (tracked, but its next header
    /// never came): delivers it if its header was where the frame before put it and it is
    /// whole (see [`finish`](Self::finish)).
    fn last_frame(&mut self, sink: &mut impl FnMut(&SyncFrame<'_>)) {
        let State::Locked { misses } = self.state else {
            return;
        };
        let y = &self.syms[self.start..];
        if y.len() < SLOT {
            return;
        }
        let (decoded, quality) = self.decode_at(y, self.carrier.freq(), self.carrier.uncertainty());
        // The decoded PLS if it decoded well, else the previous frame's (as `track` does).
        let pls = match self.last_pls {
            Some(last) if quality < PLS_QUALITY => last,
            _ => decoded,
        };
        let Some(len) = self.frame_len(pls) else {
            return;
        };
        if y.len() < len {
            // Cut short by the end of the input.
            return;
        }
        let trusted = misses == 0 && (quality >= PLS_QUALITY || self.last_pls == Some(pls));
        self.last_pls = Some(pls);
        self.deliver(pls, len, trusted, false, sink);
        self.start += len;
    }

    /// Delivers the frame of `len` symbols at `syms[start]` whose PLS is `pls` (or counts it
    /// as a dummy frame, or as skipped when not `trusted`); `next_sof`: the next header's
    /// SOF follows and is a known block.
    fn deliver(
        &mut self,
        pls: Pls,
        len: usize,
        trusted: bool,
        next_sof: bool,
        sink: &mut impl FnMut(&SyncFrame<'_>),
    ) {
        if pls.modcod == 0 {
            self.stats.dummy_frames += 1;
        } else if !trusted {
            self.stats.skipped_frames += 1;
        } else {
            // Symbols the filters made from the zeros after the input (it ended inside the
            // frame's last symbols) have no information of their own: zeros for the carrier
            // (whose smoother would otherwise bend the whole frame's phase towards their
            // ringing) and erasures for the decoder.
            let at = self.dropped + self.start as u64;
            let known = self
                .input_end
                .map_or(len, |end| (end.saturating_sub(at) as usize).min(len));
            self.syms[self.start + known..self.start + len].fill(Complex32::new(0.0, 0.0));
            let y = &self.syms[self.start..];
            plheader(pls.modcod, pls.short, pls.pilots, &mut self.hdr_syms);
            let (modcod, decider) = &self.modcods[usize::from(pls.modcod) - 1];
            let est = self.carrier.process(
                y,
                self.dropped + self.start as u64,
                Layout {
                    len,
                    pilots: pls.pilots,
                    next_sof,
                },
                &self.hdr_syms,
                &self.scr,
                decider,
                &mut self.data,
            );
            let erased = self
                .data
                .len()
                .saturating_sub(data_symbols_before(known, pls.pilots));
            let kept = self.data.len() - erased;
            self.data[kept..].fill(Complex32::new(0.0, 0.0));
            let db = |x: f32| 10.0 * x.max(1e-12).log10();
            let frame = SyncFrame {
                modcod: *modcod,
                frame: if pls.short {
                    FrameSize::Short
                } else {
                    FrameSize::Normal
                },
                pilots: pls.pilots,
                data: &self.data,
                erased,
                esn0_db: db(self.carrier.snr()),
                frame_esn0_db: db(est.snr),
                freq_offset: est.freq,
                carrier_locked: est.locked,
                index: self.stats.frames,
                symbol_index: self.dropped + self.start as u64,
            };
            sink(&frame);
            self.stats.frames += 1;
        }
    }

    fn lose_lock(&mut self) {
        self.state = State::Search;
        self.stats.locked = false;
        self.stats.lock_losses += 1;
    }
}

/// Data symbols among the first `n` symbols of a PLFRAME (header, then 16 slots of data
/// and a pilot block by turns with `pilots`).
fn data_symbols_before(n: usize, pilots: bool) -> usize {
    let q = n.saturating_sub(SLOT);
    if !pilots {
        return q;
    }
    let period = PILOT_PERIOD + PILOT_BLOCK;
    q / period * PILOT_PERIOD + (q % period).min(PILOT_PERIOD)
}
