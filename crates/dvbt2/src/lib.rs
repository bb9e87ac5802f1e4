//! DVB-T2 (ETSI EN 302 755) on radioflow: the OFDM side of gr-dtv's transmitter, cells to
//! samples, as kernels and blocks that compute what gr-dtv's `dvbt2_*_cc` blocks compute.
//!
//! [`CellInterleaver`] is the cell and time interleaver (clauses 6.4, 6.5) over one
//! interleaving frame; the block [`Dvbt2CellInterleaver`] (`dvbt2_cellinterleaver`, GRC's
//! `dtv_dvbt2_cellinterleaver_cc`) wraps it. [`FreqInterleaver`] is the frequency interleaver
//! (clause 6.6) over one T2 frame, whose symbols carry [`SymbolCells`]; its block is
//! [`Dvbt2FreqInterleaver`] (`dvbt2_freqinterleaver`, GRC's `dtv_dvbt2_freqinterleaver_cc`).
//! [`p1_symbol`] makes the P1 preamble symbol (clause 7.2.2); [`Dvbt2P1Insertion`]
//! (`dvbt2_p1insertion`, GRC's `dtv_dvbt2_p1insertion_cc`) puts it before each T2 frame.
//! [`Dvbt2Miso`] (`dvbt2_miso`, GRC's `dtv_dvbt2_miso_cc`) makes the second transmitter's
//! cells of MISO (clause 9.1). [`Dvbt2FrameMapper`] (`dvbt2_framemapper`, GRC's
//! `dtv_dvbt2_framemapper_cc`) builds T2 frames (clause 8.3) of one PLP's cells with L1
//! signalling (clause 7.2.3, coded as clause 7.3 says with `radioflow-dvbs2`'s BCH and LDPC
//! encoders) and dummy cells; [`FrameBuilder`] lays the frame out.
//! [`Dvbt2PilotGenerator`] (`dvbt2_pilotgenerator`, GRC's `dtv_dvbt2_pilotgenerator_cc`)
//! inserts the pilots (clause 9.2) and makes each OFDM symbol's samples (SISO).
//! [`Dvbt2Paprtr`] (`dvbt2_paprtr`, GRC's `dtv_dvbt2_paprtr_cc`) lowers the symbols' peaks by
//! tone reservation (clause 9.6.2).
//! [`FftSize`] and the `params` words are the settings these blocks share. The bytes side up to the QAM mapper is in
//! `radioflow-dvbs2`, whose FEC chain DVB-T2 shares.
//!
//! ```
//! use num_complex::Complex32;
//! use radioflow_dvbt2::CellInterleaver;
//!
//! let mut ci = CellInterleaver::new("short", "qpsk", 4, 2)?;
//! let cells = vec![Complex32::new(1.0, -1.0); ci.frame_cells()];
//! let mut out = vec![Complex32::new(0.0, 0.0); ci.frame_cells()];
//! ci.interleave(&cells, &mut out);
//! assert_eq!(out, cells);
//! # Ok::<(), radioflow_dvbt2::SettingsError>(())
//! ```

mod blocks;
mod cell_interleaver;
mod error;
mod frame_builder;
mod freq_interleaver;
mod l1_coding;
mod l1_signalling;
mod p1;
mod p1_tables;
mod params;
mod pilot_map;
mod pilot_tables;
mod prbs;
mod symbol_cells;
mod tone_reservation;

pub use blocks::{
    Dvbt2CellInterleaver, Dvbt2FrameMapper, Dvbt2FreqInterleaver, Dvbt2Miso, Dvbt2P1Insertion,
    Dvbt2Paprtr, Dvbt2PilotGenerator,
};
pub use cell_interleaver::{CellInterleaver, MAX_FEC_BLOCKS};
pub use error::SettingsError;
pub use frame_builder::{FrameBuilder, TooManyCells};
pub use freq_interleaver::FreqInterleaver;
pub use p1::{p1_symbol, P1_LEN};
pub use params::{FftSize, GuardInterval, FFT_WORDS};
pub use symbol_cells::SymbolCells;
