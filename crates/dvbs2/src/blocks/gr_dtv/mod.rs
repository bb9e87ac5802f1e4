//! GNU Radio's gr-dtv DVB-S2/T2 transmitter chain, block by block, with gr-dtv's item
//! conventions: `dvb_bbheader` (bytes to BBFRAME bits), `dvb_bbscrambler`, `dvb_bch`,
//! `dvb_ldpc` (bits to bits, one bit per byte), `dvbs2_interleaver` and `dvbt2_interleaver`
//! (bits to one constellation label or cell word per byte), `dvbs2_modulator` and
//! `dvbt2_modulator` (labels to complex points) and `dvbs2_physical` (points to PLFRAMEs, each
//! symbol followed by a zero as gr-dtv's framer writes them).
//!
//! The arithmetic is the crate's own ([`Transmitter`](crate::Transmitter)'s BCH, LDPC,
//! interleaver, mapper and PL framing), cut where gr-dtv cuts it. Each block works in whole
//! frames, as gr-dtv's do (`set_output_multiple`): a partial frame at the end of the stream is
//! not written. Tags go where GNU Radio puts them: gr-dtv's blocks set no relative rate, so
//! GNU Radio keeps a tag's offset (input item n's tag on output item n); one whose item is
//! written already goes on the next item written (GNU Radio adds it in the past, where a reader
//! sees it or not by timing).
//!
//! DVB-T2 (ETSI EN 302 755) shares BB framing, BB scrambling, BCH and LDPC with DVB-S2 (its own
//! normal 2/3 and short 3/5 codes in `ldpc_tables_t2.rs`); its input modes (normal, high
//! efficiency) and in-band type B signalling live in `bbheader.rs`, its bit interleaver and
//! cell demultiplexer and its QAM mapper with rotation in `t2_*.rs`. DVB-S2X's rates and
//! constellations (EN 302 307-2) and the medium FECFRAME are refused by the GRC rows: this crate
//! has neither their LDPC codes nor their framing.

mod bbheader;
mod bbscrambler;
mod bch;
mod interleaver;
mod ldpc;
mod modulator;
mod physical;
mod settings;
mod t2_interleaver;
mod t2_modulator;

pub use bbheader::DvbBbheader;
pub use bbscrambler::DvbBbscrambler;
pub use bch::DvbBch;
pub use interleaver::Dvbs2Interleaver;
pub use ldpc::DvbLdpc;
pub use modulator::Dvbs2Modulator;
pub use physical::Dvbs2Physical;
pub use settings::DtvSettingsError;
pub use t2_interleaver::Dvbt2Interleaver;
pub use t2_modulator::Dvbt2Modulator;
