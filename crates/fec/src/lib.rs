//! GNU Radio's gr-fec API on radioflow: code objects and the generic blocks that run them,
//! each computing what GNU Radio 3.10's does.
//!
//! A code is an [`Encoder`] and a [`Decoder`] (frame sizes, the conversions the blocks put
//! around them, one frame's work): [`DummyEncoder`] / [`DummyDecoder`] (no code),
//! [`RepetitionEncoder`] / [`RepetitionDecoder`] (each bit `rep` times, decided by vote),
//! [`CcEncoder`] / [`CcDecoder`] (convolutional codes in GNU Radio's four [`CcMode`]s, with
//! its 8-bit Viterbi decoder; CCSDS's K = 7 code among them), [`LdpcEncoder`] /
//! [`LdpcDecoder`] (codes of alist parity-check matrices, with GNU Radio's belief-propagation
//! decoder), [`MatrixEncoder`] / [`BitFlipDecoder`] (GNU Radio's LDPC matrix objects
//! [`LdpcMatrix`], `fec.ldpc_H_matrix` and `fec.ldpc_G_matrix`), [`PolarEncoder`] /
//! [`PolarScDecoder`] / [`PolarListDecoder`] (polar codes, systematic or not, with GNU
//! Radio's channel construction [`bec_frozen_positions`]). A block takes one as
//! [`EncoderDef`] / [`DecoderDef`], the call GNU Radio's Python makes it with, so GRC's
//! `variable_*_encoder_def` values pass unchanged. GNU Radio builds lists of objects for its
//! threaded blocks (`dim1`, `dim2`); radioflow runs one object per block.
//!
//! The blocks: [`ExtendedEncoder`] and [`ExtendedDecoder`] (streams), [`TaggedEncoder`] and
//! [`TaggedDecoder`] (packets of tagged streams), [`AsyncEncoder`] and [`AsyncDecoder`]
//! (PDUs); [`Ber`] measures the bit error rate between two streams (`fec.ber_bf`).
//!
//! ```
//! use radioflow_fec::{DecoderDef, EncoderDef, Soft};
//!
//! let def: EncoderDef = "fec.cc_encoder_make(8, 7, 2, [109, 79], 0, fec.CC_TERMINATED, False)".parse()?;
//! let mut enc = def.build();
//! let mut code = vec![0; enc.output_size()];
//! enc.encode(&[1, 0, 1, 1, 0, 0, 1, 0], &mut code);
//! let soft: Vec<u8> = code.iter().map(|b| if *b == 1 { 176 } else { 80 }).collect();
//! let def: DecoderDef = "fec.cc_decoder.make(8, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)".parse()?;
//! let mut dec = def.build()?;
//! let mut bits = vec![0; 8];
//! dec.decode(Soft::Uchar(&soft), &mut bits);
//! assert_eq!(bits, [1, 0, 1, 1, 0, 0, 1, 0]);
//! # Ok::<(), radioflow_fec::DefError>(())
//! ```
//!
//! # Validation
//! Every code and block against GNU Radio 3.10 on the same input, random bits through the
//! encoder, noise, and the decoder (`tests/gnuradio.rs`, which SKIPS where GNU Radio is not
//! installed).

mod blocks;
mod cc;
mod code;
mod def;
mod dummy;
mod ldpc;
mod ldpc_bit_flip;
mod ldpc_matrix;
mod polar;
mod polar_config;
mod polar_list;
mod polar_sc;
mod repetition;
mod viterbi;

pub use blocks::{
    AsyncDecoder, AsyncEncoder, Ber, ExtendedDecoder, ExtendedEncoder, GenericByteDecoder,
    GenericDecoder, GenericEncoder, TaggedDecoder, TaggedEncoder,
};
pub use cc::{CcCode, CcEncoder, CcMode};
pub use code::{Conversion, Decoder, Encoder, Soft, SoftInput};
pub use def::{parse_ldpc_matrix, DecoderDef, DefError, EncoderDef};
pub use dummy::{DummyDecoder, DummyEncoder};
pub use ldpc::{LdpcCode, LdpcDecoder, LdpcEncoder};
pub use ldpc_bit_flip::BitFlipDecoder;
pub use ldpc_matrix::{LdpcMatrix, MatrixEncoder};
pub use polar::{PolarCode, PolarEncoder};
pub use polar_config::bec_frozen_positions;
pub use polar_list::PolarListDecoder;
pub use polar_sc::PolarScDecoder;
pub use repetition::{RepetitionDecoder, RepetitionEncoder};
pub use viterbi::CcDecoder;
