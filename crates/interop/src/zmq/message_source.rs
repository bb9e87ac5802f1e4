//! [`ZmqMessageSource`]: receives messages over ZeroMQ like gr-zeromq's `sub_msg_source`,
//! `pull_msg_source` and `req_msg_source`.

use super::builders::socket_builders;
use super::socket::{params, Pattern, Socket, SocketConfig};
use super::tag_header::DroppedFrames;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Posts every ZeroMQ frame it receives, decoded as a PMT serialized by GNU Radio's
/// `pmt::serialize`, on its `out` port, like gr-zeromq's message sources. A `req` source
/// asks for each message with a request holding the 4-byte count 1, as GNU Radio's does. A
/// frame that is not a whole PMT stops the graph with an error naming the block and address,
/// or, with [`drop_malformed`](Self::drop_malformed), is dropped, logged and counted
/// ([`dropped_frames`](Self::dropped_frames)). It never ends by itself: stop the graph.
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen). The parameters
/// with a default are builder methods of the same name.
#[library_block(
    id = "zmq_message_source",
    summary = "Messages received over ZeroMQ (SUB, PULL or REQ), one serialized PMT per frame, \
               like gr-zeromq's message sources.",
    make = Self::new(params::address(address)?, pattern)
        .bind(bind)
        .timeout_ms(timeout_ms)
        .drop_malformed(drop_malformed)
)]
#[param(address: String, example = "tcp://127.0.0.1:5555", doc = "the ZeroMQ endpoint")]
#[param(pattern: Pattern = "sub", words = ["sub", "pull", "req"], doc = "the socket type")]
#[param(bind: bool = false, doc = "bind the address (else connect)")]
#[param(timeout_ms: u64 = 100, min = 1, doc = "milliseconds one wait lasts")]
#[param(
    drop_malformed: bool = false,
    doc = "drop (log and count) a malformed message instead of stopping the graph"
)]
#[derive(Debug)]
pub struct ZmqMessageSource {
    /// The messages.
    #[message_output]
    out: MessageOutput,
    config: SocketConfig,
    socket: Option<Socket>,
    requested: bool,
    drop_malformed: bool,
    dropped: DroppedFrames,
}

#[block(blocking)]
impl ZmqMessageSource {
    /// A source for `address` with `pattern`, connecting.
    pub fn new(address: impl Into<String>, pattern: Pattern) -> Self {
        Self {
            out: MessageOutput::new(),
            config: SocketConfig::new(address, pattern, false),
            socket: None,
            requested: false,
            drop_malformed: false,
            dropped: DroppedFrames::default(),
        }
    }

    socket_builders!(bind, timeout_ms, drop_malformed);

    /// Frames dropped as malformed (with [`drop_malformed`](Self::drop_malformed)).
    pub fn dropped_frames(&self) -> u64 {
        self.dropped.count()
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.socket = Some(Socket::open("zmq_message_source", &self.config, false)?);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if let Some(socket) = self.socket.take() {
            self.dropped.finish(&socket.who);
        }
        Ok(())
    }

    /// Receives and posts messages until the graph is stopped: a block without stream ports
    /// is called again only when something changes, and nothing does when a socket receives,
    /// so `work` stays (waiting in 50 ms slices) until a stop.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while !stop_requested() {
            self.receive_one()?;
        }
        Ok(WorkStatus::Continue)
    }

    /// Waits up to the timeout for one message and posts it.
    fn receive_one(&mut self) -> Result<(), BlockError> {
        let Some(socket) = &self.socket else {
            return Err(BlockError::msg("zmq_message_source: work before start"));
        };
        if self.config.pattern == Pattern::ReqRep && !self.requested {
            if !socket.send(&[&1u32.to_le_bytes()])? {
                return Ok(());
            }
            self.requested = true;
        }
        let Some(frames) = socket.recv()? else {
            return Ok(());
        };
        self.requested = false;
        let Some(frame) = frames.last() else {
            return Ok(());
        };
        match Pmt::from_bytes(frame) {
            Ok(msg) => self.out.post(msg),
            Err(e) => {
                let why = format!("a frame of {} bytes is not a PMT: {e}", frame.len());
                if !self.drop_malformed {
                    return Err(socket.error(why));
                }
                self.dropped.drop_frame(&socket.who, &why);
            }
        }
        Ok(())
    }
}
