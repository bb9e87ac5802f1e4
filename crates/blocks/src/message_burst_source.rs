//! [`MessageBurstSource`]: posts a fixed list of messages, then finishes.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Posts all its messages, in order, in its first work call, then finishes, so message blocks
/// downstream finish once they have handled them.
///
/// [`repeat`](Self::repeat) posts one message `n` times.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageCounter, MessageForwarder};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::repeat(Pmt::Int(7), 1000));
/// let fwd = fg.add(MessageForwarder::new());
/// let count = fg.add(MessageCounter::new());
/// fg.connect_message((src, "out"), (fwd, "in"))?;
/// fg.connect_message((fwd, "out"), (count, "in"))?;
/// fg.run()?; // ends by itself once every message went through
/// let count = fg.block::<MessageCounter>(count).unwrap();
/// assert_eq!(count.count(), 1000);
/// assert_eq!(count.last(), Some(&Pmt::Int(7)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "message_burst_source",
    summary = "Sends `messages` on its `out` port as fast as possible, then finishes."
)]
#[param(messages: Vec<Pmt>, doc = "the messages to send")]
#[derive(Debug, Default)]
pub struct MessageBurstSource {
    /// The messages.
    #[message_output]
    out: MessageOutput,
    messages: Vec<Pmt>,
}

#[block]
impl MessageBurstSource {
    /// Posts `messages` in order.
    pub fn new(messages: Vec<Pmt>) -> Self {
        Self {
            out: MessageOutput::new(),
            messages,
        }
    }

    /// Posts `msg` `n` times (the copies share its payload).
    pub fn repeat(msg: Pmt, n: usize) -> Self {
        Self::new(vec![msg; n])
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        for msg in self.messages.drain(..) {
            self.out.post(msg);
        }
        Ok(WorkStatus::Done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn posts_everything_in_its_first_call_then_is_done() {
        let mut h = Harness::new(MessageBurstSource::new(vec![Pmt::Int(1), Pmt::symbol("b")]));
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.take_messages("out"), [Pmt::Int(1), Pmt::symbol("b")]);
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert!(h.take_messages("out").is_empty(), "posted once");

        let mut h = Harness::new(MessageBurstSource::repeat(Pmt::Int(7), 3));
        h.work().unwrap();
        assert_eq!(h.take_messages("out"), vec![Pmt::Int(7); 3]);
    }
}
