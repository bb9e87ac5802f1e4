//! GNU Radio's gr-digital on radioflow: constellations and the blocks that map, decide,
//! code differentially and scramble symbols, each computing what GNU Radio 3.10's block of
//! the same name computes.
//!
//! [`Constellation`] holds GNU Radio's kinds (BPSK, QPSK, DQPSK, 8PSK, 16QAM, rectangular
//! sectors, custom points with a symbol map, rotational symmetry and dimensionality), their
//! hard decisions and soft decisions (computed, or from a table), normalized as GNU Radio
//! normalizes them ([`Normalization`]). A block takes one as a parameter in its one-line
//! text form (`qpsk`, `calcdist points=… map=…`).
//!
//! The blocks: [`ChunksToSymbols`] (and [`ChunksToSymbolsShort`], [`ChunksToSymbolsInt`]), [`MapBytes`], [`ConstellationDecoder`],
//! [`ConstellationSoftDecoder`], [`DiffEncoder`], [`DiffDecoder`], [`BinarySlicer`],
//! [`DiffPhasor`], [`MeasEvm`] (error vector magnitude), [`Scrambler`], [`Descrambler`], [`AdditiveScrambler`] (shift register:
//! [`Lfsr`]).
//!
//! Packets: [`CrcAppend`] and [`CrcCheck`] (any CRC of 8 to 64 bits on byte PDUs),
//! [`Crc32Async`] (CRC-32 on PDUs) and [`Crc32Stream`] (CRC-32 on tagged streams);
//! GNU Radio's header formats ([`HeaderFormat`]: default, counter, crc, ofdm) made by
//! [`ProtocolFormatterAsync`] (PDUs) and [`ProtocolFormatter`] (tagged streams) and found by
//! [`ProtocolParser`] ([`HeaderParser`]); [`PacketHeaderGenerator`] (GNU Radio's
//! packet_headergenerator_bb).
//!
//! Synchronization: [`PfbClockSync`] and [`SymbolSync`] (symbol timing), [`CostasLoop`] (carrier phase),
//! [`FllBandEdge`] (carrier frequency).
//!
//! Equalization: [`LinearEqualizer`] and [`DecisionFeedbackEqualizer`], adapting by an
//! [`AdaptiveAlgorithm`] (LMS, NLMS, CMA), trained on a sequence from a tag.
//!
//! Modulation: [`ConstellationModulator`] (GNU Radio's generic_mod), [`BurstShaper`]
//! (padding and ramps around the bursts of a tagged stream).
//!
//! OFDM: [`OfdmCarrierAllocator`] (frames onto carriers, pilots, sync words) and
//! [`OfdmCyclicPrefixer`] (cyclic prefixes and flanks, framed by length tags).
//!
//! ```
//! use num_complex::Complex32;
//! use radioflow_digital::Constellation;
//!
//! let c: Constellation = "16qam".parse()?;
//! let point = c.points()[9];
//! assert_eq!(c.decision(&[point * 1.1]), 9);
//! let mut soft = [0.0; 4];
//! c.soft_decision(point, &mut soft);
//! assert!(soft.iter().all(|x| x.is_finite()));
//! # Ok::<(), radioflow_digital::ConstellationError>(())
//! ```
//!
//! # Validation
//! Decisions are checked against a naive nearest-point search (`constellation.rs`), and every
//! block and constellation kind against GNU Radio 3.10 on the same input
//! (`tests/gnuradio.rs`, which SKIPS where GNU Radio is not installed).

mod blocks;
mod constellation;
mod header_format;
mod lfsr;

pub use blocks::{
    AdditiveScrambler, BinarySlicer, BurstShaper, Chunk, ChunksToSymbols, ChunksToSymbolsInt,
    ChunksToSymbolsShort, ClockRecoveryMm, ConstellationDecoder, ConstellationModulator,
    ConstellationSoftDecoder, CorrEst, CorrSample, CorrThreshold, CostasLoop, Crc32Async,
    Crc32Stream, CrcAppend, CrcCheck, Descrambler, DiffCoding, DiffDecoder, DiffEncoder,
    DiffPhasor, EvmUnit, FllBandEdge, GmskMod, HeaderPayloadDemux, MapBytes, MeasEvm, MmSample,
    OfdmCarrierAllocator, OfdmCyclicPrefixer, PacketHeaderGenerator, PfbClockSync,
    ProtocolFormatter, ProtocolFormatterAsync, ProtocolParser, Scrambler, Shaped, Symbol,
    SymbolSync,
};
pub use constellation::{Constellation, ConstellationError, Normalization};
pub use header_format::{
    AccessCode, HeaderFormat, HeaderFormatError, HeaderParser, OfdmHeader, Parsed,
    DEFAULT_ACCESS_CODE,
};
pub use lfsr::Lfsr;
mod equalizer;
pub use equalizer::{
    AdaptiveAlgorithm, AdaptiveAlgorithmError, AlgorithmKind, DecisionFeedbackEqualizer,
    LinearEqualizer,
};
