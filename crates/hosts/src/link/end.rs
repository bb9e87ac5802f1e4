//! [`LinkEnd`]: one end of a link as a block sees it (its ZeroMQ socket, its name for errors,
//! the flags it shares with the session), and the end-of-stream marker.

use radioflow_interop::zmq::tag_header::DroppedFrames;
use radioflow_runtime::{stop_requested, BlockError};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// The first frame of the end-of-stream message.
pub const EOS_MARKER: &[u8] = b"radioflow.eos";

/// Frames a sending link's socket queues before it holds the sender back (each at most
/// [`MAX_FRAME_BYTES`]).
const LINK_HWM: i32 = 32;

/// The largest stream frame a link sends, in bytes of items.
pub(crate) const MAX_FRAME_BYTES: usize = 256 * 1024;

/// How long one wait on a link socket lasts before the stop flag is looked at.
const POLL_SLICE_MS: i64 = 50;

/// What the session and a link block tell each other without a lock.
#[derive(Debug, Default)]
pub(crate) struct LinkFlags {
    /// Sending end: the receiving end stopped reading (its readers finished), so the sender
    /// finishes too. Receiving end: set by the block when that happened, for the session to
    /// report.
    closed: AtomicBool,
    /// Receiving end: drop (log and count) frames that cannot be link frames instead of
    /// failing.
    drop_malformed: bool,
    /// Receiving end: frames dropped so far, for the session's report.
    dropped: AtomicU64,
}

impl LinkFlags {
    /// A receiving end's flags; it drops malformed frames if `drop_malformed`.
    pub(crate) fn receiving(drop_malformed: bool) -> Self {
        Self {
            drop_malformed,
            ..Self::default()
        }
    }

    /// Frames the receiving end dropped as malformed.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::Release);
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }
}

/// One end of a link as a block sees it: its socket, its name for errors and its flags.
pub(crate) struct LinkEnd {
    socket: zmq::Socket,
    /// `link 3 (a:src.0 -> b:copy.0)`, for errors.
    who: String,
    flags: Arc<LinkFlags>,
    dropped: DroppedFrames,
}

impl std::fmt::Debug for LinkEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinkEnd").field("who", &self.who).finish()
    }
}

impl LinkEnd {
    /// A receiving end: a PULL socket bound to `ip` on a port the system picks; returns it
    /// and the port.
    ///
    /// # Errors
    /// ZeroMQ refused the socket or the bind.
    pub(crate) fn bind(
        context: &zmq::Context,
        ip: std::net::IpAddr,
        who: String,
        flags: Arc<LinkFlags>,
    ) -> Result<(Self, u16), String> {
        let fail = |what: &str, e: zmq::Error| format!("{who}: {what}: {e}");
        let socket = context.socket(zmq::PULL).map_err(|e| fail("socket", e))?;
        socket.set_linger(0).map_err(|e| fail("linger", e))?;
        socket.set_rcvhwm(LINK_HWM).map_err(|e| fail("hwm", e))?;
        let address = match ip {
            std::net::IpAddr::V4(v4) => format!("tcp://{v4}:*"),
            std::net::IpAddr::V6(v6) => {
                socket.set_ipv6(true).map_err(|e| fail("ipv6", e))?;
                format!("tcp://[{v6}]:*")
            }
        };
        socket.bind(&address).map_err(|e| fail("bind", e))?;
        let bound = socket
            .get_last_endpoint()
            .map_err(|e| fail("endpoint", e))?
            .map_err(|_| format!("{who}: the bound endpoint is not text"))?;
        let port = bound
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("{who}: no port in {bound}"))?;
        Ok((
            Self {
                socket,
                who,
                flags,
                dropped: DroppedFrames::default(),
            },
            port,
        ))
    }

    /// A sending end: a PUSH socket connected to `address`.
    ///
    /// # Errors
    /// ZeroMQ refused the socket or the address.
    pub(crate) fn connect(
        context: &zmq::Context,
        address: &str,
        who: String,
        flags: Arc<LinkFlags>,
    ) -> Result<Self, String> {
        let fail = |what: &str, e: zmq::Error| format!("{who}: {what} {address}: {e}");
        let socket = context.socket(zmq::PUSH).map_err(|e| fail("socket", e))?;
        // The session keeps the socket until every host has finished, so whatever it queued
        // was delivered by then: nothing is left to linger for.
        socket.set_linger(0).map_err(|e| fail("linger", e))?;
        socket.set_sndhwm(LINK_HWM).map_err(|e| fail("hwm", e))?;
        socket.set_ipv6(true).map_err(|e| fail("ipv6", e))?;
        socket.connect(address).map_err(|e| fail("connect", e))?;
        Ok(Self {
            socket,
            who,
            flags,
            dropped: DroppedFrames::default(),
        })
    }

    pub(crate) fn error(&self, message: impl std::fmt::Display) -> BlockError {
        BlockError::msg(format!("{}: {message}", self.who))
    }

    /// A received frame that cannot be a link frame, because of `why`: an error naming the
    /// link, or `Ok` when the link drops such frames (then it is counted and logged).
    pub(crate) fn malformed(&mut self, why: impl std::fmt::Display) -> Result<(), BlockError> {
        if !self.flags.drop_malformed {
            return Err(self.error(why));
        }
        self.dropped.drop_frame(&self.who, &why);
        self.flags
            .dropped
            .store(self.dropped.count(), Ordering::Relaxed);
        Ok(())
    }

    /// Logs the frames dropped, if any (when the receiving block stops).
    pub(crate) fn finish(&self) {
        self.dropped.finish(&self.who);
    }

    /// Sends `frames` as one message, waiting while the queue is full. `false`: the graph
    /// was stopped or the receiving end closed first (nothing was sent).
    pub(crate) fn send(&self, frames: &[&[u8]]) -> Result<bool, BlockError> {
        loop {
            match self
                .socket
                .send_multipart(frames.iter().copied(), zmq::DONTWAIT)
            {
                Ok(()) => return Ok(true),
                Err(zmq::Error::EAGAIN) => {
                    if stop_requested() || self.flags.is_closed() {
                        return Ok(false);
                    }
                    self.poll(zmq::POLLOUT)?;
                }
                Err(e) => return Err(self.error(format!("send: {e}"))),
            }
        }
    }

    /// Sends the end-of-stream marker after `count` items or messages, unless the graph was
    /// stopped (then nobody waits for it).
    pub(crate) fn send_eos(&self, count: u64) -> Result<(), BlockError> {
        if stop_requested() {
            return Ok(());
        }
        self.send(&[EOS_MARKER, &count.to_le_bytes()]).map(drop)
    }

    /// Waits one slice for `events`.
    fn poll(&self, events: zmq::PollEvents) -> Result<bool, BlockError> {
        let mut items = [self.socket.as_poll_item(events)];
        let n =
            zmq::poll(&mut items, POLL_SLICE_MS).map_err(|e| self.error(format!("poll: {e}")))?;
        Ok(n > 0)
    }

    /// Receives the next frame into `msg`, waiting one slice at most. `Ok(None)`: nothing came
    /// (or a malformed message was dropped). `Ok(Some(Some(count)))`: the end-of-stream
    /// marker. `Ok(Some(None))`: a data frame.
    pub(crate) fn recv(
        &mut self,
        msg: &mut zmq::Message,
    ) -> Result<Option<Option<u64>>, BlockError> {
        if !self.poll(zmq::POLLIN)? {
            return Ok(None);
        }
        match self.socket.recv(msg, zmq::DONTWAIT) {
            Ok(()) => {}
            Err(zmq::Error::EAGAIN) => return Ok(None),
            Err(e) => return Err(self.error(format!("receive: {e}"))),
        }
        if !msg.get_more() {
            return Ok(Some(None));
        }
        // Only the end-of-stream marker has two frames.
        let first_is_marker = &**msg == EOS_MARKER;
        self.socket
            .recv(msg, 0)
            .map_err(|e| self.error(format!("receive: {e}")))?;
        let count = <[u8; 8]>::try_from(&**msg).ok().map(u64::from_le_bytes);
        if let (true, Some(n), false) = (first_is_marker, count, msg.get_more()) {
            return Ok(Some(Some(n)));
        }
        // The rest of the message, so that its frames are not taken for the next ones.
        while msg.get_more() {
            self.socket
                .recv(msg, 0)
                .map_err(|e| self.error(format!("receive: {e}")))?;
        }
        *msg = zmq::Message::new();
        self.malformed(
            "a message of several frames that is not the end-of-stream marker \
             (is something other than a radioflow host sending to this link?)",
        )?;
        Ok(None)
    }

    pub(crate) fn flags(&self) -> &LinkFlags {
        &self.flags
    }
}
