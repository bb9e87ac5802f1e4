//! [`MessageRelay`]: a message posted from outside the graph goes out of its output; it waits
//! for such messages until the run stops.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Forwards every message posted to `in` to `out`, unchanged. Its messages come from outside
/// the graph (a [`MessagePoster`](radioflow_runtime::MessagePoster)), so it does not end when
/// nothing in the graph sends to it: it waits, parked, until the run is stopped. It stands in
/// the graph for a control outside it: a GRC file's QT GUI message widget (a toggle button, a
/// dial, a message push button) on the live page, which posts the widget's message to `in`
/// through the control port, and the file's message connections from the widget carry it on,
/// as GNU Radio's widget block publishes it.
///
/// ```
/// use radioflow_blocks::MessageRelay;
/// use radioflow_runtime::testing::Harness;
/// use radioflow_runtime::Pmt;
///
/// let mut h = Harness::new(MessageRelay::new());
/// h.post("in", Pmt::pair(Pmt::symbol("freq"), Pmt::Double(1e3))).unwrap();
/// assert_eq!(h.take_messages("out"), [Pmt::pair(Pmt::symbol("freq"), Pmt::Double(1e3))]);
/// ```
#[library_block(
    id = "message_relay",
    summary = "Forwards each message posted to `in` from outside the graph (the live page's message widgets) to `out`, waiting for them until the run stops."
)]
#[message_input(name = "in", doc = "a message to send on `out`")]
#[derive(Debug, Default)]
pub struct MessageRelay {
    #[message_output]
    out: MessageOutput,
}

#[block(external_messages)]
impl MessageRelay {
    /// A relay.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sends `msg` on `out`.
    #[message_input(name = "in")]
    pub fn relay(&mut self, msg: Pmt) {
        self.out.post(msg);
    }
}
