//! DVB-T (ETSI EN 300 744) on radioflow: gr-dtv's transmitter, transport stream to OFDM
//! symbols, as kernels and blocks that compute what gr-dtv's `dvbt_*` blocks compute, in
//! the order of the chain (clause 4.3):
//!
//! - [`DvbtEnergyDispersal`] (`dvbt_energy_dispersal`): the PRBS of clause 4.3.1
//!   ([`dispersal_sequence`]);
//! - [`DvbtReedSolomonEnc`] (`dvbt_reed_solomon_enc`): RS(204, 188), clause 4.3.2
//!   ([`ReedSolomon`]);
//! - [`DvbtConvolutionalInterleaver`] (`dvbt_convolutional_interleaver`): the outer
//!   interleaver, clause 4.3.2 (also DVB-S's and the cable transmitters');
//! - [`DvbtInnerCoder`] (`dvbt_inner_coder`): the punctured convolutional code, clause 4.3.3
//!   ([`InnerCoder`]);
//! - [`DvbtBitInnerInterleaver`] (`dvbt_bit_inner_interleaver`) and
//!   [`DvbtSymbolInnerInterleaver`] (`dvbt_symbol_inner_interleaver`): clause 4.3.4
//!   ([`interleave_block`], [`symbol_permutation`]);
//! - [`DvbtMap`] (`dvbt_map`): the constellations of clause 4.3.5 ([`constellation_points`]);
//! - [`DvbtReferenceSignals`] (`dvbt_reference_signals`): pilots (clause 4.5), TPS (clause
//!   4.6, [`tps_bits`]) and the inverse FFT ([`ReferenceSignals`] places the carriers).
//!
//! Of the receiver, [`DvbtDemap`] (`dvbt_demap`, hard decisions: [`nearest_point`]),
//! [`DvbtBitInnerDeinterleaver`] (`dvbt_bit_inner_deinterleaver`, [`deinterleave_block`]),
//! [`DvbtViterbiDecoder`] (`dvbt_viterbi_decoder`, gr-dtv's hard-decision Viterbi decoder of
//! the inner code, decision for decision),
//! [`DvbtConvolutionalDeinterleaver`] (`dvbt_convolutional_deinterleaver`, the outer
//! interleaver's kernel run the other way), [`DvbtReedSolomonDec`] (`dvbt_reed_solomon_dec`,
//! [`ReedSolomon::decode`]) and [`DvbtEnergyDescramble`] (`dvbt_energy_descramble`, the
//! dispersal's sequence); [`DvbtSymbolInnerInterleaver`] deinterleaves too.
//!
//! The settings' words are read by [`Constellation`], [`Hierarchy`], [`CodeRate`], [`Mode`]
//! and [`GuardInterval`]; a refused setting is a [`SettingsError`] naming block and parameter.
//!
//! ```
//! use radioflow_dvbt::{CodeRate, InnerCoder};
//!
//! // Rate 3/4, QPSK: 3 bytes in make 16 bytes of 2 coded bits.
//! let mut coder = InnerCoder::new(CodeRate::R3_4, 2);
//! let mut out = [0u8; 16];
//! coder.encode_group(&[0, 0, 0], &mut out);
//! assert_eq!(out, [0u8; 16]);
//! ```

mod bit_interleaver;
mod blocks;
mod constellation;
mod dispersal;
mod error;
mod inner_code;
mod outer_interleaver;
mod params;
mod pilot_tables;
mod reed_solomon;
mod reference_signals;
mod symbol_interleaver;
mod tps;
mod viterbi;

pub use bit_interleaver::{deinterleave_block, interleave_block};
pub use blocks::{
    DvbtBitInnerDeinterleaver, DvbtBitInnerInterleaver, DvbtConvolutionalDeinterleaver,
    DvbtConvolutionalInterleaver, DvbtDemap, DvbtEnergyDescramble, DvbtEnergyDispersal,
    DvbtInnerCoder, DvbtMap, DvbtReedSolomonDec, DvbtReedSolomonEnc, DvbtReferenceSignals,
    DvbtSymbolInnerInterleaver, DvbtViterbiDecoder,
};
pub use constellation::{nearest as nearest_point, points as constellation_points};
pub use dispersal::sequence as dispersal_sequence;
pub use error::SettingsError;
pub use inner_code::InnerCoder;
pub use params::{CodeRate, Constellation, GuardInterval, Hierarchy, Mode};
pub use reed_solomon::{ReedSolomon, RsError};
pub use reference_signals::{ReferenceSignals, FRAMES_PER_SUPERFRAME, SYMBOLS_PER_FRAME};
pub use symbol_interleaver::permutation as symbol_permutation;
pub use tps::{tps_bits, TpsSettings};
