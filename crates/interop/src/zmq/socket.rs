//! What the ZeroMQ blocks share: the socket patterns, their options (gr-zeromq's parameters),
//! opening a socket, and waiting on it so that a stop request is seen.

use radioflow_runtime::{stop_requested, BlockError};
use std::time::{Duration, Instant};

/// How long one wait on a socket lasts before the stop flag is looked at again.
const POLL_SLICE_MS: i64 = 50;

/// How long a closing sink's socket keeps trying to deliver what it queued when the graph was
/// stopped (or failed): gr-zeromq's second.
const SINK_LINGER_MS: i32 = 1000;

/// How long a sink's socket keeps trying to deliver what it queued when its stream ended: the
/// last messages are the data's end, and a peer on a loaded machine may take more than a
/// second to read them (a lost last reply once left a GNU Radio REQ source 1,707 items short).
const SINK_END_LINGER_MS: i32 = 10_000;

/// The ZeroMQ socket patterns of gr-zeromq's blocks, for the sending or receiving side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// PUB (sink) / SUB (source).
    PubSub,
    /// PUSH (sink) / PULL (source).
    PushPull,
    /// REP (sink: answers requests) / REQ (source: asks for items).
    ReqRep,
}

impl std::str::FromStr for Pattern {
    type Err = String;

    /// A sink's or a source's word (`pub`, `sub`, `push`, ...).
    fn from_str(word: &str) -> Result<Self, Self::Err> {
        Self::parse(word).ok_or_else(|| format!("no ZeroMQ pattern '{word}'"))
    }
}

impl Pattern {
    /// The sink side's names, for a `Choice` parameter.
    pub const SINK_WORDS: &'static [&'static str] = &["pub", "push", "rep"];
    /// The source side's names, for a `Choice` parameter.
    pub const SOURCE_WORDS: &'static [&'static str] = &["sub", "pull", "req"];

    /// The pattern named by a sink or source word (`pub`, `sub`, `push`, ...).
    pub fn parse(word: &str) -> Option<Self> {
        Some(match word {
            "pub" | "sub" => Pattern::PubSub,
            "push" | "pull" => Pattern::PushPull,
            "rep" | "req" => Pattern::ReqRep,
            _ => return None,
        })
    }

    fn sink_type(self) -> zmq::SocketType {
        match self {
            Pattern::PubSub => zmq::PUB,
            Pattern::PushPull => zmq::PUSH,
            Pattern::ReqRep => zmq::REP,
        }
    }

    fn source_type(self) -> zmq::SocketType {
        match self {
            Pattern::PubSub => zmq::SUB,
            Pattern::PushPull => zmq::PULL,
            Pattern::ReqRep => zmq::REQ,
        }
    }

    /// The socket name of the side (`PUB`, `SUB`, ...).
    pub fn name(self, sink: bool) -> &'static str {
        match (self, sink) {
            (Pattern::PubSub, true) => "PUB",
            (Pattern::PubSub, false) => "SUB",
            (Pattern::PushPull, true) => "PUSH",
            (Pattern::PushPull, false) => "PULL",
            (Pattern::ReqRep, true) => "REP",
            (Pattern::ReqRep, false) => "REQ",
        }
    }
}

/// A ZeroMQ block's socket settings (gr-zeromq's parameters).
#[derive(Clone, Debug)]
pub struct SocketConfig {
    /// The endpoint (`tcp://127.0.0.1:5555`, `ipc:///tmp/x`, `inproc://name`).
    pub address: String,
    /// The pattern.
    pub pattern: Pattern,
    /// Bind the address (else connect to it).
    pub bind: bool,
    /// How long one send or receive waits, in milliseconds (gr-zeromq's `timeout`, 100 there).
    pub timeout_ms: u64,
    /// The high-water mark in messages; `None` keeps ZeroMQ's default (1000), like gr-zeromq's
    /// `hwm = -1`.
    pub hwm: Option<i32>,
    /// PUB/SUB: the key (topic) sent as a frame of its own before each message, or subscribed
    /// to; empty for none / everything.
    pub key: String,
    /// PUB sink: drop messages when a subscriber is at its high-water mark (ZeroMQ's PUB
    /// behaviour) rather than wait (`ZMQ_XPUB_NODROP`, as gr-zeromq sets).
    pub drop_on_hwm: bool,
}

impl SocketConfig {
    /// The settings of gr-zeromq's blocks: sinks bind and sources connect, 100 ms timeout,
    /// ZeroMQ's high-water mark, no key, dropping at the high-water mark.
    pub fn new(address: impl Into<String>, pattern: Pattern, bind: bool) -> Self {
        Self {
            address: address.into(),
            pattern,
            bind,
            timeout_ms: 100,
            hwm: None,
            key: String::new(),
            drop_on_hwm: true,
        }
    }
}

/// An open socket and what it needs to report errors.
pub(crate) struct Socket {
    /// The socket.
    pub(crate) socket: zmq::Socket,
    /// `zmq_sink tcp://...`, for errors.
    pub(crate) who: String,
    /// The settings it was opened with.
    pub(crate) config: SocketConfig,
    // Keeps the context alive as long as the socket.
    _context: zmq::Context,
}

impl std::fmt::Debug for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Socket")
            .field("who", &self.who)
            .finish_non_exhaustive()
    }
}

impl Socket {
    /// Closes a sink's socket from its block's `stop` hook: after the end of its stream it
    /// keeps up to ten seconds to hand over what it queued (returning as soon as it did);
    /// when the graph was stopped, gr-zeromq's one second.
    pub(crate) fn close_sink(self) {
        if !radioflow_runtime::stop_requested() {
            // A socket that refuses (it cannot here) keeps the second it was opened with.
            let _ = self.socket.set_linger(SINK_END_LINGER_MS);
        }
    }

    /// Opens, configures and binds or connects the socket of block kind `block` (for errors),
    /// on the sink side if `sink`.
    ///
    /// # Errors
    /// ZeroMQ refuses an option, the address, the bind (port in use) or the connect; the error
    /// names the block, socket and address.
    pub(crate) fn open(block: &str, config: &SocketConfig, sink: bool) -> Result<Self, BlockError> {
        let kind = config.pattern.name(sink);
        let who = format!("{block} ({kind} {})", config.address);
        let fail = |what: &str, e: zmq::Error| BlockError::msg(format!("{who}: {what}: {e}"));
        let context = zmq::Context::new();
        let ty = if sink {
            config.pattern.sink_type()
        } else {
            config.pattern.source_type()
        };
        let mut socket = context.socket(ty).map_err(|e| fail("socket", e))?;
        // A sink that ends keeps up to a second to hand over what it queued; a source drops
        // what it did not read.
        let linger = if sink { SINK_LINGER_MS } else { 0 };
        socket.set_linger(linger).map_err(|e| fail("linger", e))?;
        if let Some(hwm) = config.hwm {
            socket
                .set_sndhwm(hwm)
                .map_err(|e| fail("send high-water mark", e))?;
            socket
                .set_rcvhwm(hwm)
                .map_err(|e| fail("receive high-water mark", e))?;
        }
        if config.pattern == Pattern::PubSub && sink && !config.drop_on_hwm {
            set_xpub_nodrop(&mut socket).map_err(|e| fail("no-drop (ZMQ_XPUB_NODROP)", e))?;
        }
        if config.pattern == Pattern::PubSub && !sink {
            socket
                .set_subscribe(config.key.as_bytes())
                .map_err(|e| fail("subscribe", e))?;
        }
        if config.bind {
            socket.bind(&config.address).map_err(|e| fail("bind", e))?;
        } else {
            socket
                .connect(&config.address)
                .map_err(|e| fail("connect", e))?;
        }
        Ok(Self {
            socket,
            who,
            config: config.clone(),
            _context: context,
        })
    }

    /// An error naming the block and socket.
    pub(crate) fn error(&self, message: impl std::fmt::Display) -> BlockError {
        BlockError::msg(format!("{}: {message}", self.who))
    }

    /// Waits up to `timeout` (in slices, looking at the stop flag between them) until the
    /// socket can receive (`events = POLLIN`) or send (`POLLOUT`). `Ok(false)`: it cannot yet.
    ///
    /// # Errors
    /// The poll failed.
    pub(crate) fn wait(
        &self,
        events: zmq::PollEvents,
        timeout: Duration,
    ) -> Result<bool, BlockError> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let slice = (left.as_millis() as i64).min(POLL_SLICE_MS);
            let mut items = [self.socket.as_poll_item(events)];
            let n = zmq::poll(&mut items, slice).map_err(|e| self.error(format!("poll: {e}")))?;
            if n > 0 {
                return Ok(true);
            }
            if left.is_zero() || stop_requested() {
                return Ok(false);
            }
        }
    }

    /// Receives every frame of the next message, if one arrives within the timeout.
    ///
    /// # Errors
    /// Receiving failed.
    pub(crate) fn recv(&self) -> Result<Option<Vec<Vec<u8>>>, BlockError> {
        let timeout = Duration::from_millis(self.config.timeout_ms);
        if !self.wait(zmq::POLLIN, timeout)? {
            return Ok(None);
        }
        match self.socket.recv_multipart(zmq::DONTWAIT) {
            Ok(frames) => Ok(Some(frames)),
            Err(zmq::Error::EAGAIN) => Ok(None),
            Err(e) => Err(self.error(format!("receive: {e}"))),
        }
    }

    /// Sends `frames` as one message, waiting up to the timeout while the socket is full (or,
    /// REQ and PUSH, has no peer yet). Returns `false` if it could not send in that time or a
    /// stop came first: the caller tries again on its next call, so a block never hangs on a
    /// peer that went away. A PUB socket never waits: it drops the message for subscribers at
    /// their high-water mark (unless `drop_on_hwm` is off).
    ///
    /// # Errors
    /// Sending failed.
    pub(crate) fn send(&self, frames: &[&[u8]]) -> Result<bool, BlockError> {
        let end = Instant::now() + Duration::from_millis(self.config.timeout_ms.max(1));
        loop {
            match self
                .socket
                .send_multipart(frames.iter().copied(), zmq::DONTWAIT)
            {
                Ok(()) => return Ok(true),
                Err(zmq::Error::EAGAIN) => {
                    let left = end.saturating_duration_since(Instant::now());
                    if left.is_zero() || stop_requested() {
                        return Ok(false);
                    }
                    self.wait(zmq::POLLOUT, left)?;
                }
                Err(e) => return Err(self.error(format!("send: {e}"))),
            }
        }
    }
}

/// Makes a PUB socket wait (send fails with `EAGAIN`) instead of dropping when a subscriber is
/// at its high-water mark: `ZMQ_XPUB_NODROP`, which libzmq's PUB accepts (it is an XPUB) and
/// gr-zeromq's `pub_sink` sets when `drop_on_hwm` is off. The `zmq` crate has no setter.
fn set_xpub_nodrop(socket: &mut zmq::Socket) -> Result<(), zmq::Error> {
    let on: CInt = 1;
    // SAFETY: `as_mut_ptr` is the live socket handle owned by `socket` (borrowed mutably for
    // the call); the option value points to an `int` that outlives the call, with its size.
    let rc = unsafe {
        zmq_sys::zmq_setsockopt(
            socket.as_mut_ptr(),
            zmq_sys::ZMQ_XPUB_NODROP as _,
            (&on as *const CInt).cast(),
            std::mem::size_of::<CInt>(),
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        // SAFETY: `zmq_errno` only reads the calling thread's error number.
        Err(zmq::Error::from_raw(unsafe { zmq_sys::zmq_errno() }))
    }
}

/// C's `int`, the type of ZeroMQ's integer options.
type CInt = std::os::raw::c_int;

/// The registry's values of the ZeroMQ blocks' parameters (gr-zeromq's names), as the blocks'
/// builders take them.
pub(crate) mod params {
    use radioflow_runtime::registry::Refused;

    /// `address` as given, refused when empty.
    pub(crate) fn address(address: String) -> Result<String, Refused> {
        if address.is_empty() {
            return Err(Refused::param(
                "address",
                "needs an endpoint (tcp://HOST:PORT, ipc://PATH)",
            ));
        }
        Ok(address)
    }

    /// `hwm` as an option: gr-zeromq's -1 (ZeroMQ's default) is `None`.
    pub(crate) fn hwm(hwm: i64) -> Option<i32> {
        (hwm >= 0).then(|| hwm.min(i64::from(i32::MAX)) as i32)
    }
}
