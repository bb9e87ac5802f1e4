//! [`PortTable`]: a task's own handles on its block's stream endpoints (and on the inboxes its
//! message outputs post to), through which it takes the snapshot before each work call and
//! publishes what moved after it, without calling into the block.

use crate::atomics::Arc;
use crate::buffer::{Reader, Writer};
use crate::endpoint::Endpoint;
use crate::message::Inbox;
use crate::port::{Attachments, PortSpecs};

/// What the ports looked like before a work call.
#[derive(Debug, Default)]
pub(crate) struct Before {
    /// The block has stream inputs and none has an item or has finished: `work` would wait.
    pub(crate) starved: bool,
    /// The block has stream outputs and none has space: `work` would wait.
    pub(crate) blocked: bool,
    /// Some output with a live reader had no space.
    pub(crate) output_full: bool,
    /// Nobody reads what the block produces: it has stream outputs and none has a reader
    /// left, or it has only message outputs (connected) and none has a receiver left. A
    /// message output does not keep a stream alive: its receivers are not readers of the
    /// stream (a tap posting to a message sink above a finished `head` finishes, as in GNU
    /// Radio; counting the receiver made the two wait for each other forever).
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
    /// Items the block may write per work call (from the task's item and byte caps, never
    /// below `need`).
    cap: u64,
    /// The window the block declared it needs (`StreamOutput::with_min_items`).
    need: u64,
}

/// A connected stream input as the task sees it.
#[derive(Debug)]
struct Input {
    reader: Endpoint<Reader>,
    /// The window the block declared it needs (`StreamInput::with_min_items`).
    need: u64,
    /// The port's name, for errors.
    name: std::sync::Arc<str>,
}

/// Why a block that was given its windows moved nothing and never will (`PortTable::stuck`).
#[derive(Debug)]
pub(crate) struct Stuck {
    /// Name of the full input.
    pub(crate) input: std::sync::Arc<str>,
    /// Items it holds (the whole buffer).
    pub(crate) items: u64,
}

/// The task's handles on one block's ports, in port order.
#[derive(Debug, Default)]
pub(crate) struct PortTable {
    inputs: Vec<Input>,
    /// Declared stream inputs left unconnected (optional ones): finished and empty for the
    /// block, and no part of its end of stream.
    unconnected_inputs: usize,
    outputs: Vec<Output>,
    /// Per connected message output, the inboxes it posts to.
    message_outputs: Vec<Vec<Arc<Inbox>>>,
}

impl PortTable {
    /// The task's handles on the endpoints about to be attached to a block's ports.
    pub(crate) fn for_attachments(a: &Attachments, specs: &PortSpecs) -> Self {
        let mut t = Self::default();
        for (r, spec) in a.stream_in.iter().zip(&specs.stream_in) {
            t.add_input(r.as_ref().map(Endpoint::share), spec.min_items, &spec.name);
        }
        for (w, spec) in a.stream_out.iter().zip(&specs.stream_out) {
            if let Some(w) = w {
                // SAFETY: no block is running: the endpoint was made moments ago.
                let item_size = unsafe { w.get() }.item_size();
                t.add_output(w.share(), item_size, spec.min_items);
            }
        }
        for subscribers in &a.message_out {
            t.add_message_output(subscribers.iter().map(|s| s.inbox.clone()).collect());
        }
        t
    }

    /// A stream input: its reader, or `None` while unconnected.
    pub(crate) fn add_input(&mut self, reader: Option<Endpoint<Reader>>, need: usize, name: &str) {
        match reader {
            Some(reader) => self.inputs.push(Input {
                reader,
                need: need.max(1) as u64,
                name: name.into(),
            }),
            None => self.unconnected_inputs += 1,
        }
    }

    /// A connected stream output whose block needs windows of `need` items.
    pub(crate) fn add_output(&mut self, writer: Endpoint<Writer>, item_size: usize, need: usize) {
        self.outputs.push(Output {
            writer,
            item_size: item_size.max(1) as u64,
            cap: u64::MAX,
            need: need.max(1) as u64,
        });
    }

    /// A message output and the inboxes of its subscribers (none: not connected).
    pub(crate) fn add_message_output(&mut self, inboxes: Vec<Arc<Inbox>>) {
        if !inboxes.is_empty() {
            self.message_outputs.push(inboxes);
        }
    }

    /// Caps each output's window at `max_items` and at `max_bytes`, but never below the window
    /// the block needs there.
    pub(crate) fn limit(&mut self, max_items: u64, max_bytes: u64) {
        for o in &mut self.outputs {
            o.cap = max_items.min(max_bytes / o.item_size).max(o.need);
        }
    }

    /// Caps output `i`'s window at `items` (at least its declared window): the test harness's
    /// output space per call.
    pub(crate) fn set_output_cap(&mut self, i: usize, items: u64) {
        let o = &mut self.outputs[i];
        o.cap = items.max(o.need);
    }

    /// Lifts every output's cap and keeps every output's items in its ring, for a block that
    /// moved nothing with the windows it was given: it may need more than it declared.
    /// Returns whether a window can now grow (some output was held below its buffer).
    #[cold]
    pub(crate) fn widen(&mut self) -> bool {
        let mut grew = false;
        for o in &mut self.outputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let w = unsafe { o.writer.get_mut() };
            let capped = w.refresh(u64::MAX) > o.cap;
            grew |= capped | w.keep_in_ring();
            o.cap = u64::MAX;
        }
        grew
    }

    /// Bytes of the widest item among the stream outputs (0 without any).
    pub(crate) fn output_item_bytes(&self) -> u64 {
        self.outputs.iter().map(|o| o.item_size).max().unwrap_or(0)
    }

    /// Keeps every output's items in its ring from now on (a chain about to be cut between two
    /// threads: regions are used by one thread at a time). Returns whether an output's items
    /// are still in a region (its reader has not read them all yet).
    #[cold]
    pub(crate) fn leave_regions(&mut self) -> bool {
        let mut held = false;
        for o in &mut self.outputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let w = unsafe { o.writer.get_mut() };
            w.keep_in_ring();
            held |= w.holds_region();
        }
        held
    }

    /// Whether a block that moved nothing in a work call can never move again however long it
    /// waits: it has stream inputs, each was full (its writer could not add an item) or final,
    /// at least one was full, and no output could offer a larger window than it did (each was
    /// empty or dead). Judged on the snapshot the work call saw (`before`), not on a newer one:
    /// an input that filled up or finished since is the block's next chance, not its end.
    /// Returns the full input.
    #[cold]
    pub(crate) fn stuck(&mut self) -> Option<Stuck> {
        if self.inputs.is_empty() || self.unconnected_inputs > 0 {
            return None;
        }
        for o in &mut self.outputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let w = unsafe { o.writer.get_mut() };
            if !w.was_empty_or_dead() {
                return None;
            }
        }
        let mut full = None;
        for i in &mut self.inputs {
            // SAFETY: as above.
            let r = unsafe { i.reader.get_mut() };
            if r.is_full() {
                full.get_or_insert(Stuck {
                    input: i.name.clone(),
                    items: r.available() as u64,
                });
            } else if !r.writer_done() {
                return None;
            }
        }
        full
    }

    /// Refreshes every window (called with the block idle).
    #[inline]
    pub(crate) fn before(&mut self) -> Before {
        let (mut readable, mut done) = (0, 0);
        for i in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let r = unsafe { i.reader.get_mut() };
            readable += (r.refresh() >= i.need) as usize;
            done += r.writer_done() as usize;
        }
        let (mut writable, mut full, mut dead) = (0, false, 0);
        for o in &mut self.outputs {
            // SAFETY: as above.
            let w = unsafe { o.writer.get_mut() };
            if w.refresh(o.cap) >= o.need {
                writable += 1;
            } else if w.was_dead() {
                dead += 1;
            } else {
                full = true;
            }
        }
        let stream_inputs = self.inputs.len();
        let stream_outputs = self.outputs.len();
        Before {
            starved: stream_inputs > 0 && readable == 0 && done == 0,
            blocked: stream_outputs > 0 && writable == 0,
            output_full: full,
            outputs_dead: if stream_outputs > 0 {
                dead == stream_outputs
            } else {
                !self.message_outputs.is_empty() && self.message_outputs_dead()
            },
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
        for i in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            a.consumed += unsafe { i.reader.get_mut() }.commit();
        }
        for o in &mut self.outputs {
            // SAFETY: as above.
            a.produced += unsafe { o.writer.get_mut() }.commit();
        }
        a
    }

    /// The block has stream inputs and they will not give it anything new: all are final, or
    /// one is final and holds less than the block needs there (judged on the last refresh and
    /// what was consumed since).
    pub(crate) fn inputs_over(&mut self) -> bool {
        // An optional input left unconnected is not part of the stream: the connected ones
        // decide (a block with it as only input ends by itself, as a source does).
        let mut done = 0;
        for i in &mut self.inputs {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let r = unsafe { i.reader.get_mut() };
            if r.writer_done() {
                if (r.available() as u64) < i.need {
                    return true;
                }
                done += 1;
            }
        }
        !self.inputs.is_empty() && done == self.inputs.len()
    }

    /// Some output with a live reader has less free space now than the block needs there.
    pub(crate) fn output_full(&mut self) -> bool {
        self.outputs.iter_mut().any(|o| {
            // SAFETY: the block is not running, so its port's handle is not in use.
            let (dead, full) = unsafe { o.writer.get_mut() }.dead_or_short(o.need);
            !dead && full
        })
    }

    /// Publishes the end of every output (readers drain what is left) and leaves every input
    /// (writers stop waiting for it). The port handles are dropped separately (`Ports::detach`).
    pub(crate) fn finish(&mut self) {
        for mut i in self.inputs.drain(..) {
            // SAFETY: the block is not running, so its port's handle is not in use.
            unsafe { i.reader.get_mut() }.finish();
        }
        for mut o in self.outputs.drain(..) {
            // SAFETY: as above.
            unsafe { o.writer.get_mut() }.finish();
        }
        self.message_outputs.clear();
    }
}
