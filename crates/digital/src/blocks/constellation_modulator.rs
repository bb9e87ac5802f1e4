//! [`ConstellationModulator`]: bytes to RRC-shaped constellation symbols.

use crate::Constellation;
use radioflow_dsp::{firdes, ParamError, PfbArbResampler};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Polyphase branches and taps per branch per sample of GNU Radio's RRC filter.
const NFILTS: usize = 32;
const TAPS_PER_FILTER: usize = 11;
/// Symbols made per refill (the scratch buffer's size: nothing allocates while data flows).
const SYMBOLS: usize = 1024;

/// Modulates packed bytes (GNU Radio 3.10's `digital.generic_mod`, the GRC block
/// `digital_constellation_modulator`): the bytes' bits, most significant first, in chunks of
/// the constellation's `bits_per_symbol`; each chunk through the constellation's
/// pre-differential code where it applies one; differentially encoded (`chunk + previous`
/// modulo 2^bits) with `differential`; the constellation's point of that index; then
/// shaped and interpolated to `samples_per_symbol` by GNU Radio's polyphase arbitrary
/// resampler (32 branches) with its root-raised-cosine design
/// (`firdes.root_raised_cosine(32, 32, 1, excess_bw, 32·11·⌊sps⌋)`). With `truncate`, the
/// filter's first `⌊(11·sps² - sps)/2⌋` outputs (its delay) are dropped.
///
/// Bits left over at the end of the stream (fewer than a chunk) make no symbol, and the
/// filter's last outputs stay in it, as in GNU Radio. Tags move from a byte to the output
/// of its first symbol (GNU Radio's relative rates: `8/bits` then `sps`); those on truncated
/// outputs are dropped with them.
///
/// # Errors
/// `samples_per_symbol` below 2 (GNU Radio refuses it) or `excess_bw` outside (0, 1], naming
/// the parameter; a chunk beyond the constellation's points stops the run.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::ConstellationModulator;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0x1bu8; 100]));
/// let qpsk = "qpsk".parse()?;
/// let m = fg.add(ConstellationModulator::new(qpsk, false, 4.0, 0.35, true)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, m)?;
/// fg.connect(m, sink)?;
/// fg.run()?;
/// // 4 symbols a byte, 4 samples a symbol, less the filter's delay.
/// assert!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len() > 1400);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "constellation_modulator",
    summary = "Packed bytes to a constellation's symbols, optionally differentially encoded, shaped by GNU Radio's root-raised-cosine resampler (GNU Radio's generic_mod, the Constellation Modulator).",
    make = Self::new(constellation, differential, samples_per_symbol, excess_bw, truncate).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(
    constellation: Constellation,
    example = "qpsk",
    doc = "the constellation: bpsk, qpsk, dqpsk, 8psk, 16qam, or `calcdist ...`/`rect ...` (see radioflow_digital::Constellation)"
)]
#[param(differential: bool = true, doc = "differentially encode the chunks (modulo 2^bits_per_symbol)")]
#[param(samples_per_symbol: f64 = 2.0, doc = "output samples per symbol, at least 2")]
#[param(excess_bw: f64 = 0.35, doc = "the root-raised-cosine's roll-off, in (0, 1]")]
#[param(truncate: bool = false, doc = "drop the filter's delay from the start of the output")]
#[derive(Debug)]
pub struct ConstellationModulator {
    /// Packed bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The shaped baseband signal.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    points: Vec<Complex32>,
    /// The pre-differential code, where the constellation applies it.
    code: Option<Vec<u32>>,
    bits: u32,
    differential: bool,
    last: u32,
    /// Bits read but not yet a chunk (the newest in the low bits), and how many.
    acc: u32,
    nacc: u32,
    rate: f64,
    filter: PfbArbResampler<Complex32>,
    /// Symbols made and not yet all given to the filter: `symbols[next..made]`.
    symbols: Vec<Complex32>,
    next: usize,
    made: usize,
    /// The output room the filter needs to shape a symbol.
    room: usize,
    /// Outputs still to drop (`truncate`), and how many in all.
    skip: usize,
    truncated: u64,
}

#[block]
impl ConstellationModulator {
    /// A modulator with GNU Radio's `generic_mod` parameters.
    ///
    /// # Errors
    /// `samples_per_symbol` below 2 or `excess_bw` outside (0, 1], naming the parameter.
    pub fn new(
        constellation: Constellation,
        differential: bool,
        samples_per_symbol: f64,
        excess_bw: f64,
        truncate: bool,
    ) -> Result<Self, ParamError> {
        let sps = samples_per_symbol;
        if !(sps.is_finite() && (2.0..=1e6).contains(&sps)) {
            return Err(ParamError::new(
                "samples_per_symbol",
                format!("{sps} must be at least 2 (GNU Radio: \"sps must be >= 2\")"),
            ));
        }
        if !(excess_bw > 0.0 && excess_bw <= 1.0) {
            return Err(ParamError::new(
                "excess_bw",
                format!("{excess_bw} must be in (0, 1]"),
            ));
        }
        let bits = constellation.bits_per_symbol();
        if !(1..=16).contains(&bits) {
            return Err(ParamError::new(
                "constellation",
                format!("has {bits} bits per symbol; the modulator takes 1 to 16"),
            ));
        }
        let ntaps = NFILTS * TAPS_PER_FILTER * sps as usize;
        let taps = firdes::root_raised_cosine(NFILTS as f64, NFILTS as f64, 1.0, excess_bw, ntaps)?;
        let filter = PfbArbResampler::new(&taps, NFILTS, sps)?;
        let room = filter.rate().ceil() as usize + 1;
        let (code, apply) = constellation.pre_diff_code();
        let code = (apply && !code.is_empty()).then(|| code.to_vec());
        let skip = if truncate {
            ((TAPS_PER_FILTER as f64 * sps * sps - sps) / 2.0) as usize
        } else {
            0
        };
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(room),
            room,
            points: constellation.points().to_vec(),
            code,
            bits: bits as u32,
            differential,
            last: 0,
            acc: 0,
            nacc: 0,
            rate: f64::from(sps as f32),
            filter,
            symbols: vec![Complex32::default(); SYMBOLS],
            next: 0,
            made: 0,
            skip,
            truncated: skip as u64,
        })
    }

    /// Makes symbols from the input's bytes into the scratch buffer (which is empty).
    fn refill(&mut self) -> Result<(), BlockError> {
        let k = self.bits;
        let modulus = 1u32 << k;
        // With the bits carried from the byte before, a byte makes at most 8/k + 1 chunks.
        let per_byte = (8 / k + 1) as usize;
        let bytes = self.input.slice();
        let n = bytes.len().min(SYMBOLS / per_byte - 1);
        let from_byte = self.input.offset();
        let mut made = 0;
        for &b in &bytes[..n] {
            self.acc = (self.acc << 8) | u32::from(b);
            self.nacc += 8;
            while self.nacc >= k {
                self.nacc -= k;
                let mut chunk = (self.acc >> self.nacc) & (modulus - 1);
                if let Some(code) = &self.code {
                    chunk = code.get(chunk as usize).copied().unwrap_or(chunk) & 0xff;
                }
                if self.differential {
                    chunk = (chunk + self.last) % modulus;
                    self.last = chunk;
                }
                let Some(&p) = self.points.get(chunk as usize) else {
                    return Err(BlockError::msg(format!(
                        "symbol {chunk} is beyond the constellation's {} points",
                        self.points.len()
                    )));
                };
                self.symbols[made] = p;
                made += 1;
            }
            self.acc &= (1u32 << self.nacc) - 1;
        }
        // Tags: byte `o` is chunk `o·8/k`, output `chunk·sps`, each rounded to the nearest
        // (GNU Radio's relative rates), less the truncated outputs.
        let end = from_byte + n as u64;
        for t in self.input.tags() {
            if t.offset >= end {
                break;
            }
            let chunk = (t.offset as f64 * 8.0 / f64::from(k)).round();
            let at = (chunk * self.rate).round() as u64;
            // A tag on a truncated output goes with it, as GNU Radio's skiphead drops it.
            if let Some(at) = at.checked_sub(self.truncated) {
                let at = at.max(self.output.offset());
                self.output.add_tag_at(at, t);
            }
        }
        self.input.consume(n);
        self.next = 0;
        self.made = made;
        Ok(())
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            // The filter may hold symbols it had no room to shape yet: run it even without
            // new ones.
            let out = self.output.slice();
            if out.len() < self.room {
                // The filter makes nothing without room for one symbol's outputs.
                return Ok(WorkStatus::Continue);
            }
            let (consumed, produced) = self
                .filter
                .process(&self.symbols[self.next..self.made], out);
            self.next += consumed;
            let dropped = produced.min(self.skip);
            if dropped > 0 {
                out.copy_within(dropped..produced, 0);
                self.skip -= dropped;
            }
            self.output.produce(produced - dropped);
            if consumed > 0 || produced > 0 {
                continue;
            }
            if self.next < self.made {
                return Ok(WorkStatus::Continue);
            }
            if self.input.slice().is_empty() {
                return Ok(if self.input.is_finished() {
                    WorkStatus::Done
                } else {
                    WorkStatus::Continue
                });
            }
            self.refill()?;
        }
    }
}
