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
    pub(crate) inputs: usize,
    pub(crate) inputs_readable: usize,
    pub(crate) inputs_done: usize,
    pub(crate) outputs: usize,
    pub(crate) outputs_writable: usize,
    /// Outputs with a live reader but no free space.
    pub(crate) outputs_full: usize,
}

/// What the ports did during a work call, and whether they can still move.
#[derive(Debug, Default)]
pub(crate) struct After {
    /// Some port moved.
    pub(crate) progress: bool,
    /// Items published on all stream outputs.
    pub(crate) produced: u64,
    /// Items released on all stream inputs.
    pub(crate) consumed: u64,
    /// Stream inputs.
    pub(crate) inputs: usize,
    /// Of those, the ones whose writer finished (their contents are final).
    pub(crate) inputs_done: usize,
    /// Some input is final and empty: it will never supply another item.
    pub(crate) input_exhausted: bool,
    /// Some live stream output has no free space.
    pub(crate) output_full: bool,
    /// Stream outputs plus connected message outputs.
    pub(crate) outputs: usize,
    /// Of those, the ones with no live reader left.
    pub(crate) outputs_dead: usize,
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
    pub(crate) fn before(&mut self) -> Before {
        let mut b = Before {
            inputs: self.inputs.len() + self.unconnected_inputs,
            inputs_done: self.unconnected_inputs,
            outputs: self.outputs.len(),
            ..Before::default()
        };
        for r in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let r = unsafe { r.get_mut() };
            if r.refresh() > 0 {
                b.inputs_readable += 1;
            }
            if r.writer_done() {
                b.inputs_done += 1;
            }
        }
        for o in &mut self.outputs {
            // SAFETY: as above.
            let w = unsafe { o.writer.get_mut() };
            if w.refresh(o.cap) > 0 {
                b.outputs_writable += 1;
            } else if !w.was_dead() {
                b.outputs_full += 1;
            }
        }
        b
    }

    /// Publishes what the work call consumed and produced, wakes the neighbours, and reports
    /// whether the ports can still move (called with the block idle).
    pub(crate) fn after(&mut self) -> After {
        let mut a = After {
            inputs: self.inputs.len() + self.unconnected_inputs,
            inputs_done: self.unconnected_inputs,
            input_exhausted: self.unconnected_inputs > 0,
            outputs: self.outputs.len() + self.message_outputs.len(),
            ..After::default()
        };
        for r in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let r = unsafe { r.get_mut() };
            let released = r.commit();
            a.progress |= released > 0;
            a.consumed += released;
            if r.writer_done() {
                a.inputs_done += 1;
                a.input_exhausted |= r.available() == 0;
            }
        }
        for o in &mut self.outputs {
            // SAFETY: as above.
            let w = unsafe { o.writer.get_mut() };
            let before = w.published();
            a.progress |= w.commit();
            a.produced += w.published() - before;
            match w.dead_or_full() {
                (true, _) => a.outputs_dead += 1,
                (false, full) => a.output_full |= full,
            }
        }
        for inboxes in &self.message_outputs {
            if inboxes.iter().all(|i| i.is_closed()) {
                a.outputs_dead += 1;
            }
        }
        a
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
