//! The transmitter: [`Transmitter`] (TS bytes to PLFRAMEs, one frame per call), the same cut
//! into the stages of the framed pipeline ([`BbFramer`], [`FecEncoder`], [`PlFramer`], each
//! passing the next a [`FrameSpec`]), the VCM [`Schedule`], and pulse shaping ([`Shaper`],
//! [`FrameShaper`]).

mod frame_shaping;
mod frame_spec;
mod shaping;
mod stages;
mod transmitter;
mod vcm_schedule;

#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod shaping_golden_tests;

pub use frame_shaping::{FrameShaper, OverlapAdd};
pub use frame_spec::FrameSpec;
pub use shaping::{Shaper, Shaping, ShapingError};
pub use stages::{
    BbFramer, FecEncoder, PlFramer, MAX_BBFRAME_BYTES, MAX_FECFRAME_BITS, MAX_PLFRAME,
};
pub use transmitter::{FrameInfo, Transmitter, TxConfig, TxError};
pub use vcm_schedule::Schedule;
