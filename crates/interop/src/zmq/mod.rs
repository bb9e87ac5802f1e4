//! ZeroMQ blocks, wire-compatible with GNU Radio's gr-zeromq: streams with or without GNU
//! Radio's tag header, and PMT messages.

mod builders;
mod message_sink;
mod message_source;
mod sink;
mod socket;
mod source;
pub mod tag_header;

pub use message_sink::ZmqMessageSink;
pub use message_source::ZmqMessageSource;
pub use sink::ZmqSink;
pub use socket::{Pattern as ZmqPattern, SocketConfig as ZmqSocketConfig};
pub use source::ZmqSource;
