//! [`LinkMessageSource`]: the receiving end of a message connection cut between two hosts.

use super::end::LinkEnd;
use radioflow_runtime::prelude::*;

/// Posts every message the sending host's [`LinkMessageSink`](super::LinkMessageSink) sent,
/// in order, and ends when the end-of-stream marker arrives (after checking that every
/// message did).
///
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// - output `out`: the messages.
///
/// # Parameters
/// None (made by the host's session: a bound PULL socket).
///
/// Blocking: yes (waits on the socket in slices of 50 ms, so a stop is seen).
#[derive(Debug, Ports)]
pub(crate) struct LinkMessageSource {
    #[message_output]
    out: MessageOutput,
    end: LinkEnd,
    /// The frame received (reused).
    frame: zmq::Message,
    /// Messages received.
    received: u64,
}

#[block(blocking)]
impl LinkMessageSource {
    pub(crate) fn new(end: LinkEnd) -> Self {
        Self {
            out: MessageOutput::new(),
            end,
            frame: zmq::Message::new(),
            received: 0,
        }
    }

    /// Receives and posts messages until the end-of-stream marker or a stop: a block
    /// without stream ports is called again only when something changes, and nothing does
    /// when a socket receives.
    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        while !stop_requested() {
            match self.end.recv(&mut self.frame)? {
                None => {}
                Some(Some(count)) => {
                    if count != self.received {
                        return Err(self.end.error(format!(
                            "the sender sent {count} messages, {} arrived",
                            self.received
                        )));
                    }
                    return Ok(WorkStatus::Done);
                }
                Some(None) => match Pmt::from_bytes(&self.frame) {
                    Ok(msg) => {
                        self.out.post(msg);
                        self.received += 1;
                    }
                    Err(e) => {
                        let len = self.frame.len();
                        self.end
                            .malformed(format!("a frame of {len} bytes is not a PMT: {e}"))?;
                    }
                },
            }
        }
        Ok(WorkStatus::Continue)
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        self.end.finish();
        Ok(())
    }
}
