//! gr-dtv's DVB-T2 OFDM blocks as blocks of a streaming graph, one per file.

mod cell_interleaver;
mod frame_mapper;
mod freq_interleaver;
mod miso;
mod p1_insertion;
mod paprtr;
mod pilot_generator;

pub use cell_interleaver::Dvbt2CellInterleaver;
pub use frame_mapper::Dvbt2FrameMapper;
pub use freq_interleaver::Dvbt2FreqInterleaver;
pub use miso::Dvbt2Miso;
pub use p1_insertion::Dvbt2P1Insertion;
pub use paprtr::Dvbt2Paprtr;
pub use pilot_generator::Dvbt2PilotGenerator;
