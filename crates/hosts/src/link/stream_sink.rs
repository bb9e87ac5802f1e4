//! [`LinkSink`]: the sending end of a stream cut between two hosts.

use super::end::{LinkEnd, MAX_FRAME_BYTES};
use radioflow_interop::zmq::tag_header as zmq_tag_header;
use radioflow_runtime::prelude::*;

/// Sends its input to the receiving host: frames of GNU Radio's tag header and up to
/// [`MAX_FRAME_BYTES`] of items, then, when the input ends, the end-of-stream marker.
///
/// # Stream inputs
/// - `in`: `T`.
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// None.
///
/// # Parameters
/// None (made by the host's session: a connected PUSH socket).
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen).
#[derive(Debug, Ports)]
pub(crate) struct LinkSink<T: Item> {
    #[input(name = "in")]
    input: StreamInput<T>,
    end: LinkEnd,
    /// The frame being built (reused: one allocation for the whole run).
    frame: Vec<u8>,
    /// The tags of the frame being built (reused).
    tags: Vec<Tag>,
    /// Items sent.
    sent: u64,
}

#[block(blocking)]
impl<T: Item> LinkSink<T> {
    pub(crate) fn new(end: LinkEnd) -> Self {
        Self {
            input: StreamInput::new(),
            end,
            frame: Vec::with_capacity(MAX_FRAME_BYTES + 4096),
            tags: Vec::new(),
            sent: 0,
        }
    }

    /// Sends what the input holds, a frame at a time; ends when the receiving end closed.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.end.flags().is_closed() {
            return Ok(WorkStatus::Done);
        }
        let max = (MAX_FRAME_BYTES / std::mem::size_of::<T>().max(1)).max(1);
        let n = self.input.slice().len().min(max);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        self.frame.clear();
        zmq_tag_header::encode_window(
            self.input.offset(),
            n,
            self.input.tags(),
            &mut self.tags,
            &mut self.frame,
        );
        self.frame
            .extend_from_slice(bytemuck::cast_slice(&self.input.slice()[..n]));
        if self.end.send(&[&self.frame])? {
            self.input.consume(n);
            self.sent += n as u64;
        }
        Ok(WorkStatus::Continue)
    }

    /// The input ended: tell the receiving end how many items there were.
    fn stop(&mut self) -> Result<(), BlockError> {
        if self.end.flags().is_closed() {
            return Ok(());
        }
        self.end.send_eos(self.sent)
    }
}
