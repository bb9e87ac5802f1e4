//! gr-dtv's ATSC transmitter blocks as blocks of a streaming graph, one per file.

mod field_sync_mux;
mod interleaver;
mod pad;
mod randomizer;
mod rs_encoder;
mod trellis_encoder;

pub use field_sync_mux::AtscFieldSyncMux;
pub use interleaver::AtscInterleaver;
pub use pad::AtscPad;
pub use randomizer::AtscRandomizer;
pub use rs_encoder::AtscRsEncoder;
pub use trellis_encoder::AtscTrellisEncoder;
