//! [`LinkSource`]: the receiving end of a stream cut between two hosts.

use super::end::LinkEnd;
use radioflow_interop::zmq::tag_header as zmq_tag_header;
use radioflow_runtime::prelude::*;

/// Writes what the sending host's [`LinkSink`](super::LinkSink) sent, with its tags at the
/// same offsets, and ends when the end-of-stream marker arrives (after checking that every
/// item did). When its readers finish first it ends too and flags the link closed, which the
/// session reports so that the sending end finishes.
///
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// - `out`: `T`.
///
/// # Message ports
/// None.
///
/// # Parameters
/// None (made by the host's session: a bound PULL socket).
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen).
#[derive(Debug, Ports)]
pub(crate) struct LinkSource<T: Item> {
    #[output(name = "out")]
    output: StreamOutput<T>,
    end: LinkEnd,
    /// The frame being written out (ZeroMQ's buffer, reused for every frame).
    frame: zmq::Message,
    /// Bytes of `frame` written (`frame.len()`: none pending).
    pos: usize,
    /// The tags of `frame`, in this block's stream, in order (reused).
    tags: Vec<Tag>,
    /// Items received.
    received: u64,
    /// The end-of-stream marker arrived.
    ended: bool,
}

#[block(blocking)]
impl<T: Item> LinkSource<T> {
    pub(crate) fn new(end: LinkEnd) -> Self {
        Self {
            output: StreamOutput::new(),
            end,
            frame: zmq::Message::new(),
            pos: 0,
            tags: Vec::new(),
            received: 0,
            ended: false,
        }
    }

    /// Waits (in slices of 50 ms) for a frame, the end of stream, a stop or the readers'
    /// end: the runtime calls a source again only when its output changes, which a socket
    /// does not do.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            if self.pos < self.frame.len() {
                self.write_pending();
                return Ok(WorkStatus::Continue);
            }
            if self.ended {
                return Ok(WorkStatus::Done);
            }
            if self.output.readers_gone() {
                self.end.flags().close();
                return Ok(WorkStatus::Done);
            }
            if stop_requested() {
                return Ok(WorkStatus::Continue);
            }
            if self.output.slice().is_empty() {
                return Ok(WorkStatus::Continue);
            }
            match self.end.recv(&mut self.frame)? {
                None => {}
                Some(Some(count)) => {
                    if count != self.received {
                        return Err(self.end.error(format!(
                            "the sender sent {count} items, {} arrived",
                            self.received
                        )));
                    }
                    self.frame = zmq::Message::new();
                    self.pos = 0;
                    self.ended = true;
                }
                Some(None) => self.take_frame()?,
            }
        }
    }

    /// Reads the tag header of the frame just received; a malformed frame is an error, or
    /// dropped (see [`LinkEnd::malformed`]).
    fn take_frame(&mut self) -> Result<(), BlockError> {
        let decoded = zmq_tag_header::decode_frame(
            &self.frame,
            true,
            std::mem::size_of::<T>(),
            self.output.offset(),
            &mut self.tags,
        );
        match decoded {
            Ok(used) => self.pos = used,
            Err(e) => {
                self.frame = zmq::Message::new();
                self.pos = 0;
                self.end.malformed(format!("not a link frame: {e}"))?;
            }
        }
        Ok(())
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.end.finish();
        Ok(())
    }

    /// Writes as much of the frame as there is room for, with its tags.
    fn write_pending(&mut self) {
        let size = std::mem::size_of::<T>();
        let out = bytemuck::cast_slice_mut::<T, u8>(self.output.slice());
        let n = ((self.frame.len() - self.pos) / size).min(out.len() / size);
        let bytes = n * size;
        out[..bytes].copy_from_slice(&self.frame[self.pos..self.pos + bytes]);
        self.pos += bytes;
        let end = self.output.offset() + n as u64;
        let take = self.tags.partition_point(|t| t.offset < end);
        for tag in self.tags.drain(..take) {
            self.output.push_tag(tag);
        }
        self.output.produce(n);
        self.received += n as u64;
    }
}
