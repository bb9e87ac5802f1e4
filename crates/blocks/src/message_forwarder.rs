//! [`MessageForwarder`]: passes messages on unchanged.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Posts every message it receives to its output unchanged. The message is moved, not copied
/// (a [`Pmt`] shares its payload), so a chain of forwarders measures pure message-passing cost.
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// See [`MessageBurstSource`](crate::MessageBurstSource).
#[library_block(
    id = "message_forwarder",
    summary = "Passes messages from `in` to `out`."
)]
#[message_input(name = "in", doc = "any message")]
#[derive(Debug, Default)]
pub struct MessageForwarder {
    /// The same messages, in order.
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

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn posts_what_it_receives_in_order_without_copying() {
        let mut h = Harness::new(MessageForwarder::new());
        let payload = Pmt::U8Vector(vec![7u8; 1000].into());
        h.post("in", Pmt::Int(1)).unwrap();
        h.post("in", payload.clone()).unwrap();
        let got = h.take_messages("out");
        assert_eq!(got, [Pmt::Int(1), payload.clone()]);
        let (Pmt::U8Vector(got), Pmt::U8Vector(sent)) = (&got[1], &payload) else {
            panic!("wrong message type");
        };
        assert!(std::sync::Arc::ptr_eq(got, sent), "the payload was copied");
        assert!(h.take_messages("out").is_empty());
    }
}
