//! [`MessageDebug`]: keeps every message it receives.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Stores every message that arrives, in order, like the `store` port of GNU Radio's
/// `message_debug`. Memory grows with the messages received: meant for tests, tools and
/// collecting results, not for endless streams (use [`MessageCounter`](crate::MessageCounter)).
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::Int(1), Pmt::symbol("two")]));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (dbg, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [Pmt::Int(1), Pmt::symbol("two")]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "message_debug",
    summary = "Keeps the messages arriving on `store`."
)]
#[message_input(name = "store", doc = "any message, kept")]
#[derive(Debug, Default)]
pub struct MessageDebug {
    messages: Vec<Pmt>,
}

#[block]
impl MessageDebug {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// The messages received so far, in order of arrival.
    pub fn messages(&self) -> &[Pmt] {
        &self.messages
    }

    /// Takes the messages received so far, leaving the store empty.
    pub fn take(&mut self) -> Vec<Pmt> {
        std::mem::take(&mut self.messages)
    }

    #[message_input]
    fn store(&mut self, msg: Pmt) {
        self.messages.push(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn stores_every_message_in_order() {
        let mut h = Harness::new(MessageDebug::new());
        h.post("store", Pmt::Int(1)).unwrap();
        h.post("store", Pmt::symbol("two")).unwrap();
        assert_eq!(h.block().messages(), [Pmt::Int(1), Pmt::symbol("two")]);
        assert_eq!(h.block_mut().take(), [Pmt::Int(1), Pmt::symbol("two")]);
        assert!(h.block().messages().is_empty());
        h.post("store", Pmt::Bool(true)).unwrap();
        assert_eq!(h.block().messages(), [Pmt::Bool(true)]);
    }
}
