//! RDS (Radio Data System, IEC 62106 / EN 50067) for FM broadcast: a decoder of the 57 kHz
//! subcarrier in an FM-demodulated multiplex, and an encoder making that subcarrier.
//!
//! - [`Decoder`]: multiplex samples in; [`Event`]s (sync gained/lost, groups, PI, PTY,
//!   PS name, RadioText) and a [`Station`] snapshot out. Carrier recovery by a Costas loop (no
//!   pilot needed), matched filtering, symbol timing recovery, biphase and differential
//!   decoding, block synchronisation by the offset words, burst error correction; groups
//!   0A/0B (PS, PTY, TP/TA) and 2A/2B (RadioText).
//! - [`Encoder`]: groups 0A and 2A from a [`StationInfo`], shaped and modulated, added to a
//!   multiplex.
//! - [`checkword`], [`syndrome`], [`Offset`], [`BurstCorrector`]: the block code.
//!
//! A round trip through a clean multiplex:
//!
//! ```
//! use radioflow_rds::{Decoder, Encoder, Event, StationInfo};
//! let rate = 250e3;
//! let info = StationInfo::new(0x1234, "RADIOFLW", "Now playing: RDS")?;
//! let mut mpx = vec![0.0f32; 500_000]; // two seconds
//! Encoder::new(rate, &info)?.add_to(&mut mpx);
//! let mut decoder = Decoder::new(rate)?;
//! let mut text = None;
//! for chunk in mpx.chunks(4096) {
//!     for event in decoder.process(chunk) {
//!         if let Event::RadioText(rt) = event {
//!             text = Some(rt.to_string());
//!         }
//!     }
//! }
//! assert_eq!(text.as_deref(), Some("Now playing: RDS"));
//! # Ok::<(), radioflow_rds::RdsError>(())
//! ```

mod checkword;
mod decoder;
mod demod;
mod encoder;
mod error;
mod group;
mod shaping;
mod station;
mod sync;

pub use checkword::{
    checkword, encode_block, syndrome, BurstCorrector, Offset, BLOCK_BITS, MAX_BURST,
};
pub use decoder::{Decoder, DEFAULT_MAX_BURST, DEFAULT_SYNC_LOSS};
pub use demod::{MIN_RATE_HZ, SUBCARRIER_HZ};
pub use encoder::{Encoder, StationInfo, DEFAULT_LEVEL};
pub use error::RdsError;
pub use group::{Group, Version};
pub use shaping::BIT_RATE;
pub use station::{Event, PsName, RadioText, Station};
