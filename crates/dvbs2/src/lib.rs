//! DVB-S2 transmitter kernels (ETSI EN 302 307-1), bit-exact with GNU Radio's gr-dtv.
//!
//! [`Transmitter`] turns a TS (or generic) byte stream into PLFRAMEs of
//! [`Complex32`](num_complex::Complex32) symbols, one unshaped symbol per sample: mode
//! adaptation and BBHEADER (clause 5.1), BB scrambling (5.2.2), BCH (5.3.1) and LDPC (5.3.2)
//! encoding, bit interleaving (5.3.3), mapping (5.4) and PL framing with pilots and PL
//! scrambling (5.5). [`Modcod`], [`FrameSize`] and [`FecParams`] describe the 28 MODCODs. The
//! MODCOD can change from one frame to the next (VCM/ACM, also by a [`Schedule`]). [`Shaper`]
//! pulse-shapes (RRC, clause 5.6). [`BbFramer`], [`FecEncoder`] and [`PlFramer`] are the
//! transmitter cut into stages for framed execution; these kernels need no runtime. The
//! `framed` feature (default) adds `run_tx`, the transmitter as a framed sequence or pipeline
//! (crates/framed) with the encoding stage duplicated, and `app`, the logic of
//! `radioflow dvbs2 tx`.
//!
//! The [`rx`] module is the decoding half of a receiver (soft demapping, deinterleaving,
//! LDPC and BCH decoding, BB descrambling, BBHEADER and TS packets), everything after
//! synchronisation.
//!
//! ```
//! use num_complex::Complex32;
//! use radioflow_dvbs2::{FrameSize, Transmitter, TxConfig};
//!
//! let cfg = TxConfig::new("qpsk-8/9".parse()?, FrameSize::Short, true);
//! let mut tx = Transmitter::new(cfg)?;
//! // Two TS packets (null packets: PID 0x1FFF).
//! let mut ts = vec![0u8; 2 * 188];
//! for p in ts.chunks_mut(188) {
//!     p[..4].copy_from_slice(&[0x47, 0x1F, 0xFF, 0x10]);
//! }
//! let mut frame = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
//! let info = tx.encode_frame(&ts, &mut frame)?;
//! assert_eq!(info.consumed, 2 * 188); // the rest of the BBFRAME is padding
//! assert_eq!(frame.len(), 90 + 8100 + 5 * 36); // PLHEADER, 90 slots, 5 pilot blocks
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Validation
//! `golden/generate.py` (run with `/usr/bin/python3`, GNU Radio 3.10's gr-dtv) writes
//! `golden/gr_dtv.txt`: for every MODCOD × frame size × pilots, hashes of the BBFRAME (before
//! and after scrambling), BCH and LDPC codewords and interleaver labels over two frames, and
//! weighted sums and samples of the modulator and PL symbols; plus four full PLFRAMEs. The
//! tests compare bit stages exactly and symbols to 1e-5. Encoders are also checked against
//! naive references (polynomial division for BCH, the parity check matrix for LDPC).

#[cfg(feature = "framed")]
pub mod app;
mod bbframe;
mod bch;
mod blocks;
mod frame_shaping;
#[cfg(feature = "framed")]
pub mod framed_rx;
#[cfg(feature = "framed")]
mod framed_tx;
mod ldpc;
mod ldpc_tables;
mod mapper;
mod modcod;
mod plframe;
pub mod rx;
#[cfg(feature = "framed")]
pub mod rx_app;
mod schedule;
mod shaping;
mod stages;
pub mod sync;
mod tx;

#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod shaping_golden_tests;

pub use bbframe::{InputStream, RollOff, TsSyncError};
pub use blocks::{Dvbs2Rx, Dvbs2Tx, Dvbs2TxError};
pub use frame_shaping::{FrameShaper, OverlapAdd};
#[cfg(feature = "framed")]
pub use framed_tx::{run_tx, RunError, TxRun, TxStats};
pub use modcod::{CodeRate, Constellation, FecParams, FrameSize, Modcod, ModcodError};
pub use schedule::Schedule;
pub use shaping::{Shaper, Shaping, ShapingError};
pub use stages::{
    BbFramer, FecEncoder, FrameSpec, PlFramer, MAX_BBFRAME_BYTES, MAX_FECFRAME_BITS, MAX_PLFRAME,
};
pub use tx::{FrameInfo, Transmitter, TxConfig, TxError};
