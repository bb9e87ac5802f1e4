//! [`ZmqSink`]: sends a stream over ZeroMQ like gr-zeromq's `pub_sink`, `push_sink` and
//! `rep_sink`.

use super::builders::socket_builders;
use super::socket::{params, Pattern, Socket, SocketConfig};
use super::tag_header;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends its input over a ZeroMQ socket, wire-compatible with gr-zeromq's stream sinks: every
/// message is one frame of whole items in native byte order, preceded (with
/// [`pass_tags`](Self::pass_tags)) by GNU Radio's tag header carrying the tags of those items,
/// and (PUB with a [`key`](Self::key)) by a frame holding the key. GNU Radio's `sub_source`,
/// `pull_source` or `req_source` (or [`ZmqSource`](crate::ZmqSource)) receives it.
///
/// - `pub`: every subscriber gets every message; a slow subscriber loses messages at its
///   high-water mark unless [`drop_on_hwm`](Self::drop_on_hwm) is off.
/// - `push`: messages go to one puller each, and wait when all are full (back-pressure).
/// - `rep`: waits for a REQ source's request (a `u32` count of items) and answers with at most
///   that many items; a request for 0 items gets an answer of 0 items (as GNU Radio's
///   `rep_sink` gives), and the sink goes on serving.
///
/// The socket is opened (bound or connected) when the graph starts, not when the block is made.
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen). The parameters
/// with a default are builder methods of the same name.
#[library_block(
    id = "zmq_sink",
    summary = "Sends items over ZeroMQ (PUB, PUSH or REP), wire-compatible with gr-zeromq's \
               stream sinks, optionally with GNU Radio's tag header.",
    dtypes = all,
    make = Self::new(params::address(address)?, pattern)
        .bind(bind)
        .timeout_ms(timeout_ms)
        .hwm(params::hwm(hwm))
        .pass_tags(pass_tags)
        .drop_on_hwm(drop_on_hwm)
        .key(key)
)]
#[param(address: String, example = "tcp://127.0.0.1:5555", doc = "the ZeroMQ endpoint")]
#[param(pattern: Pattern = "pub", words = ["pub", "push", "rep"], doc = "the socket type")]
#[param(bind: bool = true, doc = "bind the address (else connect)")]
#[param(timeout_ms: u64 = 100, min = 1, doc = "milliseconds one wait lasts")]
#[param(hwm: i64 = -1, min = -1, doc = "high-water mark in messages (-1: ZeroMQ's)")]
#[param(pass_tags: bool = false, doc = "send GNU Radio's tag header")]
#[param(drop_on_hwm: bool = true, doc = "PUB: drop at the high-water mark (else wait)")]
#[param(
    key: String = "",
    doc = "PUB/SUB: the topic sent as a frame before each message, or subscribed to (empty: none / everything)"
)]
#[derive(Debug)]
pub struct ZmqSink<T: Item> {
    /// The items to send.
    #[input(name = "in")]
    input: StreamInput<T>,
    config: SocketConfig,
    pass_tags: bool,
    socket: Option<Socket>,
    /// The frame being built (reused).
    frame: Vec<u8>,
    /// The tags of the frame being built (reused: no allocation per message).
    tags: Vec<Tag>,
}

#[block(blocking)]
impl<T: Item> ZmqSink<T> {
    /// A sink for `address` with `pattern`, binding, with gr-zeromq's defaults otherwise.
    pub fn new(address: impl Into<String>, pattern: Pattern) -> Self {
        Self {
            input: StreamInput::new(),
            config: SocketConfig::new(address, pattern, true),
            pass_tags: false,
            socket: None,
            frame: Vec::new(),
            tags: Vec::new(),
        }
    }

    socket_builders!(bind, timeout_ms, hwm, pass_tags, key, drop_on_hwm);

    fn start(&mut self) -> Result<(), BlockError> {
        self.socket = Some(Socket::open("zmq_sink", &self.config, true)?);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if let Some(socket) = self.socket.take() {
            socket.close_sink();
        }
        Ok(())
    }

    /// Waits (in slices of the timeout) until the items are sent or the graph is stopped: the
    /// runtime calls a block again only when its input changes, which a socket does not do.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while !stop_requested() {
            if self.input.slice().is_empty() || self.send_some()? {
                break;
            }
        }
        Ok(WorkStatus::Continue)
    }

    /// Sends one message of the items there are (or as many as a request asks for); `false`
    /// if no item went out within the timeout. An answer to a request for 0 items is `false`
    /// too: `work` must go on serving, since returning without consuming anything would leave
    /// the sink waiting for an input change that may never come (a full or finished input).
    fn send_some(&mut self) -> Result<bool, BlockError> {
        let Some(socket) = &self.socket else {
            return Err(BlockError::msg("zmq_sink: work before start"));
        };
        let available = self.input.slice().len();
        let mut n = available;
        if self.config.pattern == Pattern::ReqRep {
            let Some(request) = socket.recv()? else {
                return Ok(false);
            };
            let frame = request.last().map(Vec::as_slice).unwrap_or_default();
            let Ok(bytes) = <[u8; 4]>::try_from(frame) else {
                return Err(socket.error(format!(
                    "a request is a 4-byte item count, got {} bytes",
                    frame.len()
                )));
            };
            n = n.min(u32::from_le_bytes(bytes) as usize);
        }
        let items = &self.input.slice()[..n];
        self.frame.clear();
        if self.pass_tags {
            tag_header::encode_window(
                self.input.offset(),
                n,
                self.input.tags(),
                &mut self.tags,
                &mut self.frame,
            );
        }
        self.frame.extend_from_slice(bytemuck::cast_slice(items));
        let sent = if self.config.pattern == Pattern::PubSub && !self.config.key.is_empty() {
            socket.send(&[self.config.key.as_bytes(), &self.frame])?
        } else {
            socket.send(&[&self.frame])?
        };
        if sent {
            self.input.consume(n);
        }
        Ok(sent && n > 0)
    }
}
