//! One PLFRAME's data symbols to a descrambled BBFRAME: demapping, deinterleaving, LDPC,
//! BCH, BB descrambling and BBHEADER check.

use std::sync::Arc;
use std::time::{Duration, Instant};

use num_complex::Complex32;
use thiserror::Error;

use super::bbheader::{BbDescrambler, BbHeader, BbHeaderError};
use super::bch_decoder::{BchDecoder, BchFailure};
use super::demap::Demapper;
use super::gf::Gf;
use super::ldpc_code::LdpcCode;
use super::ldpc_decoder::{LdpcDecoder, LdpcStatus};
use super::ldpc_inter_frame::InterFrameLdpcDecoder;
use super::quantize::{llr_target_mean, quantize_llrs};
use crate::modcod::{CodeRate, FecParams, FrameSize, Modcod, ModcodError};

/// Iterations allowed per frame unless [`FrameDecoder::set_max_iterations`] says otherwise.
pub const DEFAULT_MAX_ITERATIONS: u32 = 30;

/// Why a frame could not be decoded at all (a failed decoding is a [`FrameStatus`] instead).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RxError {
    /// The MODCOD does not exist in this frame size (9/10 short).
    #[error(transparent)]
    Modcod(#[from] ModcodError),
    /// The symbol slice does not hold one FECFRAME.
    #[error("{modcod} {frame:?} frames have {need} data symbols, got {got}")]
    SymbolCount {
        /// MODCOD of the frame.
        modcod: Modcod,
        /// Frame size.
        frame: FrameSize,
        /// Nldpc / bits per symbol.
        need: usize,
        /// Length given.
        got: usize,
    },
    /// The noise variance is not a positive finite number.
    #[error("noise variance must be positive and finite, got {0}")]
    NoiseVariance(f32),
    /// More symbols erased than the frame has.
    #[error("{erased} data symbols erased of the frame's {symbols}")]
    Erased {
        /// Symbols erased, as given.
        erased: usize,
        /// The frame's data symbols.
        symbols: usize,
    },
}

/// What decoding one frame gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameStatus {
    /// The frame's MODCOD.
    pub modcod: Modcod,
    /// Its FECFRAME size.
    pub frame: FrameSize,
    /// LDPC iterations and convergence.
    pub ldpc: LdpcStatus,
    /// Bits the BCH decoder corrected, or its failure.
    pub bch: Result<usize, BchFailure>,
    /// The BBHEADER, or why it was rejected.
    pub header: Result<BbHeader, BbHeaderError>,
}

impl FrameStatus {
    /// BCH decoded and the BBHEADER checked.
    pub fn ok(&self) -> bool {
        self.bch.is_ok() && self.header.is_ok()
    }

    /// Information bits of the frame (Kbch).
    pub fn info_bits(&self) -> usize {
        self.modcod.fec(self.frame).map_or(0, |f| f.kbch)
    }
}

/// The stages of [`FrameDecoder::decode`], in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Soft demapping and deinterleaving.
    Demap,
    /// LLRs to i8.
    Quantize,
    /// LDPC decoding (and packing the decisions).
    Ldpc,
    /// BCH decoding.
    Bch,
    /// BB descrambling and BBHEADER check.
    Descramble,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 5] = [
        Stage::Demap,
        Stage::Quantize,
        Stage::Ldpc,
        Stage::Bch,
        Stage::Descramble,
    ];

    /// A short name for tables.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Demap => "demap + deinterleave",
            Stage::Quantize => "quantize LLRs",
            Stage::Ldpc => "LDPC decode",
            Stage::Bch => "BCH decode",
            Stage::Descramble => "BB descramble + BBHEADER",
        }
    }
}

/// Time spent per [`Stage`] over the frames given to [`FrameDecoder::decode_profiled`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StageProfile {
    /// Total time per stage, indexed by `Stage as usize`.
    pub time: [Duration; 5],
    /// Frames decoded.
    pub frames: u64,
    /// Information bits (Kbch) of those frames.
    pub info_bits: u64,
}

impl StageProfile {
    /// Per stage, as in Table 3 of Cassagne et al. 2023: throughput normalized to information bits
    /// (Mb/s), latency per frame (µs) and share of the total time (%).
    pub fn rows(&self) -> impl Iterator<Item = (Stage, f64, f64, f64)> + '_ {
        let total: f64 = self.time.iter().map(Duration::as_secs_f64).sum();
        Stage::ALL.into_iter().map(move |stage| {
            let t = self.time[stage as usize].as_secs_f64();
            let mbps = if t > 0.0 {
                self.info_bits as f64 / t / 1e6
            } else {
                f64::INFINITY
            };
            let latency = t / self.frames.max(1) as f64 * 1e6;
            let share = if total > 0.0 { t / total * 100.0 } else { 0.0 };
            (stage, mbps, latency, share)
        })
    }
}

/// The per-code tables every clone shares.
struct Codes {
    /// LDPC structure and BCH decoder per (frame size, code rate), normal first.
    fec: Vec<Option<(LdpcCode, BchDecoder)>>,
    /// Demappers by PLS MODCOD number − 1.
    demappers: Vec<Demapper>,
    descrambler: BbDescrambler,
}

fn fec_index(frame: FrameSize, rate: CodeRate) -> usize {
    let f = usize::from(frame == FrameSize::Short);
    f * CodeRate::ALL.len() + CodeRate::ALL.iter().position(|&r| r == rate).unwrap_or(0)
}

/// What [`FrameDecoder::decode_batch`] keeps: the inter-frame LDPC decoder, the quantized
/// LLRs and the BBFRAMEs of a batch.
#[derive(Clone)]
struct Batch {
    ldpc: InterFrameLdpcDecoder,
    /// Frame f's LLRs at `f * 64_800`.
    quantized: Vec<i8>,
    /// Frame f's BBFRAME at `f * BBFRAME_STRIDE`.
    bbframes: Vec<u8>,
    /// Frames of the last batch.
    frames: usize,
    /// Bytes of each BBFRAME of the last batch (Kbch / 8).
    bbframe_len: usize,
}

/// Bytes per BBFRAME in [`Batch::bbframes`]: the largest Nbch / 8.
const BBFRAME_STRIDE: usize = 64_800 / 8;

/// Decodes PLFRAMEs one at a time, each with its own MODCOD and frame size (CCM, VCM or
/// ACM alike), or in batches of one MODCOD for throughput
/// ([`decode_batch`](Self::decode_batch)). Stateless between frames, so clones can decode
/// frames in parallel; the tables of every code are built by [`new`](Self::new) and shared
/// by clones, each clone has its own scratch: no allocation per frame.
#[derive(Clone)]
pub struct FrameDecoder {
    codes: Arc<Codes>,
    ldpc: LdpcDecoder,
    /// Scratch of [`decode_batch`](Self::decode_batch), made by its first call.
    batch: Option<Box<Batch>>,
    fec_llr: Vec<f32>,
    quantized: Vec<i8>,
    bbframe: Vec<u8>,
    /// Bytes of `bbframe` of the last frame (Kbch / 8).
    bbframe_len: usize,
    max_iterations: u32,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameDecoder {
    /// Builds the tables of all 21 LDPC and BCH codes and 28 constellations.
    pub fn new() -> Self {
        let gf_normal = Arc::new(Gf::for_frame(FrameSize::Normal));
        let gf_short = Arc::new(Gf::for_frame(FrameSize::Short));
        let mut fec = Vec::new();
        for frame in [FrameSize::Normal, FrameSize::Short] {
            for rate in CodeRate::ALL {
                let gf = match frame {
                    FrameSize::Normal => &gf_normal,
                    FrameSize::Short => &gf_short,
                };
                fec.push(LdpcCode::new(frame, rate).ok().map(|code| {
                    let bch = BchDecoder::with_field(code.fec(), Arc::clone(gf));
                    (code, bch)
                }));
            }
        }
        let codes = Codes {
            fec,
            demappers: Modcod::all().map(Demapper::new).collect(),
            descrambler: BbDescrambler::new(),
        };
        FrameDecoder {
            codes: Arc::new(codes),
            ldpc: LdpcDecoder::new(),
            batch: None,
            fec_llr: vec![0.0; 64_800],
            quantized: vec![0; 64_800],
            bbframe: vec![0; 64_800 / 8],
            bbframe_len: 0,
            max_iterations: DEFAULT_MAX_ITERATIONS,
        }
    }

    /// LDPC iterations allowed per frame (at least 1).
    pub fn set_max_iterations(&mut self, n: u32) {
        self.max_iterations = n.max(1);
    }

    /// The LDPC decoder (to choose its instruction set, for instance).
    pub fn ldpc_mut(&mut self) -> &mut LdpcDecoder {
        &mut self.ldpc
    }

    /// Data symbols of one PLFRAME: Nldpc / bits per symbol.
    ///
    /// # Errors
    /// [`RxError::Modcod`] for 9/10 short.
    pub fn symbols_per_frame(modcod: Modcod, frame: FrameSize) -> Result<usize, RxError> {
        let fec: FecParams = modcod.fec(frame)?;
        Ok(fec.nldpc / modcod.constellation().bits_per_symbol())
    }

    /// Decodes one frame's data symbols (PL-descrambled, pilots removed, unit mean energy)
    /// with complex noise variance `n0` (E|n|²); the BBFRAME is then in
    /// [`bbframe`](Self::bbframe), even when decoding failed.
    ///
    /// # Errors
    /// [`RxError`] for an undefined MODCOD, a wrong symbol count or a bad `n0`; decoding
    /// failures are reported in the [`FrameStatus`].
    pub fn decode(
        &mut self,
        symbols: &[Complex32],
        modcod: Modcod,
        frame: FrameSize,
        n0: f32,
    ) -> Result<FrameStatus, RxError> {
        self.decode_with(symbols, 0, modcod, frame, n0, &mut |_| {})
    }

    /// [`decode`](Self::decode) for a frame whose last `erased` data symbols are unknown
    /// (the input ended inside them: [`SyncFrame::erased`](crate::rx::sync::SyncFrame::erased)):
    /// their bits enter the LDPC decoder with no information either way.
    ///
    /// # Errors
    /// As [`decode`](Self::decode), and [`RxError::Erased`] if `erased` exceeds the symbols.
    pub fn decode_erased(
        &mut self,
        symbols: &[Complex32],
        erased: usize,
        modcod: Modcod,
        frame: FrameSize,
        n0: f32,
    ) -> Result<FrameStatus, RxError> {
        self.decode_with(symbols, erased, modcod, frame, n0, &mut |_| {})
    }

    /// [`decode`](Self::decode), adding the time of each stage to `profile` (a clock read
    /// between stages).
    ///
    /// # Errors
    /// As [`decode`](Self::decode).
    pub fn decode_profiled(
        &mut self,
        symbols: &[Complex32],
        modcod: Modcod,
        frame: FrameSize,
        n0: f32,
        profile: &mut StageProfile,
    ) -> Result<FrameStatus, RxError> {
        self.decode_erased_profiled(symbols, 0, modcod, frame, n0, profile)
    }

    /// [`decode_erased`](Self::decode_erased) timed as
    /// [`decode_profiled`](Self::decode_profiled) is.
    pub(crate) fn decode_erased_profiled(
        &mut self,
        symbols: &[Complex32],
        erased: usize,
        modcod: Modcod,
        frame: FrameSize,
        n0: f32,
        profile: &mut StageProfile,
    ) -> Result<FrameStatus, RxError> {
        let mut last = Instant::now();
        let status = self.decode_with(symbols, erased, modcod, frame, n0, &mut |stage| {
            let now = Instant::now();
            profile.time[stage as usize] += now - last;
            last = now;
        })?;
        profile.frames += 1;
        profile.info_bits += status.info_bits() as u64;
        Ok(status)
    }

    /// A frame's input as `decode` and `decode_batch` take it: the MODCOD's symbol count and
    /// a finite, positive noise variance.
    fn check_frame(
        symbols: &[Complex32],
        n0: f32,
        modcod: Modcod,
        frame: FrameSize,
    ) -> Result<(), RxError> {
        let need = Self::symbols_per_frame(modcod, frame)?;
        if symbols.len() != need {
            return Err(RxError::SymbolCount {
                modcod,
                frame,
                need,
                got: symbols.len(),
            });
        }
        if !(n0.is_finite() && n0 > 0.0) {
            return Err(RxError::NoiseVariance(n0));
        }
        Ok(())
    }

    /// The decoding of a frame whose last `erased` symbols are unknown, calling `done` after
    /// each stage.
    fn decode_with(
        &mut self,
        symbols: &[Complex32],
        erased: usize,
        modcod: Modcod,
        frame: FrameSize,
        n0: f32,
        done: &mut impl FnMut(Stage),
    ) -> Result<FrameStatus, RxError> {
        Self::check_frame(symbols, n0, modcod, frame)?;
        if erased > symbols.len() {
            return Err(RxError::Erased {
                erased,
                symbols: symbols.len(),
            });
        }
        let codes = &*self.codes;
        let Some((code, bch)) = &codes.fec[fec_index(frame, modcod.rate())] else {
            return Err(ModcodError::UndefinedForShortFrame(modcod.rate()).into());
        };
        let fec = *code.fec();
        let n = fec.nldpc;
        let demapper = &codes.demappers[usize::from(modcod.pls_modcod()) - 1];
        demapper.demap_fec(modcod, symbols, n0, &mut self.fec_llr[..n]);
        // Label bit c of symbol j is FECFRAME bit col(c)·rows + j (QPSK: 2j + c): the
        // erased symbols' bits are the last `erased` of each column.
        let bps = modcod.constellation().bits_per_symbol();
        if erased > 0 && bps == 2 {
            self.fec_llr[n - 2 * erased..n].fill(0.0);
        } else if erased > 0 {
            let rows = n / bps;
            for column in self.fec_llr[..n].chunks_exact_mut(rows) {
                column[rows - erased..].fill(0.0);
            }
        }
        done(Stage::Demap);
        quantize_llrs(
            &self.fec_llr[..n],
            &mut self.quantized[..n],
            llr_target_mean(modcod.rate()),
        );
        done(Stage::Quantize);
        let ldpc = self
            .ldpc
            .decode(code, &self.quantized[..n], self.max_iterations);
        let bytes = &mut self.bbframe[..fec.nbch / 8];
        self.ldpc.pack_info(code, bytes);
        done(Stage::Ldpc);
        let bch_result = bch.decode(bytes);
        done(Stage::Bch);
        let bb = &mut self.bbframe[..fec.kbch / 8];
        codes.descrambler.apply(bb);
        self.bbframe_len = fec.kbch / 8;
        let header = BbHeader::parse(bb, fec.kbch);
        done(Stage::Descramble);
        Ok(FrameStatus {
            modcod,
            frame,
            ldpc,
            bch: bch_result,
            header,
        })
    }

    /// Frames per [`decode_batch`](Self::decode_batch).
    pub const BATCH: usize = InterFrameLdpcDecoder::LANES;

    /// Decodes up to [`BATCH`](Self::BATCH) frames of the same MODCOD and frame size
    /// together, as [`decode`](Self::decode) would decode each (same statuses, same
    /// BBFRAMEs), with the inter-frame LDPC decoder ([`InterFrameLdpcDecoder`]): more
    /// throughput, the latency of the whole batch. `symbols[f]` and `n0[f]` are frame f's;
    /// its status goes to `status[f]` and its BBFRAME is then in
    /// [`batch_bbframe(f)`](Self::batch_bbframe). The first call allocates the batch's
    /// scratch (about 16 MB), later ones nothing.
    ///
    /// # Errors
    /// As [`decode`](Self::decode), for the first frame at fault; then nothing is decoded.
    ///
    /// # Panics
    /// If there are more than [`BATCH`](Self::BATCH) frames, or `n0` or `status` has fewer
    /// entries than `symbols`.
    pub fn decode_batch(
        &mut self,
        symbols: &[&[Complex32]],
        n0: &[f32],
        modcod: Modcod,
        frame: FrameSize,
        status: &mut [FrameStatus],
    ) -> Result<(), RxError> {
        let frames = symbols.len();
        assert!(frames <= Self::BATCH && n0.len() >= frames && status.len() >= frames);
        for (s, &n0) in symbols.iter().zip(n0) {
            Self::check_frame(s, n0, modcod, frame)?;
        }
        let codes = &*self.codes;
        let Some((code, bch)) = &codes.fec[fec_index(frame, modcod.rate())] else {
            return Err(ModcodError::UndefinedForShortFrame(modcod.rate()).into());
        };
        let fec = *code.fec();
        let n = fec.nldpc;
        let demapper = &codes.demappers[usize::from(modcod.pls_modcod()) - 1];
        let batch = self.batch.get_or_insert_with(|| {
            Box::new(Batch {
                ldpc: InterFrameLdpcDecoder::with_isa(self.ldpc.isa()),
                quantized: vec![0; Self::BATCH * 64_800],
                bbframes: vec![0; Self::BATCH * BBFRAME_STRIDE],
                frames: 0,
                bbframe_len: 0,
            })
        });
        for ((s, &n0), q) in symbols
            .iter()
            .zip(n0)
            .zip(batch.quantized.chunks_exact_mut(64_800))
        {
            demapper.demap_fec(modcod, s, n0, &mut self.fec_llr[..n]);
            quantize_llrs(
                &self.fec_llr[..n],
                &mut q[..n],
                llr_target_mean(modcod.rate()),
            );
        }
        let llrs: [&[i8]; Self::BATCH] = std::array::from_fn(|f| {
            if f < frames {
                &batch.quantized[f * 64_800..][..n]
            } else {
                &[]
            }
        });
        let ldpc = batch
            .ldpc
            .decode(code, &llrs[..frames], self.max_iterations);
        for (st, &ldpc) in status.iter_mut().zip(ldpc) {
            st.ldpc = ldpc;
        }
        batch
            .ldpc
            .pack_info_all(code, &mut batch.bbframes, BBFRAME_STRIDE);
        for (st, bytes) in status[..frames]
            .iter_mut()
            .zip(batch.bbframes.chunks_exact_mut(BBFRAME_STRIDE))
        {
            let bch_result = bch.decode(&mut bytes[..fec.nbch / 8]);
            let bb = &mut bytes[..fec.kbch / 8];
            codes.descrambler.apply(bb);
            *st = FrameStatus {
                modcod,
                frame,
                ldpc: st.ldpc,
                bch: bch_result,
                header: BbHeader::parse(bb, fec.kbch),
            };
        }
        batch.frames = frames;
        batch.bbframe_len = fec.kbch / 8;
        Ok(())
    }

    /// The descrambled BBFRAME (Kbch / 8 bytes) of frame `f` of the last
    /// [`decode_batch`](Self::decode_batch).
    ///
    /// # Panics
    /// If `f` is not a frame of the last batch.
    pub fn batch_bbframe(&self, f: usize) -> &[u8] {
        let batch = self.batch.as_ref().expect("decode_batch was called");
        assert!(f < batch.frames, "frame {f} of {}", batch.frames);
        &batch.bbframes[f * BBFRAME_STRIDE..][..batch.bbframe_len]
    }

    /// The descrambled BBFRAME (BBHEADER and data field, Kbch / 8 bytes) of the last frame.
    pub fn bbframe(&self) -> &[u8] {
        &self.bbframe[..self.bbframe_len]
    }
}
