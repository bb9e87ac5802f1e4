//! [`LinkMessageSink`]: the sending end of a message connection cut between two hosts.

use super::end::LinkEnd;
use radioflow_runtime::prelude::*;

/// Sends every message it receives as one frame, `pmt::serialize(msg)`, and the
/// end-of-stream marker when every sender upstream has finished.
///
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// - input `in`: any message.
///
/// # Parameters
/// None (made by the host's session: a connected PUSH socket).
///
/// Blocking: yes (a full queue holds the message, in slices of 50 ms).
#[derive(Debug, Ports)]
pub(crate) struct LinkMessageSink {
    end: LinkEnd,
    /// The frame being sent (reused).
    frame: Vec<u8>,
    /// Messages sent.
    sent: u64,
}

#[block(blocking)]
impl LinkMessageSink {
    pub(crate) fn new(end: LinkEnd) -> Self {
        Self {
            end,
            frame: Vec::new(),
            sent: 0,
        }
    }

    #[message_input(name = "in")]
    fn input(&mut self, msg: Pmt) -> Result<(), BlockError> {
        if self.end.flags().is_closed() {
            return Ok(());
        }
        self.frame.clear();
        msg.serialize(&mut self.frame);
        if self.end.send(&[&self.frame])? {
            self.sent += 1;
        }
        Ok(())
    }

    /// Every sender finished: tell the receiving end how many messages there were.
    fn stop(&mut self) -> Result<(), BlockError> {
        if self.end.flags().is_closed() {
            return Ok(());
        }
        self.end.send_eos(self.sent)
    }
}
