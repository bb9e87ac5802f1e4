//! Typed stream ports and the [`Ports`](struct@Ports) visitor through which a block declares its ports.
//!
//! Ports are fields of the block. [`Block::ports`](crate::Block::ports) lists them, in order,
//! to a [`Ports`](struct@Ports) visitor; the runtime uses the same listing to describe the block, to attach
//! buffers when a run starts, and to detach them when the block finishes. A port holds one
//! handle on its buffer endpoint ([`Endpoint`]); the task that steps the block holds the other
//! and refreshes and publishes positions around each work call (`port_table.rs`). Inside `work`
//! a port only hands out the window it owns: an input cannot read past what was written and an
//! output cannot write past free space.

use crate::atomics::Arc;
use crate::buffer::{Reader, StreamBuffer, Writer};
use crate::endpoint::Endpoint;
use crate::error::Direction;
use crate::from_message::MessageType;
use crate::item::Item;
use crate::item_type::ItemType;
use crate::message::{MessageOutput, Subscriber};
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
    reader: Option<Endpoint<Reader>>,
    optional: bool,
    /// Scalars the block needs readable before `work` can use any (at least 1; rounded up to
    /// whole vectors where declared).
    min_items: usize,
    /// Scalars per item (GNU Radio's `vlen`, at least 1).
    vlen: usize,
    /// The port's name while attached with vectors, for contract errors.
    name: Option<Box<str>>,
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
            min_items: 1,
            vlen: 1,
            name: None,
            _item: PhantomData,
        }
    }

    /// Carries vectors of `vlen` scalars (GNU Radio's vector items; at least 1): see
    /// [`set_vlen`](Self::set_vlen).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.set_vlen(vlen);
        self
    }

    /// As [`with_vlen`](Self::with_vlen), on an existing port. [`slice`](Self::slice),
    /// [`consume`](Self::consume) and the window sizes stay in scalars, but the runtime only
    /// offers whole vectors, and consuming part of one is an error of the block; tag offsets
    /// and [`offset`](Self::offset) count vectors, as GNU Radio's do. Only a port of the same
    /// vector length connects here. Declare it before the block is added to a flowgraph.
    pub fn set_vlen(&mut self, vlen: usize) {
        self.vlen = vlen.max(1);
    }

    /// Scalars per item (1 unless declared).
    pub fn vlen(&self) -> usize {
        self.vlen
    }

    /// Declares that `work` needs at least `n` readable items to make progress (a frame, a
    /// filter's history plus one decimation step; GNU Radio's `forecast`). The runtime sizes
    /// the buffer so that `n` items fit together with what the writer needs, calls `work` only
    /// when `n` items are readable or the writer has finished, and ends the block when fewer
    /// than `n` items are left after the writer finished. Declare it before the block is added
    /// to a flowgraph (in the block's constructor).
    pub fn with_min_items(mut self, n: usize) -> Self {
        self.set_min_items(n);
        self
    }

    /// As [`with_min_items`](Self::with_min_items), on an existing port.
    pub fn set_min_items(&mut self, n: usize) {
        self.min_items = n.max(1);
    }

    /// The declared minimum window (1 unless declared), rounded up to whole vectors.
    pub fn min_items(&self) -> usize {
        self.min_items.next_multiple_of(self.vlen)
    }

    /// An input that may stay unconnected (it then reads as finished and empty).
    pub fn optional() -> Self {
        Self {
            optional: true,
            ..Self::new()
        }
    }

    /// Whether a stream is connected here (false before the run starts and for an
    /// [`optional`](Self::optional) input left unconnected).
    pub fn is_connected(&self) -> bool {
        self.reader.is_some()
    }

    /// The reader, while attached.
    fn reader(&self) -> Option<&Reader> {
        // SAFETY: the task's handle is not in use while the block runs (endpoint.rs), and the
        // reference does not outlive this port borrow.
        self.reader.as_ref().map(|r| unsafe { r.get() })
    }

    /// The readable items, oldest first.
    pub fn slice(&self) -> &[T] {
        match self.reader() {
            None => &[],
            Some(r) => {
                let (p, n) = r.window();
                debug_assert!(
                    n.is_multiple_of(self.vlen),
                    "the writer published part of a vector"
                );
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
        if self.vlen > 1 && !n.is_multiple_of(self.vlen) {
            partial_vector(
                "consumed",
                n,
                "stream input",
                self.name.as_deref(),
                self.vlen,
            );
        }
        match &mut self.reader {
            // SAFETY: as in `reader`.
            Some(r) => unsafe { r.get_mut() }.consume(n),
            None => assert!(n == 0, "consumed {n} items from an unconnected input"),
        }
    }

    /// The writer finished and [`slice`](Self::slice) holds everything it will ever write.
    pub fn is_finished(&self) -> bool {
        self.reader().is_none_or(Reader::writer_done)
    }

    /// A handle that keeps this port's buffer memory mapped as long as it lives (`None` while
    /// the port is not attached). For bindings whose views of [`slice`](Self::slice) may
    /// outlive the work call (a leaked view then reads stale items, not unmapped memory).
    pub fn keep_alive(&self) -> Option<BufferKeepAlive> {
        self.reader().map(|r| BufferKeepAlive {
            _buffer: r.buffer().clone(),
        })
    }

    /// Tags on the items of [`slice`](Self::slice), sorted by offset (an offset counts items:
    /// vectors where the port carries them).
    pub fn tags(&self) -> &[Tag] {
        self.reader().map_or(&[], Reader::tags)
    }

    /// Absolute index of the item at `slice()[0]` in the stream (items consumed so far;
    /// vectors where the port carries them, as tag offsets count).
    pub fn offset(&self) -> u64 {
        let scalars = self.reader().map_or(0, Reader::position);
        if self.vlen > 1 {
            scalars / self.vlen as u64
        } else {
            scalars
        }
    }
}

/// A typed stream output port.
#[derive(Debug)]
pub struct StreamOutput<T: Item> {
    writer: Option<Endpoint<Writer>>,
    optional: bool,
    /// Free scalars the block needs before `work` can write any (at least 1; rounded up to
    /// whole vectors where declared).
    min_items: usize,
    /// Scalars per item (GNU Radio's `vlen`, at least 1).
    vlen: usize,
    /// The port's name while attached with vectors, for contract errors.
    name: Option<Box<str>>,
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
            optional: false,
            min_items: 1,
            vlen: 1,
            name: None,
            _item: PhantomData,
        }
    }

    /// Carries vectors of `vlen` scalars, as [`StreamInput::with_vlen`]: the free window
    /// offered is whole vectors, producing part of one is an error of the block, and tag
    /// offsets and [`offset`](Self::offset) count vectors.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.set_vlen(vlen);
        self
    }

    /// As [`with_vlen`](Self::with_vlen), on an existing port.
    pub fn set_vlen(&mut self, vlen: usize) {
        self.vlen = vlen.max(1);
    }

    /// Scalars per item (1 unless declared).
    pub fn vlen(&self) -> usize {
        self.vlen
    }

    /// An output that may stay unconnected (its [`slice`](Self::slice) is then empty: the
    /// block checks [`is_connected`](Self::is_connected) and writes nothing there).
    pub fn optional() -> Self {
        Self {
            optional: true,
            ..Self::new()
        }
    }

    /// Whether a stream is connected here (false before the run starts and for an
    /// [`optional`](Self::optional) output left unconnected).
    pub fn is_connected(&self) -> bool {
        self.writer.is_some()
    }

    /// Declares that `work` needs a window of at least `n` free items to write anything (a
    /// whole output frame; GNU Radio's `set_output_multiple` / `set_min_output_buffer`). The
    /// runtime sizes the buffer (and any per-call limit of the scheduler) so that such a window
    /// comes, calls `work` only when it is there, and does not judge the block finished while
    /// it waits for it. Declare it before the block is added to a flowgraph.
    pub fn with_min_items(mut self, n: usize) -> Self {
        self.set_min_items(n);
        self
    }

    /// As [`with_min_items`](Self::with_min_items), on an existing port.
    pub fn set_min_items(&mut self, n: usize) {
        self.min_items = n.max(1);
    }

    /// The declared minimum window (1 unless declared), rounded up to whole vectors.
    pub fn min_items(&self) -> usize {
        self.min_items.next_multiple_of(self.vlen)
    }

    /// The writer, while attached.
    fn writer(&self) -> Option<&Writer> {
        // SAFETY: as in `StreamInput::reader`.
        self.writer.as_ref().map(|w| unsafe { w.get() })
    }

    /// The writer, exclusively, while attached.
    fn writer_mut(&mut self) -> Option<&mut Writer> {
        // SAFETY: as in `StreamInput::reader`.
        self.writer.as_mut().map(|w| unsafe { w.get_mut() })
    }

    /// The free space to write into. Its contents are unspecified (old items).
    pub fn slice(&mut self) -> &mut [T] {
        match self.writer() {
            None => &mut [],
            Some(w) => {
                let (p, mut n) = w.window();
                if self.vlen > 1 {
                    // The ring or a per-call cap may end inside a vector: offer whole ones.
                    n -= n % self.vlen;
                }
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
        if self.vlen > 1 && !n.is_multiple_of(self.vlen) {
            partial_vector(
                "produced",
                n,
                "stream output",
                self.name.as_deref(),
                self.vlen,
            );
        }
        match self.writer_mut() {
            Some(w) => w.produce(n),
            None => assert!(n == 0, "produced {n} items on an unconnected output"),
        }
    }

    /// Attaches a tag to the item at absolute index `offset` (at least [`offset`](Self::offset);
    /// a vector's index where the port carries vectors).
    ///
    /// # Panics
    /// If `offset` names an item already published.
    pub fn add_tag(&mut self, offset: u64, key: impl Into<Pmt>, value: impl Into<Pmt>) {
        if let Some(w) = self.writer_mut() {
            w.add_tag(Tag::new(offset, key, value));
        }
    }

    /// Attaches `tag` (its source id kept) to the item at its `offset`, as
    /// [`add_tag`](Self::add_tag) does.
    ///
    /// # Panics
    /// If the offset names an item already published.
    pub fn push_tag(&mut self, tag: Tag) {
        if let Some(w) = self.writer_mut() {
            w.add_tag(tag);
        }
    }

    /// Attaches a copy of `tag` (key, value and source id) to the item at absolute index
    /// `offset`: a tag moved to another item, as a block that changes the rate moves it.
    ///
    /// # Panics
    /// If `offset` names an item already published.
    pub fn add_tag_at(&mut self, offset: u64, tag: &Tag) {
        self.push_tag(Tag {
            offset,
            ..tag.clone()
        });
    }

    /// Absolute index of the item at `slice()[0]` in the stream (items produced so far;
    /// vectors where the port carries them).
    pub fn offset(&self) -> u64 {
        let scalars = self.writer().map_or(0, Writer::position);
        if self.vlen > 1 {
            scalars / self.vlen as u64
        } else {
            scalars
        }
    }

    /// Whether every reader of this output has finished (downstream end of stream): nothing
    /// written here will be read. For blocks that wait in `work` for data from outside (a
    /// socket) and must not wait for a consumer that is gone.
    pub fn readers_gone(&self) -> bool {
        self.writer().is_some_and(|w| w.dead_or_short(0).0)
    }

    /// Whether the scheduler runs a reader of this output on another core than this block
    /// (`flow`: a connection between two workers). A block writing large windows of data it
    /// will not read again may then use non-temporal stores, as [`copy_work`](crate::copy_work)
    /// does.
    pub fn read_elsewhere(&self) -> bool {
        self.writer().is_some_and(Writer::read_elsewhere)
    }

    /// A handle that keeps this port's buffer memory mapped as long as it lives (`None` while
    /// the port is not attached); see [`StreamInput::keep_alive`].
    pub fn keep_alive(&self) -> Option<BufferKeepAlive> {
        self.writer().map(|w| BufferKeepAlive {
            _buffer: w.buffer().clone(),
        })
    }
}

/// A block consumed or produced part of a vector: a bug in the block, reported naming the
/// port (the runtime adds the block's name).
#[cold]
#[inline(never)]
fn partial_vector(verb: &str, n: usize, direction: &str, port: Option<&str>, vlen: usize) -> ! {
    panic!(
        "{verb} {n} scalars on {direction} '{}', which carries vectors of {vlen}: not a whole \
         number of vectors",
        port.unwrap_or("?")
    )
}

/// Copies the tags on the next `n` scalars of `input` (`n / vlen` of its items) to the same
/// item positions of `output` (for blocks that produce one output item per input item, of the
/// same vector length). Call before `consume`/`produce`.
#[inline(always)]
pub fn propagate_tags<A: Item, B: Item>(
    input: &StreamInput<A>,
    output: &mut StreamOutput<B>,
    n: usize,
) {
    if !input.tags().is_empty() {
        copy_tags(input, output, n);
    }
}

/// Copies the tags on the next `consumed` items of `input` to `output` at item
/// `offset · num / den` rounded half up, as GNU Radio moves tags through a block of relative
/// rate `num / den` (gr-dtv's blocks), or at the next item to be written where that one is
/// written already. Call before `consume`/`produce`.
pub fn propagate_tags_at_rate<A: Item, B: Item>(
    input: &StreamInput<A>,
    output: &mut StreamOutput<B>,
    consumed: usize,
    num: u64,
    den: u64,
) {
    let end = input.offset() + consumed as u64;
    let next = output.offset();
    for t in input.tags().iter().take_while(|t| t.offset < end) {
        let scaled =
            (2 * u128::from(t.offset) * u128::from(num) + u128::from(den)) / (2 * u128::from(den));
        output.push_tag(Tag {
            offset: (scaled as u64).max(next),
            ..t.clone()
        });
    }
}

fn copy_tags<A: Item, B: Item>(input: &StreamInput<A>, output: &mut StreamOutput<B>, n: usize) {
    let (from, to) = (input.offset(), output.offset());
    let items = (n / input.vlen) as u64;
    for t in input.tags().iter().take_while(|t| t.offset < from + items) {
        output.push_tag(Tag {
            offset: t.offset - from + to,
            ..t.clone()
        });
    }
}

/// One work call of a block that makes one output item per input item (GNU Radio's "sync"
/// blocks): `f` gets the first `n` readable inputs and `n` free outputs, where `n` is the
/// smaller window (at most `limit`); then the tags on those items are copied to the same output
/// positions and `n` items are consumed and produced. Returns `n`.
///
/// ```
/// # use radioflow_runtime::prelude::*;
/// # struct Negate { input: StreamInput<f32>, output: StreamOutput<f32> }
/// # impl Negate {
/// fn work(&mut self) -> Result<WorkStatus, BlockError> {
///     one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |i, o| {
///         for (o, i) in o.iter_mut().zip(i) {
///             *o = -i;
///         }
///     });
///     Ok(WorkStatus::Continue)
/// }
/// # }
/// ```
#[inline]
pub fn one_to_one_work<A: Item, B: Item>(
    input: &mut StreamInput<A>,
    output: &mut StreamOutput<B>,
    limit: usize,
    f: impl FnOnce(&[A], &mut [B]),
) -> usize {
    let vlen = input.vlen;
    debug_assert_eq!(vlen, output.vlen, "one-to-one work between vector lengths");
    let i = input.slice();
    let o = output.slice();
    let mut n = i.len().min(o.len()).min(limit);
    if vlen > 1 {
        n -= n % vlen;
    }
    f(&i[..n], &mut o[..n]);
    propagate_tags(input, output, n);
    input.consume(n);
    output.produce(n);
    n
}

/// The ports of a block declared on its fields (`#[derive(Ports)]` writes this; see
/// [`block`](crate::block)). Not meant to be implemented by hand.
#[doc(hidden)]
pub trait PortFields {
    /// How many fields are stream ports (a `Vec` of ports counts once).
    const STREAM_PORT_FIELDS: usize;

    /// Each field's port: its name (a `Vec`'s prefix), direction, and whether it is a `Vec`.
    const PORT_LIST: &'static [(&'static str, crate::Direction, bool)];

    /// Lists the fields' ports to `p`, in field order.
    fn list_ports(&mut self, p: &mut Ports<'_>);
}

/// Description of one declared port.
#[derive(Clone, Debug)]
pub(crate) struct PortSpec {
    pub(crate) name: String,
    pub(crate) item: Option<ItemType>,
    pub(crate) optional: bool,
    /// The window the block needs on this stream port (1 for message ports).
    pub(crate) min_items: usize,
    /// What a typed message input accepts (`None`: any message, or not a message input).
    pub(crate) message_type: Option<MessageType>,
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
    pub(crate) stream_in: Vec<Option<Endpoint<Reader>>>,
    pub(crate) stream_out: Vec<Option<Endpoint<Writer>>>,
    pub(crate) message_out: Vec<Vec<Subscriber>>,
}

enum Mode<'a> {
    Describe(&'a mut PortSpecs),
    Attach(&'a mut Attachments),
    /// Drops the ports' endpoint handles and finishes the message outputs (the task has
    /// finished the stream endpoints through its own handles).
    Detach,
    /// The block's run is starting (before its `start` hook): its message outputs' senders
    /// may post, their messages going out when the ports are attached.
    Open,
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
    pub(crate) fn detach() -> Self {
        Self::with(Mode::Detach)
    }
    pub(crate) fn open() -> Self {
        Self::with(Mode::Open)
    }

    /// Declares a stream input named `name`.
    pub fn stream_input<T: Item>(&mut self, name: &str, port: &mut StreamInput<T>) {
        let idx = self.n_in;
        self.n_in += 1;
        match &mut self.mode {
            Mode::Describe(s) => s.stream_in.push(PortSpec {
                name: name.to_owned(),
                item: Some(ItemType::of::<T>().with_vlen(port.vlen)),
                optional: port.optional,
                min_items: port.min_items(),
                message_type: None,
            }),
            Mode::Attach(a) => {
                port.reader = a.stream_in.get_mut(idx).and_then(Option::take);
                port.name = (port.vlen > 1).then(|| name.into());
            }
            Mode::Detach => port.reader = None,
            Mode::Open => {}
        }
    }

    /// Declares a stream output named `name`.
    pub fn stream_output<T: Item>(&mut self, name: &str, port: &mut StreamOutput<T>) {
        let idx = self.n_out;
        self.n_out += 1;
        match &mut self.mode {
            Mode::Describe(s) => s.stream_out.push(PortSpec {
                name: name.to_owned(),
                item: Some(ItemType::of::<T>().with_vlen(port.vlen)),
                optional: port.optional,
                min_items: port.min_items(),
                message_type: None,
            }),
            Mode::Attach(a) => {
                port.writer = a.stream_out.get_mut(idx).and_then(Option::take);
                port.name = (port.vlen > 1).then(|| name.into());
            }
            Mode::Detach => port.writer = None,
            Mode::Open => {}
        }
    }

    /// Declares a message input named `name`; its messages arrive in
    /// [`Block::handle_message`](crate::Block::handle_message) with this port's index.
    pub fn message_input(&mut self, name: &str) {
        self.push_message_input(name, None);
    }

    /// Declares a message input named `name` whose handler takes a typed value: a message that
    /// does not convert can be refused before it is sent
    /// ([`Flowgraph::message_input_type`](crate::Flowgraph::message_input_type)).
    pub fn typed_message_input(&mut self, name: &str, message_type: MessageType) {
        self.push_message_input(name, Some(message_type));
    }

    fn push_message_input(&mut self, name: &str, message_type: Option<MessageType>) {
        if let Mode::Describe(s) = &mut self.mode {
            s.message_in.push(PortSpec {
                name: name.to_owned(),
                item: None,
                optional: true,
                min_items: 1,
                message_type,
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
                min_items: 1,
                message_type: None,
            }),
            Mode::Attach(a) => port.attach(
                a.message_out
                    .get_mut(idx)
                    .map(std::mem::take)
                    .unwrap_or_default(),
            ),
            Mode::Detach => port.finish(),
            Mode::Open => port.open(),
        }
    }
}
