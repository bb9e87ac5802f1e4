//! [`ZmqSource`]: receives a stream over ZeroMQ like gr-zeromq's `sub_source`, `pull_source`
//! and `req_source`.

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
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// - `out`: `T`, the items received.
///
/// # Message ports
/// None.
///
/// # Parameters
/// - `address`, `pattern` ([`Pattern`]: `sub`, `pull`, `req`).
/// - [`bind`](Self::bind) (default `false`, as in GNU Radio), [`timeout_ms`](Self::timeout_ms)
///   (100), [`hwm`](Self::hwm), [`pass_tags`](Self::pass_tags), [`key`](Self::key),
///   [`drop_malformed`](Self::drop_malformed) (`false`).
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen).
#[derive(Debug, Ports)]
pub struct ZmqSource<T: Item> {
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

    /// Bind the address or connect to it (`false`, the default).
    pub fn bind(mut self, bind: bool) -> Self {
        self.config.bind = bind;
        self
    }

    /// How long one wait for a message lasts before the stop flag is looked at.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.config.timeout_ms = ms;
        self
    }

    /// The socket's high-water mark, in messages (`None`: ZeroMQ's default, 1000).
    pub fn hwm(mut self, hwm: Option<i32>) -> Self {
        self.config.hwm = hwm;
        self
    }

    /// Expect GNU Radio's tag header before the items of each message.
    pub fn pass_tags(mut self, pass: bool) -> Self {
        self.pass_tags = pass;
        self
    }

    /// SUB: the key (topic) to subscribe to (empty, the default: everything).
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.config.key = key.into();
        self
    }

    /// Drop a malformed message (logged and counted) instead of stopping the graph: for a
    /// socket that anything on the network can send to.
    pub fn drop_malformed(mut self, drop: bool) -> Self {
        self.drop_malformed = drop;
        self
    }

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
            self.output.add_tag(tag.offset, tag.key, tag.value);
        }
        self.output.produce(n);
    }
}

register_block!(BlockDescription {
    id: "zmq_source",
    summary: "Items received over ZeroMQ (SUB, PULL or REQ), wire-compatible with gr-zeromq's \
              stream sources, optionally with GNU Radio's tag header.",
    dtypes: Dtype::ALL,
    params: &[
        params::ADDRESS,
        params::pattern(Pattern::SOURCE_WORDS, "sub"),
        params::bind(false),
        params::TIMEOUT_MS,
        params::HWM,
        ParamDescription::optional(
            "pass_tags",
            ParamKind::Bool,
            DefaultValue::Bool(false),
            "expect GNU Radio's tag header"
        ),
        params::KEY,
        params::DROP_MALFORMED,
    ],
    ports: declared_ports::<ZmqSource<f32>>,
    make: |a| {
        let (address, pattern) = params::endpoint(a)?;
        let bind = a.bool("bind")?;
        let timeout = a.u64("timeout_ms")?;
        let hwm = params::hwm(a)?;
        let pass_tags = a.bool("pass_tags")?;
        let key = a.word("key")?.to_owned();
        let drop = a.bool("drop_malformed")?;
        Ok(with_dtype!(a.item_dtype()?, T => Box::new(
            ZmqSource::<T>::new(address.clone(), pattern)
                .bind(bind)
                .timeout_ms(timeout)
                .hwm(hwm)
                .pass_tags(pass_tags)
                .key(key.clone())
                .drop_malformed(drop)
        ) as Box<dyn Block>))
    },
});
