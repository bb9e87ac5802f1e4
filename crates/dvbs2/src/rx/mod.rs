//! The decoding half of a DVB-S2 receiver: everything after synchronisation.
//!
//! A PLFRAME's data symbols (PL-descrambled, pilots removed, unit energy) go through
//! [`Demapper`] (max-log LLRs) and [`deinterleave`], the layered min-sum [`LdpcDecoder`],
//! the [`BchDecoder`], BB descrambling and BBHEADER parsing ([`BbHeader`]); a
//! [`FrameDecoder`] does all of it per frame, and a [`Depacketizer`] turns the data fields of
//! successive frames back into TS packets.

mod deinterleave;
mod demap;

pub use deinterleave::deinterleave;
pub use demap::Demapper;
mod ldpc_code;
mod ldpc_decoder;
mod ldpc_kernel;

pub use ldpc_code::LdpcCode;
pub use ldpc_decoder::{LdpcDecoder, LdpcStatus};
pub use ldpc_kernel::Isa;
mod quantize;

pub use quantize::{llr_target_mean, quantize_llrs};

#[cfg(test)]
mod ldpc_reference;
#[cfg(test)]
mod ldpc_tests;

mod bch_decoder;
mod gf;

pub use bch_decoder::{BchDecoder, BchFailure};

mod bbheader;
mod depacketizer;

pub use bbheader::{BbDescrambler, BbHeader, BbHeaderError, BBHEADER_BYTES};
pub use depacketizer::{Depacketizer, DepacketizerStats};

mod frame_decoder;

pub use frame_decoder::{FrameDecoder, FrameStatus, RxError, DEFAULT_MAX_ITERATIONS};
#[cfg(test)]
mod roundtrip_tests;

mod ideal_sync;

pub use ideal_sync::IdealSync;
