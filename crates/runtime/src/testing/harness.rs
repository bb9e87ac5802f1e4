//! [`Harness`]: one block, its `work` called directly on inputs and output space the test
//! chooses, without a flowgraph or a scheduler (in the spirit of FutureSDR's mocker).

use crate::activation::{Activation, Wake};
use crate::atomics::Arc;
use crate::block::{Block, WorkStatus};
use crate::buffer::{Reader, StreamBuffer, Writer};
use crate::endpoint::Endpoint;
use crate::error::BlockError;
use crate::item::Item;
use crate::item_type::ItemType;
use crate::message::{Inbox, Subscriber};
use crate::parker::Parker;
use crate::port::{Attachments, PortSpecs, Ports};
use crate::port_table::PortTable;
use crate::tag::Tag;
use radioflow_pmt::Pmt;

/// Items each stream buffer of a harness holds unless the block declares more.
const DEFAULT_ITEMS: usize = 1 << 16;

/// Runs one block's `work` on inputs the test pushes, with the output space the test allows
/// per call, and collects what it produced, consumed, tagged and posted.
///
/// ```
/// use radioflow_runtime::prelude::*;
/// use radioflow_runtime::testing::Harness;
///
/// #[derive(Ports)]
/// struct Negate {
///     #[input(name = "in")]
///     input: StreamInput<f32>,
///     #[output(name = "out")]
///     output: StreamOutput<f32>,
/// }
///
/// #[block]
/// impl Negate {
///     fn work(&mut self) -> Result<WorkStatus, BlockError> {
///         one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
///             for (o, i) in o.iter_mut().zip(i) {
///                 *o = -i;
///             }
///         });
///         Ok(WorkStatus::Continue)
///     }
/// }
///
/// let mut h = Harness::new(Negate { input: StreamInput::new(), output: StreamOutput::new() });
/// h.push("in", &[1.0f32, 2.0, 3.0]);
/// h.set_space("out", 2);
/// h.work()?;
/// assert_eq!((h.consumed("in"), h.produced("out")), (2, 2));
/// assert_eq!(h.take_output::<f32>("out"), [-1.0, -2.0]);
/// # Ok::<(), BlockError>(())
/// ```
pub struct Harness<B: Block> {
    block: B,
    specs: PortSpecs,
    table: PortTable,
    /// The harness's writers into the block's inputs, with the item type they carry.
    inputs: Vec<(Writer, ItemType)>,
    /// The harness's readers of the block's outputs.
    outputs: Vec<(Reader, ItemType)>,
    /// Per message output, the inbox it posts to.
    message_outputs: Vec<Arc<Inbox>>,
    consumed: Vec<u64>,
    produced: Vec<u64>,
}

impl<B: Block> std::fmt::Debug for Harness<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Harness").finish_non_exhaustive()
    }
}

impl<B: Block> Harness<B> {
    /// The block with a buffer on every stream port (64 Ki items, or what its declared windows
    /// need) and a collector on every message output.
    ///
    /// # Panics
    /// If a buffer cannot be set up (out of memory).
    pub fn new(mut block: B) -> Self {
        let mut specs = PortSpecs::default();
        block.ports(&mut Ports::describe(&mut specs));
        let act = Activation::alone(Arc::new(Parker::new()));
        let acts = std::slice::from_ref(&act);
        let buffer = |spec: &crate::port::PortSpec| {
            let item = spec.item.expect("stream ports have an item type");
            let items = DEFAULT_ITEMS.max(2 * spec.min_items);
            let buf = StreamBuffer::with_region(
                (item.size(), item.vlen()),
                items * item.size(),
                &act,
                acts,
                &[],
                None,
            )
            .unwrap_or_else(|e| panic!("harness buffer for port '{}': {e}", spec.name));
            (buf, item)
        };
        let mut att = Attachments::default();
        let mut inputs = Vec::new();
        for spec in &specs.stream_in {
            let (buf, item) = buffer(spec);
            inputs.push((Writer::new(buf.clone()), item));
            att.stream_in.push(Some(Endpoint::new(Reader::new(buf, 0))));
        }
        let mut outputs = Vec::new();
        for spec in &specs.stream_out {
            let (buf, item) = buffer(spec);
            outputs.push((Reader::new(buf.clone(), 0), item));
            att.stream_out.push(Some(Endpoint::new(Writer::new(buf))));
        }
        let mut message_outputs = Vec::new();
        for _ in &specs.message_out {
            let inbox = Arc::new(Inbox::new(1));
            att.message_out.push(vec![Subscriber {
                inbox: inbox.clone(),
                port: 0,
                wake: Wake::new(&act, &act),
            }]);
            message_outputs.push(inbox);
        }
        let table = PortTable::for_attachments(&att, &specs);
        block.ports(&mut Ports::attach(&mut att));
        let (n_in, n_out) = (inputs.len(), outputs.len());
        Self {
            block,
            specs,
            table,
            inputs,
            outputs,
            message_outputs,
            consumed: vec![0; n_in],
            produced: vec![0; n_out],
        }
    }

    fn index(&self, list: &[crate::port::PortSpec], what: &str, name: &str) -> usize {
        list.iter().position(|p| p.name == name).unwrap_or_else(|| {
            let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
            panic!(
                "the block has no {what} '{name}' (it has: {})",
                names.join(", ")
            )
        })
    }

    fn check_type<T: Item>(item: ItemType, port: &str) {
        assert!(
            item.with_vlen(1) == ItemType::of::<T>(),
            "port '{port}' carries {item}, not {}",
            ItemType::of::<T>()
        );
    }

    /// Appends `items` to stream input `port` (after what the block has not consumed yet).
    ///
    /// # Panics
    /// If there is no such input, it carries another type, or the items do not fit its buffer.
    pub fn push<T: Item>(&mut self, port: &str, items: &[T]) {
        let i = self.index(&self.specs.stream_in, "stream input", port);
        let (w, item) = &mut self.inputs[i];
        Self::check_type::<T>(*item, port);
        assert!(
            items.len().is_multiple_of(item.vlen()),
            "input '{port}' carries vectors of {}: push whole vectors, not {} scalars",
            item.vlen(),
            items.len()
        );
        let free = w.refresh(u64::MAX) as usize;
        assert!(
            items.len() <= free,
            "input '{port}' has room for {free} more items, not {}: let work() consume first",
            items.len()
        );
        let (p, _) = w.window();
        // SAFETY: the window is the writer's own free space of at least `items.len()` items of
        // `T` (checked above and by the item type); the block reads only published items.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), p as *mut T, items.len()) };
        w.produce(items.len());
        w.commit();
    }

    /// Tags the item at absolute index `offset` of stream input `port`; tag an item before
    /// pushing it (the tag is published with it).
    ///
    /// # Panics
    /// If the item was pushed already.
    pub fn push_tag(
        &mut self,
        port: &str,
        offset: u64,
        key: impl Into<Pmt>,
        value: impl Into<Pmt>,
    ) {
        let i = self.index(&self.specs.stream_in, "stream input", port);
        let w = &mut self.inputs[i].0;
        w.add_tag(Tag::new(offset, key, value));
        w.commit();
    }

    /// Ends stream input `port`: the block sees its writer finished.
    pub fn finish_input(&mut self, port: &str) {
        let i = self.index(&self.specs.stream_in, "stream input", port);
        self.inputs[i].0.finish();
    }

    /// Limits the space stream output `port` offers per work call to `items` (default: its
    /// whole free buffer).
    pub fn set_space(&mut self, port: &str, items: usize) {
        let i = self.index(&self.specs.stream_out, "stream output", port);
        self.table.set_output_cap(i, items as u64);
    }

    /// Calls the block's `handle_message` for message input `port`.
    ///
    /// # Errors
    /// What the handler returns.
    pub fn post(&mut self, port: &str, msg: impl Into<Pmt>) -> Result<(), BlockError> {
        let i = self.index(&self.specs.message_in, "message input", port);
        self.block.handle_message(i, msg.into())
    }

    /// Calls the block's `start` hook (as a flowgraph does before the first work call).
    ///
    /// # Errors
    /// What the hook returns.
    pub fn start(&mut self) -> Result<(), BlockError> {
        self.block.start()
    }

    /// Calls the block's `stop` hook (as a flowgraph does when the block finishes).
    ///
    /// # Errors
    /// What the hook returns.
    pub fn stop(&mut self) -> Result<(), BlockError> {
        self.block.stop()
    }

    /// One work call: the ports' windows are refreshed, `work` runs, what it consumed and
    /// produced is published (and counted).
    ///
    /// # Errors
    /// What `work` returns.
    pub fn work(&mut self) -> Result<WorkStatus, BlockError> {
        self.table.before();
        let status = self.block.work();
        self.table.after();
        for (i, (r, _)) in self.inputs.iter().enumerate() {
            self.consumed[i] = r.buffer().min_read_position();
        }
        for (i, (r, _)) in self.outputs.iter_mut().enumerate() {
            self.produced[i] = r.refresh() + r.position();
        }
        status
    }

    /// Items the block consumed from stream input `port` so far.
    pub fn consumed(&self, port: &str) -> u64 {
        self.consumed[self.index(&self.specs.stream_in, "stream input", port)]
    }

    /// Items the block produced on stream output `port` so far.
    pub fn produced(&self, port: &str) -> u64 {
        self.produced[self.index(&self.specs.stream_out, "stream output", port)]
    }

    /// The items produced on stream output `port` since the last call, in order. Their tags go
    /// with them: read [`output_tags`](Self::output_tags) first, or use
    /// [`take_output_with_tags`](Self::take_output_with_tags).
    pub fn take_output<T: Item>(&mut self, port: &str) -> Vec<T> {
        let i = self.index(&self.specs.stream_out, "stream output", port);
        let (r, item) = &mut self.outputs[i];
        Self::check_type::<T>(*item, port);
        let n = r.refresh() as usize;
        let (p, _) = r.window();
        // SAFETY: the window holds `n` published items of `T` (the type was checked).
        let got = unsafe { std::slice::from_raw_parts(p as *const T, n) }.to_vec();
        r.consume(n);
        r.commit();
        got
    }

    /// The items produced on stream output `port` since the last call and the tags on them.
    pub fn take_output_with_tags<T: Item>(&mut self, port: &str) -> (Vec<T>, Vec<Tag>) {
        let tags = self.output_tags(port);
        (self.take_output(port), tags)
    }

    /// The tags on the items of stream output `port` not taken yet.
    pub fn output_tags(&mut self, port: &str) -> Vec<Tag> {
        let i = self.index(&self.specs.stream_out, "stream output", port);
        let r = &mut self.outputs[i].0;
        r.refresh();
        r.tags().to_vec()
    }

    /// The messages the block posted on message output `port` since the last call.
    pub fn take_messages(&mut self, port: &str) -> Vec<Pmt> {
        let i = self.index(&self.specs.message_out, "message output", port);
        std::iter::from_fn(|| self.message_outputs[i].pop().map(|(_, m)| m)).collect()
    }

    /// The block.
    pub fn block(&self) -> &B {
        &self.block
    }

    /// The block, to change its state between calls.
    pub fn block_mut(&mut self) -> &mut B {
        &mut self.block
    }
}
