//! [`MessageForwarder`]: passes messages on unchanged.

use radioflow_runtime::prelude::*;

/// Posts every message it receives to its output unchanged. The message is moved, not copied
/// (a [`Pmt`] shares its payload), so a chain of forwarders measures pure message-passing cost.
///
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// - input `in`: any message.
/// - output `out`: the same messages, in order.
///
/// # Parameters
/// None. It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// See [`MessageBurstSource`](crate::MessageBurstSource).
#[derive(Debug, Default, Ports)]
pub struct MessageForwarder {
    #[message_output]
    out: MessageOutput,
}

#[block]
impl MessageForwarder {
    /// A forwarder.
    pub fn new() -> Self {
        Self::default()
    }

    #[message_input(name = "in")]
    fn forward(&mut self, msg: Pmt) {
        self.out.post(msg);
    }
}
