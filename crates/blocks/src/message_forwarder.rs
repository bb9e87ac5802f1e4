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
#[derive(Debug, Default)]
pub struct MessageForwarder {
    out: MessageOutput,
}

impl MessageForwarder {
    /// A forwarder.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Block for MessageForwarder {
    fn ports(&mut self, p: &mut Ports<'_>) {
        p.message_input("in");
        p.message_output("out", &mut self.out);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        Ok(WorkStatus::Continue)
    }

    fn handle_message(&mut self, _port: usize, msg: Pmt) -> Result<(), BlockError> {
        self.out.post(msg);
        Ok(())
    }
}
