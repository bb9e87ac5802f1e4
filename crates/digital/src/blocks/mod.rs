//! The blocks, one per file.

mod additive_scrambler;
mod binary_slicer;
mod chunks_to_symbols;
mod chunks_to_symbols_int;
mod chunks_to_symbols_short;
mod constellation_decoder;
mod constellation_soft_decoder;
mod costas_loop;
mod descrambler;
mod diff_coding;
mod diff_decoder;
mod diff_encoder;
mod diff_phasor;
mod fll_band_edge;
mod map_bytes;
mod pfb_clock_sync;
mod scrambler;
mod symbol_mapper;

pub use additive_scrambler::AdditiveScrambler;
pub use binary_slicer::BinarySlicer;
pub use chunks_to_symbols::ChunksToSymbols;
pub use chunks_to_symbols_int::ChunksToSymbolsInt;
pub use chunks_to_symbols_short::ChunksToSymbolsShort;
pub use constellation_decoder::ConstellationDecoder;
pub use constellation_soft_decoder::ConstellationSoftDecoder;
pub use costas_loop::CostasLoop;
pub use descrambler::Descrambler;
pub use diff_coding::DiffCoding;
pub use diff_decoder::DiffDecoder;
pub use diff_encoder::DiffEncoder;
pub use diff_phasor::DiffPhasor;
pub use fll_band_edge::FllBandEdge;
pub use map_bytes::MapBytes;
pub use pfb_clock_sync::PfbClockSync;
pub use scrambler::Scrambler;
pub use symbol_mapper::{Chunk, Symbol};
