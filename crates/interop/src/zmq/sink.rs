//! [`ZmqSink`]: sends a stream over ZeroMQ like gr-zeromq's `pub_sink`, `push_sink` and
//! `rep_sink`.

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
/// # Stream inputs
/// - `in`: `T`, the items to send.
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// None.
///
/// # Parameters
/// - `address`: the ZeroMQ endpoint (`tcp://127.0.0.1:5555`, `ipc:///tmp/x`).
/// - `pattern`: [`Pattern`] (`pub`, `push`, `rep`).
/// - [`bind`](Self::bind) (default `true`, as in GNU Radio), [`timeout_ms`](Self::timeout_ms)
///   (100), [`hwm`](Self::hwm) (ZeroMQ's), [`pass_tags`](Self::pass_tags) (`false`),
///   [`key`](Self::key) (none), [`drop_on_hwm`](Self::drop_on_hwm) (`true`).
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen).
#[derive(Debug, Ports)]
pub struct ZmqSink<T: Item> {
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

    /// Bind the address (`true`, the default) or connect to it.
    pub fn bind(mut self, bind: bool) -> Self {
        self.config.bind = bind;
        self
    }

    /// How long one wait for room or a request lasts before the stop flag is looked at.
    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.config.timeout_ms = ms;
        self
    }

    /// The socket's high-water mark, in messages (`None`: ZeroMQ's default, 1000).
    pub fn hwm(mut self, hwm: Option<i32>) -> Self {
        self.config.hwm = hwm;
        self
    }

    /// Send GNU Radio's tag header (and the tags) before the items of each message.
    pub fn pass_tags(mut self, pass: bool) -> Self {
        self.pass_tags = pass;
        self
    }

    /// PUB: send `key` as a frame of its own before each message (empty: none).
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.config.key = key.into();
        self
    }

    /// PUB: drop messages for subscribers at their high-water mark (`true`, ZeroMQ's
    /// behaviour) or wait for them (`ZMQ_XPUB_NODROP`).
    pub fn drop_on_hwm(mut self, drop: bool) -> Self {
        self.config.drop_on_hwm = drop;
        self
    }

    fn start(&mut self) -> Result<(), BlockError> {
        self.socket = Some(Socket::open("zmq_sink", &self.config, true)?);
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.socket = None;
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

register_block!(BlockDescription {
    id: "zmq_sink",
    summary: "Sends items over ZeroMQ (PUB, PUSH or REP), wire-compatible with gr-zeromq's \
              stream sinks, optionally with GNU Radio's tag header.",
    dtypes: Dtype::ALL,
    params: &[
        params::ADDRESS,
        params::pattern(Pattern::SINK_WORDS, "pub"),
        params::bind(true),
        params::TIMEOUT_MS,
        params::HWM,
        ParamDescription::optional(
            "pass_tags",
            ParamKind::Bool,
            DefaultValue::Bool(false),
            "send GNU Radio's tag header"
        ),
        ParamDescription::optional(
            "drop_on_hwm",
            ParamKind::Bool,
            DefaultValue::Bool(true),
            "PUB: drop at the high-water mark (else wait)"
        ),
        params::KEY,
    ],
    ports: declared_ports::<ZmqSink<f32>>,
    make: |a| {
        let (address, pattern) = params::endpoint(a)?;
        let bind = a.bool("bind")?;
        let timeout = a.u64("timeout_ms")?;
        let hwm = params::hwm(a)?;
        let pass_tags = a.bool("pass_tags")?;
        let key = a.word("key")?.to_owned();
        let drop = a.bool("drop_on_hwm")?;
        Ok(with_dtype!(a.item_dtype()?, T => Box::new(
            ZmqSink::<T>::new(address.clone(), pattern)
                .bind(bind)
                .timeout_ms(timeout)
                .hwm(hwm)
                .pass_tags(pass_tags)
                .drop_on_hwm(drop)
                .key(key.clone())
        ) as Box<dyn Block>))
    },
});
