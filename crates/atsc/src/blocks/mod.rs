//! gr-dtv's ATSC transmitter blocks (and the receiver's from the deinterleaver on) as blocks of a streaming graph, one per file.

mod deinterleaver;
mod depad;
mod derandomizer;
mod field_sync_mux;
mod interleaver;
mod pad;
mod plinfo_ports;
mod randomizer;
mod rs_decoder;
mod rs_encoder;
mod trellis_encoder;

pub use deinterleaver::AtscDeinterleaver;
pub use depad::AtscDepad;
pub use derandomizer::AtscDerandomizer;
pub use field_sync_mux::AtscFieldSyncMux;
pub use interleaver::AtscInterleaver;
pub use pad::AtscPad;
pub use randomizer::AtscRandomizer;
pub use rs_decoder::AtscRsDecoder;
pub use rs_encoder::AtscRsEncoder;
pub use trellis_encoder::AtscTrellisEncoder;
