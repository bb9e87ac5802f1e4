//! [`MessageCounter`]: counts the messages it receives.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Counts the messages it receives and keeps the last one.
///
/// [`count`](Self::count) and [`last`](Self::last) report what arrived. It finishes when every
/// sender has finished and its inbox is empty.
///
/// # Example
/// See [`MessageBurstSource`](crate::MessageBurstSource).
#[library_block(
    id = "message_counter",
    summary = "Counts the messages arriving on `in`."
)]
#[message_input(name = "in", doc = "any message")]
#[derive(Debug, Default)]
pub struct MessageCounter {
    count: u64,
    last: Option<Pmt>,
}

#[block]
impl MessageCounter {
    /// A counter at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of messages received.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The most recent message, if any arrived.
    pub fn last(&self) -> Option<&Pmt> {
        self.last.as_ref()
    }

    #[message_input(name = "in")]
    fn receive(&mut self, msg: Pmt) {
        self.count += 1;
        self.last = Some(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn counts_any_message_and_keeps_the_last() {
        let mut h = Harness::new(MessageCounter::new());
        assert_eq!((h.block().count(), h.block().last()), (0, None));
        h.post("in", Pmt::Int(1)).unwrap();
        h.post("in", Pmt::symbol("two")).unwrap();
        h.post("in", Pmt::Null).unwrap();
        assert_eq!(h.block().count(), 3);
        assert_eq!(h.block().last(), Some(&Pmt::Null));
        assert_eq!(h.work().unwrap(), WorkStatus::Continue, "work does nothing");
    }
}
