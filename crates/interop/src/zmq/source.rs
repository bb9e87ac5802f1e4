//! [`ZmqSource`]: receives a stream over ZeroMQ like gr-zeromq's `sub_source`, `pull_source`
//! and `req_source`.

use super::builders::socket_builders;
use super::socket::{params, Pattern, Socket, SocketConfig};
use super::tag_header::{self, DroppedFrames};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Receives items from a ZeroMQ socket, wire-compatible with gr-zeromq's stream sources (it
/// receives what GNU Radio's `pub_sink`, `push_sink` or `rep_sink`, or
/// [`ZmqSink`](crate::ZmqSink), sends). With [`pass_tags`](Self::pass_tags) every message
/// must start with GNU Radio's tag header; its tags are put on the same items of the output
/// (offsets moved from the sender's stream to this one). A malformed message (no header when
/// one is expected, a tag on no item of the message, items that are not a whole number of `T`;
/// see [`decode_frame`](tag_header::decode_frame)) stops the graph with an error naming the
/// block and address, or, with [`drop_malformed`](Self::drop_malformed), is dropped, logged and
/// counted ([`dropped_frames`](Self::dropped_frames)).
///
/// - `sub`: subscribes to the [`key`](Self::key) (empty: everything); a message of two frames
///   is a key and the data.
/// - `pull`: takes its share of what pushers send.
/// - `req`: asks a REP sink for as many items as the output has room for (a `u32` count),
///   then waits for the answer.
///
/// Like GNU Radio's, it never ends by itself: stop the graph, or end it downstream (a
/// [`Head`](radioflow_blocks::Head)).
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen). The parameters
/// with a default are builder methods of the same name.
#[library_block(
    id = "zmq_source",
    summary = "Items received over ZeroMQ (SUB, PULL or REQ), wire-compatible with gr-zeromq's \
               stream sources, optionally with GNU Radio's tag header.",
    dtypes = all,
    make = Self::new(params::address(address)?, pattern)
        .bind(bind)
        .timeout_ms(timeout_ms)
        .hwm(params::hwm(hwm))
        .pass_tags(pass_tags)
        .key(key)
        .drop_malformed(drop_malformed)
)]
#[param(address: String, example = "tcp://127.0.0.1:5555", doc = "the ZeroMQ endpoint")]
#[param(pattern: Pattern = "sub", words = ["sub", "pull", "req"], doc = "the socket type")]
#[param(bind: bool = false, doc = "bind the address (else connect)")]
#[param(timeout_ms: u64 = 100, min = 1, doc = "milliseconds one wait lasts")]
#[param(hwm: i64 = -1, min = -1, doc = "high-water mark in messages (-1: ZeroMQ's)")]
#[param(pass_tags: bool = false, doc = "expect GNU Radio's tag header")]
#[param(
    key: String = "",
    doc = "PUB/SUB: the topic sent as a frame before each message, or subscribed to (empty: none / everything)"
)]
#[param(
    drop_malformed: bool = false,
    doc = "drop (log and count) a malformed message instead of stopping the graph"
)]
#[derive(Debug)]
pub struct ZmqSource<T: Item> {
    /// The items received.
    #[output(name = "out")]
    output: StreamOutput<T>,
    config: SocketConfig,
    pass_tags: bool,
    drop_malformed: bool,
    dropped: DroppedFrames,
    socket: Option<Socket>,
    /// Bytes of a message not yet written out (a message larger than the room there was).
    pending: Vec<u8>,
    /// How much of `pending` was written.
    pending_pos: usize,
    /// Tags of `pending`, with offsets in this block's output stream, in order.
    pending_tags: Vec<Tag>,
    /// A REQ source sent a request and waits for the answer.
    requested: bool,
}

#[block(blocking)]
impl<T: Item> ZmqSource<T> {
    /// A source for `address` with `pattern`, connecting, with gr-zeromq's defaults otherwise.
    pub fn new(address: impl Into<String>, pattern: Pattern) -> Self {
        Self {
            output: StreamOutput::new(),
            config: SocketConfig::new(address, pattern, false),
            pass_tags: false,
            drop_malformed: false,
            dropped: DroppedFrames::default(),
            socket: None,
            pending: Vec::new(),
            pending_pos: 0,
            pending_tags: Vec::new(),
            requested: false,
        }
    }

    socket_builders!(bind, timeout_ms, hwm, pass_tags, key, drop_malformed);

    /// Messages dropped as malformed (with [`drop_malformed`](Self::drop_malformed)).
    pub fn dropped_frames(&self) -> u64 {
        self.dropped.count()
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.socket = Some(Socket::open("zmq_source", &self.config, false)?);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        if let Some(socket) = self.socket.take() {
            self.dropped.finish(&socket.who);
        }
        Ok(())
    }

    /// Waits (in slices of the timeout) until a message comes, the graph is stopped or every
    /// reader is gone: the runtime calls a source again only when its output changes, which a
    /// socket does not do.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let room = self.output.slice().len();
        if room == 0 {
            return Ok(WorkStatus::Continue);
        }
        while self.pending_pos == self.pending.len() {
            if stop_requested() || self.output.readers_gone() {
                return Ok(WorkStatus::Continue);
            }
            self.receive(room)?;
        }
        self.write_pending();
        Ok(WorkStatus::Continue)
    }

    /// Receives the next message into `pending`; `false` if none came within the timeout.
    fn receive(&mut self, room: usize) -> Result<bool, BlockError> {
        let Some(socket) = &self.socket else {
            return Err(BlockError::msg("zmq_source: work before start"));
        };
        if self.config.pattern == Pattern::ReqRep && !self.requested {
            let want = room.min(u32::MAX as usize) as u32;
            if !socket.send(&[&want.to_le_bytes()])? {
                return Ok(false);
            }
            self.requested = true;
        }
        let Some(mut frames) = socket.recv()? else {
            return Ok(false);
        };
        self.requested = false;
        let Some(data) = frames.pop() else {
            return Ok(false);
        };
        let decoded = tag_header::decode_frame(
            &data,
            self.pass_tags,
            std::mem::size_of::<T>(),
            self.output.offset(),
            &mut self.pending_tags,
        );
        match decoded {
            Ok(start) => {
                self.pending = data;
                self.pending_pos = start;
                Ok(true)
            }
            Err(e) if self.drop_malformed => {
                self.dropped.drop_frame(&socket.who, &e);
                Ok(false)
            }
            Err(e) => Err(socket.error(format!("a malformed message: {e}"))),
        }
    }

    /// Writes as much of `pending` as there is room for, with its tags.
    fn write_pending(&mut self) {
        let size = std::mem::size_of::<T>();
        let out = bytemuck::cast_slice_mut::<T, u8>(self.output.slice());
        let n = ((self.pending.len() - self.pending_pos) / size).min(out.len() / size);
        let bytes = n * size;
        out[..bytes].copy_from_slice(&self.pending[self.pending_pos..self.pending_pos + bytes]);
        self.pending_pos += bytes;
        let end = self.output.offset() + n as u64;
        let take = self.pending_tags.partition_point(|t| t.offset < end);
        for tag in self.pending_tags.drain(..take) {
            self.output.push_tag(tag);
        }
        self.output.produce(n);
    }
}
