//! The decoding half of the receiver, everything after synchronisation (the items are
//! described in [the `rx` module](crate::rx), which exports them).

mod bbheader;
mod bch_decoder;
mod deinterleave;
mod demap;
mod depacketizer;
mod frame_decoder;
mod gf;
mod ideal_sync;
mod ldpc_code;
mod ldpc_decoder;
mod ldpc_inter_frame;
mod ldpc_inter_frame_kernel;
mod ldpc_kernel;
mod quantize;

pub use bbheader::{BbDescrambler, BbHeader, BbHeaderError, BBHEADER_BYTES};
pub use bch_decoder::{BchDecoder, BchFailure};
pub use deinterleave::deinterleave;
pub use demap::Demapper;
pub use depacketizer::{Depacketizer, DepacketizerStats};
pub use frame_decoder::{
    FrameDecoder, FrameStatus, RxError, Stage, StageProfile, DEFAULT_MAX_ITERATIONS,
};
pub use ideal_sync::IdealSync;
pub use ldpc_code::LdpcCode;
pub use ldpc_decoder::{LdpcDecoder, LdpcStatus};
pub use ldpc_inter_frame::InterFrameLdpcDecoder;
pub use ldpc_kernel::Isa;
pub use quantize::{llr_target_mean, quantize_llrs};

#[cfg(test)]
mod ldpc_reference;
#[cfg(test)]
mod ldpc_tests;
#[cfg(test)]
mod roundtrip_tests;
