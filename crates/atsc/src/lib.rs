//! ATSC 8-VSB (ATSC A/53 Part 2) on radioflow: gr-dtv's transmitter, transport stream to
//! 8-level symbols, as kernels and blocks that compute what gr-dtv's `atsc_*` blocks compute,
//! in the order of the chain:
//!
//! - [`AtscPad`] (`atsc_pad`): transport packets into 256-byte items;
//! - [`AtscRandomizer`] (`atsc_randomizer`): the data randomizer, 5.3.2 ([`Randomizer`]),
//!   and the segment numbering;
//! - [`AtscRsEncoder`] (`atsc_rs_encoder`): RS(207, 187), 5.3.3 (DVB-T's Reed-Solomon kernel,
//!   [`radioflow_dvbt::ReedSolomon`], with 20 roots);
//! - [`AtscInterleaver`] (`atsc_interleaver`): the convolutional data interleaver, 5.3.4
//!   ([`Interleaver`]);
//! - [`AtscTrellisEncoder`] (`atsc_trellis_encoder`): 12 trellis encoders, 5.3.5
//!   ([`TrellisEncoder`]);
//! - [`AtscFieldSyncMux`] (`atsc_field_sync_mux`): field sync segments, 5.4 ([`FieldSync`]).
//!
//! Of the receiver, from the deinterleaver on (the trellis decoder is not here):
//! [`AtscDeinterleaver`] (`atsc_deinterleaver`, [`Deinterleaver`]), [`AtscRsDecoder`]
//! (`atsc_rs_decoder`), [`AtscDerandomizer`] (`atsc_derandomizer`) and [`AtscDepad`]
//! (`atsc_depad`); their pipeline information travels on a port of its own, vectors of two
//! shorts, as GRC declares it.
//!
//! gr-dtv passes its packet structures between these blocks as vectors of bytes: a 4-byte
//! pipeline header ([`Plinfo`]), the data, zeros to 256 or 1024 bytes ([`layout`]). Ours
//! are the same bytes, so each stage compares with GNU Radio's byte for byte. The blocks
//! take no parameters.
//!
//! ```
//! use radioflow_atsc::{Randomizer, TrellisEncoder};
//!
//! // Randomizing and derandomizing are one XOR with the same sequence.
//! let payload: Vec<u8> = (0..187u8).collect();
//! let mut sent = payload.clone();
//! Randomizer::new().apply(&mut sent);
//! assert_ne!(sent, payload);
//! Randomizer::new().apply(&mut sent);
//! assert_eq!(sent, payload);
//! // 12 segments of zero bytes through encoders at rest: syncs and level index 0.
//! let mut symbols = vec![0u8; 12 * 832];
//! TrellisEncoder::new().encode(&vec![0u8; 12 * 207], &mut symbols);
//! assert_eq!(symbols[..5], [6, 1, 1, 6, 0]);
//! ```

mod blocks;
mod deinterleaver;
mod field_sync;
mod interleaver;
pub mod layout;
mod randomizer;
mod trellis;

pub use blocks::{
    AtscDeinterleaver, AtscDepad, AtscDerandomizer, AtscFieldSyncMux, AtscInterleaver, AtscPad,
    AtscRandomizer, AtscRsDecoder, AtscRsEncoder, AtscTrellisEncoder,
};
pub use deinterleaver::Deinterleaver;
pub use field_sync::{pn511, pn63, FieldSync};
pub use interleaver::Interleaver;
pub use layout::Plinfo;
pub use randomizer::Randomizer;
pub use trellis::TrellisEncoder;
