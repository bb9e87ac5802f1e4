//! DVB-S2 (ETSI EN 302 307-1) on radioflow: the transmitter (bit-exact with GNU Radio's
//! gr-dtv) and the receiver, as kernels, blocks (`dvbs2_tx`, `dvbs2_rx`) and framed pipelines.
//!
//! [`Transmitter`] turns a TS (or generic) byte stream into PLFRAMEs of
//! [`Complex32`](num_complex::Complex32) symbols, one unshaped symbol per sample: mode
//! adaptation and BBHEADER (clause 5.1), BB scrambling (5.2.2), BCH (5.3.1) and LDPC (5.3.2)
//! encoding, bit interleaving (5.3.3), mapping (5.4) and PL framing with pilots and PL
//! scrambling (5.5). [`Modcod`], [`FrameSize`] and [`FecParams`] describe the 28 MODCODs. The
//! MODCOD can change from one frame to the next (VCM/ACM, also by a [`Schedule`]). [`Shaper`]
//! pulse-shapes (RRC, clause 5.6). [`BbFramer`], [`FecEncoder`] and [`PlFramer`] are the
//! transmitter cut into stages for framed execution.
//!
//! [`Receiver`] is its mirror, complex samples to TS packets: synchronisation
//! ([`rx::sync`]), then per frame decoding with the frame's own MODCOD and noise estimate
//! (soft demapping, deinterleaving, LDPC and BCH decoding, BB descrambling, BBHEADER) and
//! depacketizing (TEI on the packets of failed frames); [`RxStats`] counts what it did. The
//! [`rx`] module holds its parts.
//!
//! The blocks [`Dvbs2Tx`] and [`Dvbs2Rx`] wrap the transmitter and the receiver for a
//! streaming graph. The `framed` feature (default) adds [`framed`]: both as framed task
//! graphs (crates/framed) reading and writing files or streams, the encoding or decoding
//! stage duplicated over cores (`radioflow dvbs2 tx` and `rx` run them). These kernels need
//! no runtime.
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
//! # Layout
//! `tx/` the transmitter and its stages, `rx/` the receiver (`rx/sync/` synchronisation,
//! `rx/decode/` decoding), `framed/` the framed pipelines of both, `blocks/` the blocks
//! (`blocks/gr_dtv/`: gr-dtv's transmitter blocks one by one); the
//! files at the top (`modcod.rs`, `bbframe.rs`, `bch.rs`, `ldpc.rs`, `mapper.rs`,
//! `plframe.rs`) define what both halves share.
//!
//! # Validation
//! `golden/generate.py` (run with `/usr/bin/python3`, GNU Radio 3.10's gr-dtv) writes
//! `golden/gr_dtv.txt`: for every MODCOD × frame size × pilots, hashes of the BBFRAME (before
//! and after scrambling), BCH and LDPC codewords and interleaver labels over two frames, and
//! weighted sums and samples of the modulator and PL symbols; plus four full PLFRAMEs. The
//! tests compare bit stages exactly and symbols to 1e-5. Encoders are also checked against
//! naive references (polynomial division for BCH, the parity check matrix for LDPC).

mod bbframe;
mod bch;
mod blocks;
#[cfg(feature = "framed")]
pub mod framed;
mod ldpc;
mod ldpc_tables;
mod ldpc_tables_t2;
mod mapper;
mod modcod;
mod plframe;
pub mod rx;
mod tx;

pub use bbframe::{InputStream, RollOff, TsSyncError};
pub use blocks::{
    DtvSettingsError, DvbBbheader, DvbBbscrambler, DvbBch, DvbLdpc, Dvbs2Interleaver,
    Dvbs2Modulator, Dvbs2Physical, Dvbt2Interleaver, Dvbt2Modulator,
};
pub use blocks::{Dvbs2Rx, Dvbs2Tx, Dvbs2TxError};
pub use modcod::{CodeRate, Constellation, FecParams, FrameSize, Modcod, ModcodError};
pub use rx::{Receiver, RxStats};
pub use tx::{
    BbFramer, FecEncoder, FrameInfo, FrameShaper, FrameSpec, OverlapAdd, PlFramer, Schedule,
    Shaper, Shaping, ShapingError, Transmitter, TxConfig, TxError, MAX_BBFRAME_BYTES,
    MAX_FECFRAME_BITS, MAX_PLFRAME,
};
