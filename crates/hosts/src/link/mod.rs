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
//! A receiving end's port is open to anyone who can reach it. A frame that cannot be a link
//! frame (see [`decode_frame`](radioflow_interop::zmq::tag_header::decode_frame), a message
//! that is not a PMT, several frames that are not the marker) is an error naming the link,
//! or, when the run drops malformed frames (`RunOptions::drop_malformed`), dropped, logged
//! and counted in the host's report. Well-formed frames from a stranger cannot be told from
//! the sender's (the links are not authenticated): the count in the marker then disagrees,
//! which is an error.

mod message_sink;
mod message_source;
mod stream_sink;
mod stream_source;

pub(crate) use message_sink::LinkMessageSink;
pub(crate) use message_source::LinkMessageSource;
pub(crate) use stream_sink::LinkSink;
pub(crate) use stream_source::LinkSource;

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

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_blocks::VectorSink;
    use radioflow_interop::zmq::tag_header::encode;
    use radioflow_runtime::{
        FlowScheduler, Flowgraph, Pmt, RunError, Scheduler, SingleThread, Tag, ThreadPerBlock,
    };
    use std::net::{IpAddr, Ipv4Addr};

    fn schedulers() -> Vec<Box<dyn Scheduler>> {
        vec![
            Box::new(ThreadPerBlock::new()),
            Box::new(SingleThread::new()),
            Box::new(FlowScheduler::new()),
        ]
    }

    fn frame(first: u64, tags: &[Tag], items: std::ops::Range<i32>) -> Vec<u8> {
        let mut f = Vec::new();
        encode(first, tags, &mut f);
        f.extend(items.flat_map(i32::to_le_bytes));
        f
    }

    /// Runs a receiving stream link end (dropping malformed frames if `drop`) to which a
    /// stranger's PUSH socket sends `frames` then the end-of-stream marker after `count`
    /// items: what arrived, the run's result, the frames dropped.
    fn receive(
        s: &dyn Scheduler,
        flags: LinkFlags,
        messages: &[Vec<Vec<u8>>],
        count: u64,
    ) -> (Result<(), RunError>, Vec<i32>, u64) {
        let context = zmq::Context::new();
        let flags = Arc::new(flags);
        let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let (end, port) = LinkEnd::bind(
            &context,
            loopback,
            "link 0 (a:x.0 -> b:y.0)".into(),
            flags.clone(),
        )
        .unwrap();
        let mut fg = Flowgraph::new();
        let src = fg.add(LinkSource::<i32>::new(end));
        let sink = fg.add(VectorSink::<i32>::new());
        fg.connect(src, sink).unwrap();
        fg.start(s).unwrap();
        let push = context.socket(zmq::PUSH).unwrap();
        push.set_sndtimeo(30_000).unwrap();
        push.connect(&format!("tcp://127.0.0.1:{port}")).unwrap();
        for m in messages {
            push.send_multipart(m, 0).unwrap();
        }
        push.send_multipart([EOS_MARKER, &count.to_le_bytes()[..]], 0)
            .unwrap();
        // Bounded: a hang guard, the link ends by its marker or its error.
        let result = fg.wait_timeout(std::time::Duration::from_secs(60));
        let got = fg.block::<VectorSink<i32>>(sink).unwrap().data().to_vec();
        (result, got, flags.dropped())
    }

    #[test]
    fn a_tag_offset_that_would_wrap_is_an_error_naming_the_link() {
        // One frame from anyone who can reach the port used to panic the block (`here +
        // rel` overflowed), stopping the whole run.
        let wrap = Tag::new(u64::MAX, Pmt::symbol("k"), Pmt::Int(1));
        for s in schedulers() {
            let frames = [
                vec![frame(0, &[], 0..10)],
                vec![frame(0, std::slice::from_ref(&wrap), 0..10)],
            ];
            let (result, _, _) = receive(s.as_ref(), LinkFlags::receiving(false), &frames, 20);
            let err = result.unwrap_err().to_string();
            assert!(
                err.contains("link 0 (a:x.0 -> b:y.0)")
                    && err.contains("tag 0 is at offset 18446744073709551615, outside"),
                "{}: {err}",
                s.name()
            );
        }
    }

    #[test]
    fn a_link_dropping_malformed_frames_delivers_the_sender_s_and_counts_the_rest() {
        let tag = |at: u64| Tag::new(at, Pmt::symbol("k"), Pmt::Int(at as i64));
        for s in schedulers() {
            let messages = [
                vec![frame(0, &[tag(3)], 0..10)],
                vec![frame(0, &[tag(u64::MAX)], 0..1)],
                vec![vec![0u8; 40]],
                vec![frame(10, &[], 0..1)[..21].to_vec()],
                vec![b"not".to_vec(), b"the marker".to_vec(), b"!".to_vec()],
                vec![frame(10, &[tag(19)], 10..20)],
            ];
            let (result, got, dropped) =
                receive(s.as_ref(), LinkFlags::receiving(true), &messages, 20);
            result.unwrap_or_else(|e| panic!("{}: {e}", s.name()));
            assert_eq!(got, (0..20).collect::<Vec<_>>(), "{}", s.name());
            assert_eq!(dropped, 4, "{}", s.name());
        }
    }

    #[test]
    fn a_message_link_dropping_malformed_frames_counts_them() {
        // Not under `single`: the link waits on its socket in `work` until its marker, so on
        // the one thread the store would run only after it.
        for s in schedulers().into_iter().filter(|s| s.name() != "single") {
            let context = zmq::Context::new();
            let flags = Arc::new(LinkFlags::receiving(true));
            let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
            let (end, port) =
                LinkEnd::bind(&context, loopback, "link 1".into(), flags.clone()).unwrap();
            let mut fg = Flowgraph::new();
            let src = fg.add(LinkMessageSource::new(end));
            let store = fg.add(radioflow_blocks::MessageDebug::new());
            fg.connect_message((src, "out"), (store, "store")).unwrap();
            fg.start(s.as_ref()).unwrap();
            let push = context.socket(zmq::PUSH).unwrap();
            push.set_sndtimeo(30_000).unwrap();
            push.connect(&format!("tcp://127.0.0.1:{port}")).unwrap();
            push.send(Pmt::Int(1).to_bytes(), 0).unwrap();
            push.send(&[0xEEu8, 0][..], 0).unwrap();
            push.send(Pmt::Int(2).to_bytes(), 0).unwrap();
            push.send_multipart([EOS_MARKER, &2u64.to_le_bytes()[..]], 0)
                .unwrap();
            fg.wait_timeout(std::time::Duration::from_secs(60)).unwrap();
            let got = fg.block::<radioflow_blocks::MessageDebug>(store).unwrap();
            assert_eq!(got.messages(), [Pmt::Int(1), Pmt::Int(2)], "{}", s.name());
            assert_eq!(flags.dropped(), 1, "{}", s.name());
        }
    }
}
