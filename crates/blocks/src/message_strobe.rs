//! [`MessageStrobe`]: one message again and again, every period, until stopped.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::time::{Duration, Instant};

/// Sends its message on `strobe` every `period_ms` milliseconds of wall-clock time, the first
/// one period after the run starts, until the run is stopped (GNU Radio's `message_strobe`).
/// A message on `set_msg` replaces the message from the next send on.
///
/// Like GNU Radio's, it waits a whole period after each send, so the time a send takes adds
/// to the period. A stop cuts the wait short. A period of 0 sends as fast as the messages are
/// taken, which is mostly useful in tests.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageDebug, MessageStrobe};
/// use radioflow_blocks::runtime::{FlowScheduler, Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let strobe = fg.add(MessageStrobe::new(Pmt::symbol("TEST"), 1));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((strobe, "strobe"), (dbg, "store"))?;
/// fg.start(&FlowScheduler::new())?;
/// // ... the strobe sends one message a millisecond until the run is stopped.
/// fg.stop();
/// fg.wait()?;
/// assert!(fg.block::<MessageDebug>(dbg).unwrap().messages().iter().all(|m| *m == Pmt::symbol("TEST")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "message_strobe",
    summary = "Sends `msg` on `strobe` every `period_ms` milliseconds until the run stops; `set_msg` replaces it (GNU Radio's message_strobe)."
)]
#[param(msg: Pmt, settable, doc = "the message (set while running: from the next send on)")]
#[param(period_ms: u64, settable, doc = "milliseconds between two messages (the first one period after the start; set while running: from the next send on)")]
#[message_input(
    name = "set_msg",
    doc = "a message that replaces `msg` from the next send on"
)]
#[derive(Debug)]
pub struct MessageStrobe {
    /// The message, every period.
    #[message_output]
    strobe: MessageOutput,
    msg: Pmt,
    period: Duration,
    /// When the next message is due (set at the first work call).
    due: Option<Instant>,
}

#[block(blocking, message_source)]
impl MessageStrobe {
    /// Sends `msg` every `period_ms` milliseconds.
    pub fn new(msg: Pmt, period_ms: u64) -> Self {
        Self {
            strobe: MessageOutput::new(),
            msg,
            period: Duration::from_millis(period_ms),
            due: None,
        }
    }

    /// The message it sends now.
    pub fn msg(&self) -> &Pmt {
        &self.msg
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let now = Instant::now();
        let due = *self.due.get_or_insert(now + self.period);
        if now < due {
            // Back to the runtime after the wait, whatever cut it short, so that a `set_msg`
            // that came meanwhile is handled before the send.
            interruptible_sleep(due - now);
            return Ok(WorkStatus::Continue);
        }
        self.strobe.post(self.msg.clone());
        self.due = Some(Instant::now() + self.period);
        Ok(WorkStatus::Continue)
    }

    /// Sends `msg` from the next send on (GNU Radio's `set_msg`; also its `set_msg` port).
    #[message_input]
    pub fn set_msg(&mut self, msg: Pmt) {
        self.msg = msg;
    }

    /// Waits `period_ms` after the next send (GNU Radio's `set_period`: the wait under way
    /// ends as it was due).
    pub fn set_period_ms(&mut self, period_ms: u64) {
        self.period = Duration::from_millis(period_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn sends_its_message_each_period_and_set_msg_replaces_it() {
        let mut h = Harness::new(MessageStrobe::new(Pmt::symbol("TEST"), 0));
        assert!(h.block().is_message_source() && h.block().is_blocking());
        h.work().unwrap();
        h.work().unwrap();
        assert_eq!(h.take_messages("strobe"), vec![Pmt::symbol("TEST"); 2]);
        h.post("set_msg", Pmt::Int(7)).unwrap();
        h.work().unwrap();
        assert_eq!(h.take_messages("strobe"), [Pmt::Int(7)]);
        assert_eq!(h.block().msg(), &Pmt::Int(7));
    }

    #[test]
    fn the_first_message_waits_one_period() {
        let mut h = Harness::new(MessageStrobe::new(Pmt::Bool(true), 1));
        let start = Instant::now();
        // Work calls wait for the period; a bounded number of them sends (a hang guard).
        let mut calls = 0;
        while h.take_messages("strobe").is_empty() {
            assert!(calls < 10_000, "no message after {calls} calls");
            h.work().unwrap();
            calls += 1;
        }
        assert!(start.elapsed() >= Duration::from_millis(1));
    }

    #[test]
    fn msg_and_period_set_while_running_apply_from_the_next_send() {
        let mut h = Harness::new(MessageStrobe::new(Pmt::symbol("TEST"), 0));
        h.work().unwrap();
        // Through the settable parameters' message inputs, as a running graph gets them.
        h.post("msg", Pmt::Int(3)).unwrap();
        h.post("period_ms", Pmt::Int(60_000)).unwrap();
        assert_eq!(h.block().period, Duration::from_secs(60));
        // The wait under way (0 ms) ends as it was due: the next send is at once, with the
        // new message; the one after it is a minute away.
        let before = Instant::now();
        h.work().unwrap();
        assert_eq!(
            h.take_messages("strobe"),
            [Pmt::symbol("TEST"), Pmt::Int(3)]
        );
        let due = h.block().due.unwrap();
        assert!(due >= before + Duration::from_secs(60));
    }
}
