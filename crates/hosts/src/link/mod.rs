//! The ZeroMQ links that replace a connection cut between two hosts: a PUSH socket on the
//! sending host (connecting), a PULL socket on the receiving host (bound to an ephemeral port
//! when the part is built). PUSH/PULL never drops: a full queue holds the sender back, so no
//! item is lost however slow the receiver is.
//!
//! Frames are gr-zeromq's: a stream frame is GNU Radio's tag header (always sent on a link)
//! then whole items; a message frame is `pmt::serialize(msg)`. gr-zeromq has no end of
//! stream, so a link adds one: the two-frame ZeroMQ message [`EOS_MARKER`] + the `u64`
//! (little-endian) count of items or messages sent. Data messages are always one frame, so
//! the marker cannot be mistaken for data; the receiver checks the count against what it
//! received before it ends.
//!
//! `end.rs`: one end of a link (its socket, the marker); one block per file for each end of a
//! stream or message link.

mod end;
mod message_sink;
mod message_source;
mod stream_sink;
mod stream_source;

pub use end::EOS_MARKER;
pub(crate) use end::{LinkEnd, LinkFlags};
pub(crate) use message_sink::LinkMessageSink;
pub(crate) use message_source::LinkMessageSource;
pub(crate) use stream_sink::LinkSink;
pub(crate) use stream_source::LinkSource;
