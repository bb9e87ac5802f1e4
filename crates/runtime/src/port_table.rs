//! [`PortTable`]: a task's own handles on its block's stream endpoints (and on the inboxes its
//! message outputs post to), through which it takes the snapshot before each work call and
//! publishes what moved after it, without calling into the block.

use crate::buffer::{Reader, Writer};
use crate::endpoint::Endpoint;
use crate::message::Inbox;
use crate::port::Attachments;
use crate::sync::Arc;

/// What the ports looked like before a work call.
#[derive(Debug, Default)]
pub(crate) struct Before {
    /// The block has stream inputs and none has an item or has finished: `work` would wait.
    pub(crate) starved: bool,
    /// The block has stream outputs and none has space: `work` would wait.
    pub(crate) blocked: bool,
    /// Some output with a live reader had no space.
    pub(crate) output_full: bool,
    /// The block has outputs (stream or connected message ones) and none has a reader left.
    pub(crate) outputs_dead: bool,
}

/// What a work call moved.
#[derive(Debug, Default)]
pub(crate) struct After {
    /// Items published on all stream outputs.
    pub(crate) produced: u64,
    /// Items released on all stream inputs.
    pub(crate) consumed: u64,
}

impl After {
    /// Some port moved.
    pub(crate) fn progress(&self) -> bool {
        self.produced + self.consumed > 0
    }
}

/// A stream output as the task sees it.
#[derive(Debug)]
struct Output {
    writer: Endpoint<Writer>,
    item_size: u64,
    /// Items the block may write per work call (from the task's item and byte caps).
    cap: u64,
}

/// The task's handles on one block's ports, in port order.
#[derive(Debug, Default)]
pub(crate) struct PortTable {
    inputs: Vec<Endpoint<Reader>>,
    /// Declared stream inputs left unconnected (optional ones): finished and empty.
    unconnected_inputs: usize,
    outputs: Vec<Output>,
    /// Per connected message output, the inboxes it posts to.
    message_outputs: Vec<Vec<Arc<Inbox>>>,
}

impl PortTable {
    /// The task's handles on the endpoints about to be attached to a block's ports.
    pub(crate) fn for_attachments(a: &Attachments) -> Self {
        let mut t = Self::default();
        for r in &a.stream_in {
            t.add_input(r.as_ref().map(Endpoint::share));
        }
        for w in a.stream_out.iter().flatten() {
            // SAFETY: no block is running: the endpoint was made moments ago.
            let item_size = unsafe { w.get() }.item_size();
            t.add_output(w.share(), item_size);
        }
        for subscribers in &a.message_out {
            t.add_message_output(subscribers.iter().map(|s| s.inbox.clone()).collect());
        }
        t
    }

    /// A stream input: its reader, or `None` while unconnected.
    pub(crate) fn add_input(&mut self, reader: Option<Endpoint<Reader>>) {
        match reader {
            Some(r) => self.inputs.push(r),
            None => self.unconnected_inputs += 1,
        }
    }

    /// A connected stream output.
    pub(crate) fn add_output(&mut self, writer: Endpoint<Writer>, item_size: usize) {
        self.outputs.push(Output {
            writer,
            item_size: item_size.max(1) as u64,
            cap: u64::MAX,
        });
    }

    /// A message output and the inboxes of its subscribers (none: not connected).
    pub(crate) fn add_message_output(&mut self, inboxes: Vec<Arc<Inbox>>) {
        if !inboxes.is_empty() {
            self.message_outputs.push(inboxes);
        }
    }

    /// Caps each output's window at `max_items` and at `max_bytes` (at least one item).
    pub(crate) fn limit(&mut self, max_items: u64, max_bytes: u64) {
        for o in &mut self.outputs {
            o.cap = max_items.min((max_bytes / o.item_size).max(1));
        }
    }

    /// Refreshes every window (called with the block idle).
    #[inline]
    pub(crate) fn before(&mut self) -> Before {
        let (mut readable, mut done) = (0, self.unconnected_inputs);
        for r in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let r = unsafe { r.get_mut() };
            readable += (r.refresh() > 0) as usize;
            done += r.writer_done() as usize;
        }
        let (mut writable, mut full, mut dead) = (0, false, 0);
        for o in &mut self.outputs {
            // SAFETY: as above.
            let w = unsafe { o.writer.get_mut() };
            if w.refresh(o.cap) > 0 {
                writable += 1;
            } else if w.was_dead() {
                dead += 1;
            } else {
                full = true;
            }
        }
        let stream_inputs = self.inputs.len() + self.unconnected_inputs;
        let stream_outputs = self.outputs.len();
        Before {
            starved: stream_inputs > 0 && readable == 0 && done == 0,
            blocked: stream_outputs > 0 && writable == 0,
            output_full: full,
            outputs_dead: dead == stream_outputs
                && stream_outputs + self.message_outputs.len() > 0
                && self.message_outputs_dead(),
        }
    }

    /// Every connected message output has no live receiver left (true if there are none).
    fn message_outputs_dead(&self) -> bool {
        self.message_outputs
            .iter()
            .all(|inboxes| inboxes.iter().all(|i| i.is_closed()))
    }

    /// Publishes what the work call consumed and produced and wakes the neighbours (called
    /// with the block idle).
    #[inline]
    pub(crate) fn after(&mut self) -> After {
        let mut a = After::default();
        for r in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            a.consumed += unsafe { r.get_mut() }.commit();
        }
        for o in &mut self.outputs {
            // SAFETY: as above.
            a.produced += unsafe { o.writer.get_mut() }.commit();
        }
        a
    }

    /// The block has stream inputs and they will not give it anything new: all are final, or
    /// one is final and empty (judged on the last refresh and what was consumed since).
    pub(crate) fn inputs_over(&mut self) -> bool {
        if self.unconnected_inputs > 0 {
            return true;
        }
        let mut done = 0;
        for r in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let r = unsafe { r.get_mut() };
            if r.writer_done() {
                if r.available() == 0 {
                    return true;
                }
                done += 1;
            }
        }
        !self.inputs.is_empty() && done == self.inputs.len()
    }

    /// Some output with a live reader has no free space now.
    pub(crate) fn output_full(&mut self) -> bool {
        self.outputs.iter_mut().any(|o| {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let (dead, full) = unsafe { o.writer.get_mut() }.dead_or_full();
            !dead && full
        })
    }

    /// Publishes the end of every output (readers drain what is left) and leaves every input
    /// (writers stop waiting for it). The port handles are dropped separately (`Ports::detach`).
    pub(crate) fn finish(&mut self) {
        for mut r in self.inputs.drain(..) {
            // SAFETY: the block is not running, so its port's handle is not in use.
            unsafe { r.get_mut() }.finish();
        }
        for mut o in self.outputs.drain(..) {
            // SAFETY: as above.
            unsafe { o.writer.get_mut() }.finish();
        }
        self.message_outputs.clear();
    }
}
