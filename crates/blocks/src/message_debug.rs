//! [`MessageDebug`]: keeps every message it receives.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Stores every message that arrives, in order, like the `store` port of GNU Radio's
/// `message_debug`. Memory grows with the messages received: meant for tests, tools and
/// collecting results, not for endless streams (use [`MessageCounter`](crate::MessageCounter)).
///
/// # Stream inputs
/// None.
///
/// # Stream outputs
/// None.
///
/// # Message ports
/// - input `store`: any message.
///
/// # Parameters
/// None. It finishes when every sender has finished and its inbox is empty.
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
#[derive(Debug, Default, Ports)]
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

register_block!(BlockDescription {
    id: "message_debug",
    summary: "Prints the messages arriving on `print` and keeps those arriving on `store`.",
    dtypes: &[],
    params: &[],
    ports: declared_ports::<MessageDebug>,
    make: |_| Ok(Box::new(MessageDebug::new())),
});

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
