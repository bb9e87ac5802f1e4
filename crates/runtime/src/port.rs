//! Typed stream ports and the [`Ports`] visitor through which a block declares its ports.
//!
//! Ports are fields of the block. [`Block::ports`](crate::Block::ports) lists them, in order,
//! to a [`Ports`] visitor; the runtime uses the same listing to describe the block, to attach
//! buffers, and before/after each work call to snapshot and publish positions. Inside `work` a
//! port only hands out the window it owns: an input cannot read past what was written and an
//! output cannot write past free space.

use crate::buffer::{Reader, StreamBuffer, Writer};
use crate::error::Direction;
use crate::item::{Item, ItemType};
use crate::message::{MessageOutput, Subscriber};
use crate::sync::Arc;
use crate::tag::Tag;
use radioflow_pmt::Pmt;
use std::marker::PhantomData;

/// Keeps a stream buffer's memory mapped while it lives (see [`StreamInput::keep_alive`]).
#[derive(Clone)]
pub struct BufferKeepAlive {
    _buffer: Arc<StreamBuffer>,
}

impl std::fmt::Debug for BufferKeepAlive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BufferKeepAlive")
    }
}

/// A typed stream input port.
#[derive(Debug)]
pub struct StreamInput<T: Item> {
    reader: Option<Reader>,
    optional: bool,
    _item: PhantomData<fn() -> T>,
}

impl<T: Item> Default for StreamInput<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> StreamInput<T> {
    /// A required input: the flowgraph refuses to run while it is unconnected.
    pub fn new() -> Self {
        Self {
            reader: None,
            optional: false,
            _item: PhantomData,
        }
    }

    /// An input that may stay unconnected (it then reads as finished and empty).
    pub fn optional() -> Self {
        Self {
            optional: true,
            ..Self::new()
        }
    }

    /// The readable items, oldest first.
    pub fn slice(&self) -> &[T] {
        match &self.reader {
            None => &[],
            Some(r) => {
                let (p, n) = r.window();
                // SAFETY: the window [pos, writer pos) was published by the single writer with
                // Release and read with Acquire; the writer never writes there until we commit a
                // larger position. The mapping is page-aligned and offsets are multiples of
                // size_of::<T>(), so the pointer is aligned; T: Pod accepts any bytes.
                unsafe { std::slice::from_raw_parts(p as *const T, n) }
            }
        }
    }

    /// Marks the first `n` readable items as used.
    ///
    /// # Panics
    /// If `n` is larger than [`slice`](Self::slice)`.len()`.
    pub fn consume(&mut self, n: usize) {
        match &mut self.reader {
            Some(r) => r.consume(n),
            None => assert!(n == 0, "consumed {n} items from an unconnected input"),
        }
    }

    /// The writer finished and [`slice`](Self::slice) holds everything it will ever write.
    pub fn is_finished(&self) -> bool {
        self.reader.as_ref().is_none_or(Reader::writer_done)
    }

    /// A handle that keeps this port's buffer memory mapped as long as it lives (`None` while
    /// the port is not attached). For bindings whose views of [`slice`](Self::slice) may
    /// outlive the work call (a leaked view then reads stale items, not unmapped memory).
    pub fn keep_alive(&self) -> Option<BufferKeepAlive> {
        self.reader.as_ref().map(|r| BufferKeepAlive {
            _buffer: r.buffer().clone(),
        })
    }

    /// Tags on the items of [`slice`](Self::slice), sorted by offset.
    pub fn tags(&self) -> &[Tag] {
        self.reader.as_ref().map_or(&[], Reader::tags)
    }

    /// Absolute index of `slice()[0]` in the stream (items consumed so far).
    pub fn offset(&self) -> u64 {
        self.reader.as_ref().map_or(0, Reader::position)
    }
}

/// A typed stream output port.
#[derive(Debug)]
pub struct StreamOutput<T: Item> {
    writer: Option<Writer>,
    _item: PhantomData<fn() -> T>,
}

impl<T: Item> Default for StreamOutput<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Item> StreamOutput<T> {
    /// An output port.
    pub fn new() -> Self {
        Self {
            writer: None,
            _item: PhantomData,
        }
    }

    /// The free space to write into. Its contents are unspecified (old items).
    pub fn slice(&mut self) -> &mut [T] {
        match &self.writer {
            None => &mut [],
            Some(w) => {
                let (p, n) = w.window();
                // SAFETY: [pos, min_read + capacity) belongs to the single writer: no reader
                // looks at it until it is published. Alignment and validity as for inputs; the
                // &mut self borrow prevents a second live slice.
                unsafe { std::slice::from_raw_parts_mut(p as *mut T, n) }
            }
        }
    }

    /// Publishes the first `n` items of [`slice`](Self::slice) at the end of the work call.
    ///
    /// # Panics
    /// If `n` is larger than the free space.
    pub fn produce(&mut self, n: usize) {
        match &mut self.writer {
            Some(w) => w.produce(n),
            None => assert!(n == 0, "produced {n} items on an unconnected output"),
        }
    }

    /// Attaches a tag to the item at absolute index `offset` (at least [`offset`](Self::offset)).
    ///
    /// # Panics
    /// If `offset` names an item already published.
    pub fn add_tag(&mut self, offset: u64, key: impl Into<Pmt>, value: impl Into<Pmt>) {
        if let Some(w) = &mut self.writer {
            w.add_tag(Tag::new(offset, key, value));
        }
    }

    /// Absolute index of `slice()[0]` in the stream (items produced so far).
    pub fn offset(&self) -> u64 {
        self.writer.as_ref().map_or(0, Writer::position)
    }

    /// A handle that keeps this port's buffer memory mapped as long as it lives (`None` while
    /// the port is not attached); see [`StreamInput::keep_alive`].
    pub fn keep_alive(&self) -> Option<BufferKeepAlive> {
        self.writer.as_ref().map(|w| BufferKeepAlive {
            _buffer: w.buffer().clone(),
        })
    }
}

/// Copies the tags on the next `n` items of `input` to the same positions of `output`
/// (for blocks that produce one output item per input item). Call before `consume`/`produce`.
pub fn propagate_tags<A: Item, B: Item>(
    input: &StreamInput<A>,
    output: &mut StreamOutput<B>,
    n: usize,
) {
    let tags = input.tags();
    if tags.is_empty() {
        return;
    }
    let (from, to) = (input.offset(), output.offset());
    for t in tags.iter().take_while(|t| t.offset < from + n as u64) {
        output.add_tag(t.offset - from + to, t.key.clone(), t.value.clone());
    }
}

/// One work call of a block that makes one output item per input item ("sync" block): `f`
/// gets the first `n` readable inputs and `n` free outputs, where `n` is the smaller window
/// (at most `limit`); then the tags on those items are copied to the same output positions and
/// `n` items are consumed and produced. Returns `n`.
///
/// ```
/// # use radioflow_runtime::prelude::*;
/// # struct Negate { input: StreamInput<f32>, output: StreamOutput<f32> }
/// # impl Negate {
/// fn work(&mut self) -> Result<WorkStatus, BlockError> {
///     sync_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
///         for (o, i) in o.iter_mut().zip(i) {
///             *o = -i;
///         }
///     });
///     Ok(WorkStatus::Continue)
/// }
/// # }
/// ```
pub fn sync_work<A: Item, B: Item>(
    input: &mut StreamInput<A>,
    output: &mut StreamOutput<B>,
    limit: usize,
    f: impl FnOnce(&[A], &mut [B]),
) -> usize {
    let i = input.slice();
    let o = output.slice();
    let n = i.len().min(o.len()).min(limit);
    f(&i[..n], &mut o[..n]);
    propagate_tags(input, output, n);
    input.consume(n);
    output.produce(n);
    n
}

/// Description of one declared port.
#[derive(Clone, Debug)]
pub(crate) struct PortSpec {
    pub(crate) name: String,
    pub(crate) item: Option<ItemType>,
    pub(crate) optional: bool,
}

/// The ports of a block, in declaration order, per direction.
#[derive(Clone, Debug, Default)]
pub(crate) struct PortSpecs {
    pub(crate) stream_in: Vec<PortSpec>,
    pub(crate) stream_out: Vec<PortSpec>,
    pub(crate) message_in: Vec<PortSpec>,
    pub(crate) message_out: Vec<PortSpec>,
}

impl PortSpecs {
    pub(crate) fn list(&self, d: Direction) -> &[PortSpec] {
        match d {
            Direction::StreamInput => &self.stream_in,
            Direction::StreamOutput => &self.stream_out,
            Direction::MessageInput => &self.message_in,
            Direction::MessageOutput => &self.message_out,
        }
    }
}

/// Endpoints handed to a block's ports when a run starts.
#[derive(Debug, Default)]
pub(crate) struct Attachments {
    pub(crate) stream_in: Vec<Option<Reader>>,
    pub(crate) stream_out: Vec<Option<Writer>>,
    pub(crate) message_out: Vec<Vec<Subscriber>>,
}

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

enum Mode<'a> {
    Describe(&'a mut PortSpecs),
    Attach(&'a mut Attachments),
    Before {
        max_items: u64,
        max_bytes: u64,
        out: &'a mut Before,
    },
    After(&'a mut After),
    Finish,
}

/// The visitor a block lists its ports to, in [`Block::ports`](crate::Block::ports).
/// Call its methods in the same order every time; the order defines port indices.
pub struct Ports<'a> {
    mode: Mode<'a>,
    n_in: usize,
    n_out: usize,
    n_msg_out: usize,
}

impl<'a> Ports<'a> {
    fn with(mode: Mode<'a>) -> Self {
        Self {
            mode,
            n_in: 0,
            n_out: 0,
            n_msg_out: 0,
        }
    }
    pub(crate) fn describe(specs: &'a mut PortSpecs) -> Self {
        Self::with(Mode::Describe(specs))
    }
    pub(crate) fn attach(a: &'a mut Attachments) -> Self {
        Self::with(Mode::Attach(a))
    }
    /// Each output's window is capped at `max_items` and at `max_bytes` (at least one item).
    pub(crate) fn before(max_items: u64, max_bytes: u64, out: &'a mut Before) -> Self {
        Self::with(Mode::Before {
            max_items,
            max_bytes,
            out,
        })
    }
    pub(crate) fn after(out: &'a mut After) -> Self {
        Self::with(Mode::After(out))
    }
    pub(crate) fn finish() -> Self {
        Self::with(Mode::Finish)
    }

    /// Declares a stream input named `name`.
    pub fn stream_input<T: Item>(&mut self, name: &str, port: &mut StreamInput<T>) {
        let idx = self.n_in;
        self.n_in += 1;
        match &mut self.mode {
            Mode::Describe(s) => s.stream_in.push(PortSpec {
                name: name.to_owned(),
                item: Some(ItemType::of::<T>()),
                optional: port.optional,
            }),
            Mode::Attach(a) => port.reader = a.stream_in.get_mut(idx).and_then(Option::take),
            Mode::Before { out, .. } => {
                out.inputs += 1;
                if let Some(r) = &mut port.reader {
                    if r.refresh() > 0 {
                        out.inputs_readable += 1;
                    }
                    if r.writer_done() {
                        out.inputs_done += 1;
                    }
                } else {
                    out.inputs_done += 1;
                }
            }
            Mode::After(out) => {
                out.inputs += 1;
                let (done, empty) = match &mut port.reader {
                    Some(r) => {
                        let released = r.commit();
                        out.progress |= released > 0;
                        out.consumed += released;
                        (r.writer_done(), r.available() == 0)
                    }
                    None => (true, true),
                };
                if done {
                    out.inputs_done += 1;
                    out.input_exhausted |= empty;
                }
            }
            Mode::Finish => {
                if let Some(mut r) = port.reader.take() {
                    r.finish();
                }
            }
        }
    }

    /// Declares a stream output named `name`.
    pub fn stream_output<T: Item>(&mut self, name: &str, port: &mut StreamOutput<T>) {
        let idx = self.n_out;
        self.n_out += 1;
        match &mut self.mode {
            Mode::Describe(s) => s.stream_out.push(PortSpec {
                name: name.to_owned(),
                item: Some(ItemType::of::<T>()),
                optional: false,
            }),
            Mode::Attach(a) => port.writer = a.stream_out.get_mut(idx).and_then(Option::take),
            Mode::Before {
                max_items,
                max_bytes,
                out,
            } => {
                out.outputs += 1;
                if let Some(w) = &mut port.writer {
                    let by_bytes = (*max_bytes / std::mem::size_of::<T>() as u64).max(1);
                    if w.refresh((*max_items).min(by_bytes)) > 0 {
                        out.outputs_writable += 1;
                    } else if !w.was_dead() {
                        out.outputs_full += 1;
                    }
                }
            }
            Mode::After(out) => {
                if let Some(w) = &mut port.writer {
                    let before = w.published();
                    out.progress |= w.commit();
                    out.produced += w.published() - before;
                    out.outputs += 1;
                    match w.dead_or_full() {
                        (true, _) => out.outputs_dead += 1,
                        (false, full) => out.output_full |= full,
                    }
                }
            }
            Mode::Finish => {
                if let Some(mut w) = port.writer.take() {
                    w.finish();
                }
            }
        }
    }

    /// Declares a message input named `name`; its messages arrive in
    /// [`Block::handle_message`](crate::Block::handle_message) with this port's index.
    pub fn message_input(&mut self, name: &str) {
        if let Mode::Describe(s) = &mut self.mode {
            s.message_in.push(PortSpec {
                name: name.to_owned(),
                item: None,
                optional: true,
            });
        }
    }

    /// Declares a message output named `name`.
    pub fn message_output(&mut self, name: &str, port: &mut MessageOutput) {
        let idx = self.n_msg_out;
        self.n_msg_out += 1;
        match &mut self.mode {
            Mode::Describe(s) => s.message_out.push(PortSpec {
                name: name.to_owned(),
                item: None,
                optional: true,
            }),
            Mode::Attach(a) => port.attach(
                a.message_out
                    .get_mut(idx)
                    .map(std::mem::take)
                    .unwrap_or_default(),
            ),
            Mode::After(out) => {
                if port.is_connected() {
                    out.outputs += 1;
                    if port.dead() {
                        out.outputs_dead += 1;
                    }
                }
            }
            Mode::Before { .. } => {}
            Mode::Finish => port.finish(),
        }
    }
}
