//! The DVB-S2 receiver (EN 302 307-1 seen from the receiver): [`Receiver`], from complex
//! samples to TS packets on one thread, and its parts: [`sync`] (resampling, matched filter,
//! timing, frame and carrier synchronisation), the decoding half (everything after
//! synchronisation, below), and the steps after synchronisation as types of their own
//! ([`FrameSelect`], [`Decode`], [`Deliver`]) for pipelines that run them on several threads.
//! [`RxStats`] is what a receiver did, whichever way it ran.
//!
//! A PLFRAME's data symbols (PL-descrambled, pilots removed, unit energy) go through
//! [`Demapper`] (max-log LLRs) and [`deinterleave`], [`quantize_llrs`], the layered min-sum
//! [`LdpcDecoder`] (or [`InterFrameLdpcDecoder`], 32 frames of one code at a time, for
//! throughput), the [`BchDecoder`], BB descrambling ([`BbDescrambler`]) and BBHEADER
//! parsing ([`BbHeader`]). A [`FrameDecoder`] does all of it for one frame, with the frame's
//! own MODCOD (CCM, VCM and ACM alike), or for a batch of frames of one MODCOD
//! ([`FrameDecoder::decode_batch`]); it keeps no state between frames, so clones decode
//! frames in parallel. A [`Depacketizer`], sequential, turns the BBFRAMEs of successive
//! frames back into TS packets (packets span frames). [`IdealSync`] stands in for
//! synchronisation when the PLFRAME is known to be aligned (tests, benchmarks, loopback).
//!
//! ```
//! use num_complex::Complex32;
//! use radioflow_dvbs2::rx::{Depacketizer, FrameDecoder, IdealSync};
//! use radioflow_dvbs2::{FrameSize, Transmitter, TxConfig};
//!
//! let cfg = TxConfig::new("8psk-3/5".parse()?, FrameSize::Short, true);
//! let mut tx = Transmitter::new(cfg)?;
//! let ts: Vec<u8> = (0..3000).map(|i| if i % 188 == 0 { 0x47 } else { i as u8 & 0x7F }).collect();
//! let (mut dec, mut depack, sync) = (FrameDecoder::new(), Depacketizer::new(), IdealSync::new(0));
//! let (mut pos, mut out) = (0, Vec::new());
//! let mut plframe = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
//! let mut symbols = vec![Complex32::new(0.0, 0.0); plframe.len()];
//! for _ in 0..3 {
//!     pos += tx.encode_frame(&ts[pos..], &mut plframe)?.consumed;
//!     let n = sync.data_symbols(&plframe, true, &mut symbols);
//!     let status = dec.decode(&symbols[..n], cfg.modcod, cfg.frame, 0.01)?;
//!     assert!(status.ok() && status.ldpc.converged);
//!     depack.push(status.header.ok().as_ref(), dec.bbframe(), status.ok(), &mut |p: &[u8]| {
//!         out.extend_from_slice(p)
//!     });
//! }
//! assert_eq!(out[..], ts[..out.len()]); // whole packets, sync bytes restored
//! assert!(out.len() >= 2 * 188);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod decode;
mod receiver;
mod stats;
pub mod sync;

pub use decode::{
    deinterleave, llr_target_mean, quantize_llrs, BbDescrambler, BbHeader, BbHeaderError,
    BchDecoder, BchFailure, Demapper, Depacketizer, DepacketizerStats, FrameDecoder, FrameStatus,
    IdealSync, InterFrameLdpcDecoder, Isa, LdpcCode, LdpcDecoder, LdpcStatus, RxError, Stage,
    StageProfile, BBHEADER_BYTES, DEFAULT_MAX_ITERATIONS,
};
pub use receiver::{Decode, Decoded, Deliver, FrameFilter, FrameSelect, Receiver};
pub use stats::RxStats;
