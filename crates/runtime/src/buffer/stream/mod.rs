//! The shared state of one stream buffer and its untyped endpoints.
//!
//! Positions are absolute item counts (`u64`, never wrapping in practice). The writer owns
//! `[write, min_read + capacity)`, each reader owns `[its read, write)`; the ring index of an
//! absolute position is `pos % capacity`. Each endpoint keeps the byte offset of its position
//! in the ring as it moves, so a window costs no division. A finished reader stores `u64::MAX`
//! as its position, which takes it out of the writer's minimum.
//!
//! A buffer with one reader in the writer's chain may borrow a [`Region`] while it is empty:
//! its items then live at `region + (pos - region_base)` instead of in the ring (`borrow.rs`
//! has the protocol, `buffer/region.rs` the memory). Only the writer moves items into or out of the region; the reader frees it
//! when it has read everything.

use super::mapping::{page_size, Mapping};
use super::region::Region;
use super::tags::TagLog;
use crate::activation::{Activation, Wake};
use crate::atomics::{Arc, AtomicBool, AtomicU64};
use crate::tag::Tag;
use crate::valgrind;
use crossbeam_utils::CachePadded;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

mod borrow;

/// Position stored by a reader that will read no more.
const READER_GONE: u64 = u64::MAX;

/// `region_base` while the items are in the ring.
const IN_RING: u64 = u64::MAX;

#[derive(Debug)]
struct WriterSide {
    pos: AtomicU64,
    done: AtomicBool,
}

/// Shared state of a buffer. Created per run by the flowgraph, shared by its endpoints.
#[derive(Debug)]
pub(crate) struct StreamBuffer {
    mapping: Mapping,
    item_size: usize,
    /// Scalars per item of the stream (its ports' vector length): tag offsets count items,
    /// positions count scalars.
    vlen: u64,
    /// Capacity in items.
    capacity: u64,
    /// Capacity in bytes (one copy of the ring).
    bytes: usize,
    writer: CachePadded<WriterSide>,
    readers: Box<[CachePadded<AtomicU64>]>,
    tags: TagLog,
    /// How the writer wakes each reader (by slot).
    wake_readers: Box<[Wake]>,
    /// How each reader (by slot) wakes the writer.
    wake_writer: Box<[Wake]>,
    /// The slots of readers that only watch the stream (probes, `Block::is_observer`): when
    /// every other reader has finished, they are let go too, so that the writer ends as it
    /// would without them. Empty when there are none.
    observers: Box<[bool]>,
    /// The region this buffer may borrow, if any, and how many items it holds.
    region: Option<std::sync::Arc<Region>>,
    region_items: u64,
    /// The position at the region's first byte while the items are in the region, `IN_RING`
    /// otherwise. Changed only by this buffer's endpoints, which one thread runs (`region.rs`).
    region_base: AtomicU64,
}

impl StreamBuffer {
    /// A buffer of at least `min_bytes` for items of `item_size` bytes, rounded up so that the
    /// capacity is a whole number of pages and of items.
    #[cfg(test)]
    pub(crate) fn new(
        item_size: usize,
        min_bytes: usize,
        writer: &Arc<Activation>,
        readers: &[Arc<Activation>],
    ) -> std::io::Result<Arc<Self>> {
        Self::with_region((item_size, 1), min_bytes, writer, readers, &[], None)
    }

    /// As [`new`](Self::new), borrowing `region` while empty (`region.rs`); `observers` marks
    /// the reader slots that only watch (empty: none). The caller
    /// guarantees the writer and the readers are always run by one thread at a time. The
    /// region is not used with several readers, or when it is larger than the ring (whose
    /// room takes a region's items back) or smaller than an item. `item` is the size of one
    /// scalar in bytes and the stream's vector length (scalars per item, for tag offsets).
    pub(crate) fn with_region(
        item: (usize, usize),
        min_bytes: usize,
        writer: &Arc<Activation>,
        readers: &[Arc<Activation>],
        observers: &[bool],
        region: Option<std::sync::Arc<Region>>,
    ) -> std::io::Result<Arc<Self>> {
        let (item_size, _) = item;
        assert!(item_size > 0, "zero-sized items cannot be streamed");
        let granule = lcm(page_size(), item_size);
        let bytes = min_bytes
            .max(1)
            .div_ceil(granule)
            .checked_mul(granule)
            .filter(|&b| b <= super::size::max_buffer_bytes())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    super::size::too_large(min_bytes),
                )
            })?;
        let mapping = Mapping::new(bytes)?;
        Ok(Self::on_mapping(
            item, mapping, writer, readers, observers, region,
        ))
    }

    /// A buffer on `mapping` (a whole number of items), as [`with_region`](Self::with_region).
    fn on_mapping(
        (item_size, vlen): (usize, usize),
        mapping: Mapping,
        writer: &Arc<Activation>,
        readers: &[Arc<Activation>],
        observers: &[bool],
        region: Option<std::sync::Arc<Region>>,
    ) -> Arc<Self> {
        let n_readers = readers.len();
        assert!(observers.is_empty() || observers.len() == n_readers);
        // Observers are let go only after other readers: with none of those, they are
        // ordinary readers.
        let observers: Box<[bool]> = if observers.contains(&false) {
            observers.into()
        } else {
            Box::new([])
        };
        let region = region.filter(|r| {
            n_readers == 1 && r.bytes() >= item_size && r.bytes() <= mapping.capacity()
        });
        let region_items = region
            .as_ref()
            .map_or(0, |r| (r.bytes() / item_size) as u64);
        let buf = Arc::new(Self {
            capacity: (mapping.capacity() / item_size) as u64,
            bytes: mapping.capacity(),
            mapping,
            item_size,
            vlen: vlen.max(1) as u64,
            writer: CachePadded::new(WriterSide {
                pos: AtomicU64::new(0),
                done: AtomicBool::new(false),
            }),
            readers: (0..n_readers)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            tags: TagLog::default(),
            wake_readers: readers.iter().map(|r| Wake::new(r, writer)).collect(),
            wake_writer: readers.iter().map(|r| Wake::new(writer, r)).collect(),
            observers,
            region,
            region_items,
            region_base: AtomicU64::new(IN_RING),
        });
        valgrind::untracked(&buf.region_base);
        // The positions are atomics: no access to them is a data race.
        valgrind::untracked(&*buf.writer);
        valgrind::untracked(&*buf.readers);
        buf.tags.untrack_total();
        buf
    }

    /// The position (in scalars) of the first scalar of the item a tag is on.
    fn tag_position(&self, t: &Tag) -> u64 {
        t.offset.saturating_mul(self.vlen)
    }

    /// Capacity in items.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Smallest position of a live reader, `READER_GONE` if none is left.
    #[inline]
    fn min_read(&self) -> u64 {
        self.readers
            .iter()
            .map(|r| {
                let pos = r.load(Acquire);
                valgrind::happens_after(r);
                pos
            })
            .min()
            .unwrap_or(READER_GONE)
    }

    /// Items written and not yet read by the slowest live reader, and the capacity, for
    /// observers on other threads (`Flowgraph::buffer_fill`): two loads of positions the
    /// endpoints publish anyway; the two may come from different moments.
    pub(crate) fn fill(&self) -> (u64, u64) {
        let write = self.writer.pos.load(Acquire);
        let read = self.min_read();
        let items = if read == READER_GONE {
            0
        } else {
            write.saturating_sub(read)
        };
        (items.min(self.capacity), self.capacity)
    }

    /// The position of the slowest live reader (`u64::MAX` if none is left).
    pub(crate) fn min_read_position(&self) -> u64 {
        self.min_read()
    }

    /// Whether the buffer was given a region it may borrow.
    #[cfg(test)]
    pub(crate) fn has_region(&self) -> bool {
        self.region.is_some()
    }

    /// The ring byte offset `n` items after `offset` (`n` at most a capacity).
    #[inline]
    fn advance(&self, offset: usize, n: usize) -> usize {
        let next = offset + n * self.item_size;
        if next >= self.bytes {
            next - self.bytes
        } else {
            next
        }
    }

    fn notify_readers(&self) {
        for w in self.wake_readers.iter() {
            w.notify();
        }
    }

    /// Called when a reader that is not an observer has finished: if it was the last one,
    /// the observers are let go (their slots marked gone, which their later commits keep), so
    /// the writer sees no reader left and ends.
    fn release_observers_if_alone(&self) {
        if self.observers.is_empty() {
            return;
        }
        let others_gone = self
            .observers
            .iter()
            .zip(self.readers.iter())
            .all(|(&observer, r)| observer || r.load(Acquire) == READER_GONE);
        if others_gone {
            for (slot, _) in self.observers.iter().enumerate().filter(|&(_, &o)| o) {
                valgrind::happens_before(&self.readers[slot]);
                self.readers[slot].store(READER_GONE, Release);
                self.wake_writer[slot].notify();
            }
        }
    }
}

/// The first byte of the memory an endpoint's offset counts from (ring or region), kept by the
/// endpoint so that a window costs one addition.
#[derive(Clone, Copy, Debug)]
struct Start(*mut u8);

// SAFETY: a plain address into memory the buffer owns; who touches which bytes when is decided
// by the positions, as for the memory itself.
unsafe impl Send for Start {}

impl Start {
    /// The address `offset` bytes further.
    ///
    /// # Safety
    /// `offset` must lie inside the memory (a ring offset < capacity, or a region offset below
    /// the region's end).
    #[inline]
    unsafe fn at(self, offset: usize) -> *mut u8 {
        // SAFETY: as the caller promises.
        unsafe { self.0.add(offset) }
    }
}

fn lcm(a: usize, b: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    a / gcd(a, b) * b
}

/// The writing end of a buffer (owned by the producing block's output port).
#[derive(Debug)]
pub(crate) struct Writer {
    buf: Arc<StreamBuffer>,
    /// Local write position; items below `published` are visible to readers.
    pos: u64,
    /// Ring byte offset of `pos`.
    offset: usize,
    published: u64,
    /// Ring byte offset of `published` (while in the ring).
    published_offset: usize,
    /// The items are in the region (`offset` counts from its start).
    in_region: bool,
    /// Where `offset` counts from.
    start: Start,
    /// End of the writable window computed by [`Writer::refresh`].
    limit: u64,
    /// Tags added since the last commit, in insertion order.
    staged: Vec<Tag>,
    last_min_read: u64,
    /// A reader runs on another core (as the scheduler placed them).
    read_elsewhere: bool,
    /// Never borrow the region again (`keep_in_ring`).
    ring_only: bool,
}

impl Writer {
    /// The buffer this writer fills.
    pub(crate) fn buffer(&self) -> &Arc<StreamBuffer> {
        &self.buf
    }

    pub(crate) fn new(buf: Arc<StreamBuffer>) -> Self {
        Self {
            start: buf.start(false),
            buf,
            pos: 0,
            offset: 0,
            published: 0,
            published_offset: 0,
            in_region: false,
            limit: 0,
            staged: Vec::new(),
            last_min_read: 0,
            read_elsewhere: false,
            ring_only: false,
        }
    }

    /// Whether, at the last [`refresh`](Self::refresh), no reader was left or every reader
    /// had read everything published (the window was as large as the buffer allows).
    pub(crate) fn was_empty_or_dead(&self) -> bool {
        self.last_min_read == READER_GONE || self.last_min_read == self.published
    }

    /// Marks the items as read on another core than the writer's.
    pub(crate) fn set_read_elsewhere(&mut self, elsewhere: bool) {
        self.read_elsewhere = elsewhere;
    }

    /// Whether a reader runs on another core than the writer's.
    pub(crate) fn read_elsewhere(&self) -> bool {
        self.read_elsewhere
    }

    /// Recomputes the free window, at most `max_items` long. Returns its length.
    #[inline]
    pub(crate) fn refresh(&mut self, max_items: u64) -> u64 {
        let min = self.buf.min_read();
        self.last_min_read = min;
        self.limit = if min == READER_GONE {
            self.pos
        } else {
            debug_assert!(min <= self.published, "a reader overtook the writer");
            let end = if self.buf.region.is_some() {
                self.place(min)
            } else {
                min + self.buf.capacity
            };
            end.min(self.pos.saturating_add(max_items))
        };
        self.limit - self.pos
    }

    /// Bytes per item.
    pub(crate) fn item_size(&self) -> usize {
        self.buf.item_size
    }

    /// Free items in the window.
    pub(crate) fn free(&self) -> usize {
        (self.limit - self.pos) as usize
    }

    /// Start of the window and its length in items.
    pub(crate) fn window(&self) -> (*mut u8, usize) {
        debug_assert!(self.offset < self.buf.bytes);
        // SAFETY: the offset of the write position: inside the ring, or below the region's
        // end while the items are there (the window ends there).
        (unsafe { self.start.at(self.offset) }, self.free())
    }

    pub(crate) fn position(&self) -> u64 {
        self.pos
    }

    /// # Panics
    /// If `n` exceeds the free window.
    pub(crate) fn produce(&mut self, n: usize) {
        assert!(
            n <= self.free(),
            "produced {n} items but only {} were free",
            self.free()
        );
        self.pos += n as u64;
        self.offset = self.buf.advance(self.offset, n);
    }

    /// # Panics
    /// If `offset` is below the first unpublished item.
    pub(crate) fn add_tag(&mut self, tag: Tag) {
        assert!(
            self.buf.tag_position(&tag) >= self.published,
            "tag offset {} is on an item already published (next is {})",
            tag.offset,
            self.published / self.buf.vlen
        );
        self.staged.push(tag);
    }

    /// Publishes produced items (and their tags) and wakes readers. Returns how many items
    /// were published.
    #[inline]
    pub(crate) fn commit(&mut self) -> u64 {
        if self.pos == self.published {
            if self.in_region {
                self.free_idle_region();
            }
            return 0;
        }
        let published = self.pos - self.published;
        if !self.in_region && self.buf.mapping.needs_mirror() {
            let n = (self.pos - self.published) as usize;
            // SAFETY: we are the only writer and [published, pos) is not visible to readers yet.
            unsafe {
                self.buf
                    .mapping
                    .mirror(self.published_offset, n * self.buf.item_size)
            };
        }
        self.published_offset = self.offset;
        if !self.staged.is_empty() {
            self.flush_tags();
        }
        valgrind::happens_before(&*self.buf.writer);
        self.buf.writer.pos.store(self.pos, Release);
        self.published = self.pos;
        self.buf.notify_readers();
        published
    }

    fn flush_tags(&mut self) {
        self.staged.sort_by_key(|t| t.offset);
        let ready = self
            .staged
            .partition_point(|t| self.buf.tag_position(t) < self.pos);
        if ready > 0 {
            // Tags count items: an item is consumed once all its scalars are.
            let min_read_item = self.last_min_read / self.buf.vlen;
            self.buf
                .tags
                .push(self.staged.drain(..ready), min_read_item);
        }
    }

    /// No reader was left at the last [`Writer::refresh`].
    pub(crate) fn was_dead(&self) -> bool {
        self.last_min_read == READER_GONE
    }

    /// Whether the output is dead (no reader left) or short (fewer than `need` free items), in
    /// one scan of the reader positions.
    #[inline]
    pub(crate) fn dead_or_short(&self, need: u64) -> (bool, bool) {
        let min = self.buf.min_read();
        if min == READER_GONE {
            (true, false)
        } else {
            (false, self.pos - min + need > self.buf.capacity)
        }
    }

    /// Marks the stream finished (after a final commit) and wakes readers.
    pub(crate) fn finish(&mut self) {
        self.commit();
        if self.in_region {
            self.free_idle_region();
        }
        valgrind::happens_before(&*self.buf.writer);
        self.buf.writer.done.store(true, Release);
        self.buf.notify_readers();
    }
}

/// The reading end of a buffer (owned by a consuming block's input port).
#[derive(Debug)]
pub(crate) struct Reader {
    buf: Arc<StreamBuffer>,
    slot: usize,
    pos: u64,
    /// Ring byte offset of `pos` (region byte offset while `in_region`).
    offset: usize,
    /// The items were in the region at the last refresh.
    in_region: bool,
    /// Where `offset` counts from.
    start: Start,
    published: u64,
    /// Writer position seen by the last refresh.
    limit: u64,
    /// The writer had finished at the last refresh, so `limit` is final.
    writer_done: bool,
    /// Fetched tags on items not consumed yet, sorted by offset.
    tags: Vec<Tag>,
    tags_fetched: u64,
    /// An observer's slot (`StreamBuffer::observers`): it may be let go by another reader.
    observer: bool,
}

impl Reader {
    /// The buffer this reader reads.
    pub(crate) fn buffer(&self) -> &Arc<StreamBuffer> {
        &self.buf
    }

    pub(crate) fn new(buf: Arc<StreamBuffer>, slot: usize) -> Self {
        assert!(slot < buf.readers.len());
        let observer = buf.observers.get(slot).copied().unwrap_or(false);
        Self {
            start: buf.start(false),
            buf,
            slot,
            pos: 0,
            offset: 0,
            in_region: false,
            published: 0,
            limit: 0,
            writer_done: false,
            tags: Vec::new(),
            tags_fetched: 0,
            observer,
        }
    }

    /// Takes a new snapshot of what the writer published. Returns the readable length.
    #[inline]
    pub(crate) fn refresh(&mut self) -> u64 {
        // `done` before `pos`: if the writer had finished, the position read next is final.
        self.writer_done = self.buf.writer.done.load(Acquire);
        self.limit = self.buf.writer.pos.load(Acquire);
        valgrind::happens_after(&*self.buf.writer);
        debug_assert!(self.limit >= self.pos);
        if self.buf.region.is_some() {
            self.locate();
        }
        if self.buf.tags.total() > self.tags_fetched {
            self.tags_fetched = self.buf.tags.fetch(self.tags_fetched, &mut self.tags);
        }
        self.limit - self.pos
    }

    pub(crate) fn available(&self) -> usize {
        (self.limit - self.pos) as usize
    }

    /// The buffer holds as many unread items as it can: the writer cannot add one before this
    /// reader consumes (judged on the last refresh).
    pub(crate) fn is_full(&self) -> bool {
        self.limit - self.pos >= self.buf.capacity
    }

    pub(crate) fn window(&self) -> (*const u8, usize) {
        debug_assert!(self.offset < self.buf.bytes);
        // SAFETY: the offset of the read position: inside the ring, or below the region's end
        // while the items are there (the window ends there).
        (unsafe { self.start.at(self.offset) }, self.available())
    }

    pub(crate) fn position(&self) -> u64 {
        self.pos
    }

    /// The writer finished and every item it wrote is in the window.
    pub(crate) fn writer_done(&self) -> bool {
        self.writer_done
    }

    /// Tags on the items of the window.
    pub(crate) fn tags(&self) -> &[Tag] {
        if self.tags.is_empty() {
            return &[];
        }
        let at = |t: &Tag| self.buf.tag_position(t);
        let start = self.tags.partition_point(|t| at(t) < self.pos);
        let end = self.tags.partition_point(|t| at(t) < self.limit);
        &self.tags[start..end]
    }

    /// # Panics
    /// If `n` exceeds the readable window.
    pub(crate) fn consume(&mut self, n: usize) {
        assert!(
            n <= self.available(),
            "consumed {n} items but only {} were readable",
            self.available()
        );
        self.pos += n as u64;
        self.offset = self.buf.advance(self.offset, n);
    }

    /// Releases consumed items to the writer. Returns how many items were released.
    #[inline]
    pub(crate) fn commit(&mut self) -> u64 {
        let released = self.pos - self.published;
        if released == 0 {
            return 0;
        }
        if !self.tags.is_empty() {
            let gone = self
                .tags
                .partition_point(|t| self.buf.tag_position(t) < self.pos);
            self.tags.drain(..gone);
        }
        valgrind::happens_before(&self.buf.readers[self.slot]);
        if self.observer {
            // The slot may have been marked gone by the last other reader: it stays so.
            let _ = self.buf.readers[self.slot].compare_exchange(
                self.published,
                self.pos,
                Release,
                Relaxed,
            );
        } else {
            self.buf.readers[self.slot].store(self.pos, Release);
        }
        self.published = self.pos;
        if self.in_region && self.pos == self.buf.writer.pos.load(Acquire) {
            // Read everything: the region is free for the next buffer of the chain.
            self.buf.free_region();
        }
        self.buf.wake_writer[self.slot].notify();
        released
    }

    /// Leaves the buffer: the writer no longer waits for this reader.
    pub(crate) fn finish(&mut self) {
        valgrind::happens_before(&self.buf.readers[self.slot]);
        self.buf.readers[self.slot].store(READER_GONE, Release);
        self.buf.free_region();
        self.buf.wake_writer[self.slot].notify();
        if !self.observer {
            self.buf.release_observers_if_alone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    fn buffer(item: usize, bytes: usize, readers: usize) -> Arc<StreamBuffer> {
        let a = Activation::alone(Arc::new(crate::parker::Parker::new()));
        StreamBuffer::new(item, bytes, &a, &vec![a.clone(); readers]).unwrap()
    }

    #[test]
    fn capacity_is_a_whole_number_of_pages_and_items() {
        let b = buffer(12, 1, 1);
        assert_eq!(b.capacity() as usize * 12 % page_size(), 0);
        assert_eq!(b.capacity() as usize * 12, lcm(page_size(), 12));
        let b = buffer(4, 65536, 1);
        assert_eq!(b.capacity(), 16384);
    }

    #[test]
    fn items_flow_in_order_through_many_wraps_with_two_readers() {
        let buf = buffer(4, 1, 2);
        let cap = buf.capacity();
        let mut w = Writer::new(buf.clone());
        let mut r = [Reader::new(buf.clone(), 0), Reader::new(buf.clone(), 1)];
        let mut next = 0u32;
        let mut expect = [0u32; 2];
        let chunks = [1usize, 7, 333, 1000, 4096, 5];
        // Until both readers have gone round the ring ten times (every chunk size meets
        // every phase of the ring; under Miri, which interprets every item, no further).
        let mut round = 0;
        while expect.iter().any(|&e| e <= 10 * cap as u32) {
            assert!(round < 1000, "the readers stopped advancing at {expect:?}");
            let free = w.refresh(u64::MAX) as usize;
            assert!(free as u64 <= cap);
            let n = free.min(chunks[round % chunks.len()]);
            let (p, len) = w.window();
            // SAFETY: the window is ours; u32 is valid for any bytes.
            let out = unsafe { std::slice::from_raw_parts_mut(p as *mut u32, len) };
            for x in &mut out[..n] {
                *x = next;
                next += 1;
            }
            w.produce(n);
            w.commit();
            for (i, rd) in r.iter_mut().enumerate() {
                rd.refresh();
                let take = rd.available().min(chunks[(round + i) % chunks.len()] * 2);
                let (p, len) = rd.window();
                // SAFETY: the window was published by the writer.
                let inp = unsafe { std::slice::from_raw_parts(p as *const u32, len) };
                for &x in &inp[..take] {
                    assert_eq!(x, expect[i]);
                    expect[i] += 1;
                }
                rd.consume(take);
                rd.commit();
            }
            round += 1;
        }
    }

    #[test]
    fn writer_never_gets_more_than_capacity_ahead_of_the_slowest_reader() {
        let buf = buffer(4, 1, 2);
        let cap = buf.capacity();
        let mut w = Writer::new(buf.clone());
        let mut fast = Reader::new(buf.clone(), 0);
        let _slow = Reader::new(buf.clone(), 1);
        assert_eq!(w.refresh(u64::MAX), cap);
        w.produce(cap as usize);
        w.commit();
        fast.refresh();
        fast.consume(cap as usize);
        fast.commit();
        assert_eq!(
            w.refresh(u64::MAX),
            0,
            "the slow reader still holds every item"
        );
    }

    #[test]
    fn finished_reader_no_longer_holds_back_the_writer() {
        let buf = buffer(4, 1, 2);
        let mut w = Writer::new(buf.clone());
        let mut a = Reader::new(buf.clone(), 0);
        let mut b = Reader::new(buf.clone(), 1);
        w.refresh(u64::MAX);
        w.produce(w.free());
        w.commit();
        a.finish();
        assert_eq!(w.refresh(u64::MAX), 0);
        b.refresh();
        b.consume(10);
        b.commit();
        assert_eq!(w.refresh(u64::MAX), 10);
        b.finish();
        assert!(w.dead_or_short(1).0);
        assert_eq!(w.refresh(u64::MAX), 0);
    }

    #[test]
    fn observers_are_let_go_with_the_last_other_reader() {
        let a = Activation::alone(Arc::new(crate::parker::Parker::new()));
        let acts = vec![a.clone(); 3];
        let buf =
            StreamBuffer::with_region((4, 1), 1, &a, &acts, &[false, true, false], None).unwrap();
        let mut w = Writer::new(buf.clone());
        let mut r = [0, 1, 2].map(|slot| Reader::new(buf.clone(), slot));
        w.refresh(u64::MAX);
        w.produce(w.free());
        w.commit();
        // The observer holds the writer back like any reader while others read.
        r[0].finish();
        r[2].refresh();
        r[2].consume(10);
        r[2].commit();
        assert_eq!(w.refresh(u64::MAX), 0, "the observer has read nothing yet");
        r[1].refresh();
        r[1].consume(5);
        r[1].commit();
        assert_eq!(w.refresh(u64::MAX), 5);
        // The last other reader leaves: the observer's slot goes with it, and its next commit
        // does not bring it back.
        r[2].finish();
        assert!(w.dead_or_short(1).0);
        r[1].consume(5);
        r[1].commit();
        assert!(w.dead_or_short(1).0);
        assert_eq!(w.refresh(u64::MAX), 0);
    }

    #[test]
    fn observers_alone_are_ordinary_readers() {
        let a = Activation::alone(Arc::new(crate::parker::Parker::new()));
        let acts = vec![a.clone(); 2];
        let buf = StreamBuffer::with_region((4, 1), 1, &a, &acts, &[true, true], None).unwrap();
        let mut w = Writer::new(buf.clone());
        let mut r = [0, 1].map(|slot| Reader::new(buf.clone(), slot));
        w.refresh(u64::MAX);
        w.produce(w.free());
        w.commit();
        r[0].finish();
        assert!(!w.dead_or_short(1).0);
        r[1].refresh();
        r[1].consume(3);
        r[1].commit();
        assert_eq!(w.refresh(u64::MAX), 3);
        r[1].finish();
        assert!(w.dead_or_short(1).0);
    }

    #[test]
    #[should_panic(expected = "only")]
    fn consuming_past_the_window_panics() {
        let buf = buffer(4, 1, 1);
        let mut r = Reader::new(buf, 0);
        r.refresh();
        r.consume(1);
    }

    #[test]
    #[should_panic(expected = "only")]
    fn producing_past_free_space_panics() {
        let buf = buffer(4, 1, 1);
        let mut w = Writer::new(buf);
        let free = w.refresh(u64::MAX) as usize;
        w.produce(free + 1);
    }

    #[test]
    fn tags_arrive_at_their_offsets_on_every_reader() {
        let buf = buffer(4, 1, 2);
        let mut w = Writer::new(buf.clone());
        let mut r = [Reader::new(buf.clone(), 0), Reader::new(buf.clone(), 1)];
        w.refresh(u64::MAX);
        w.add_tag(Tag::new(
            5,
            radioflow_pmt::Pmt::Int(5),
            radioflow_pmt::Pmt::Null,
        ));
        w.add_tag(Tag::new(
            2,
            radioflow_pmt::Pmt::Int(2),
            radioflow_pmt::Pmt::Null,
        ));
        w.add_tag(Tag::new(
            150,
            radioflow_pmt::Pmt::Int(150),
            radioflow_pmt::Pmt::Null,
        ));
        w.produce(100);
        w.commit();
        for rd in &mut r {
            rd.refresh();
            let offs: Vec<u64> = rd.tags().iter().map(|t| t.offset).collect();
            assert_eq!(offs, [2, 5], "tag 150 is not published yet");
            rd.consume(3);
            rd.commit();
            rd.refresh();
            assert_eq!(rd.tags().iter().map(|t| t.offset).collect::<Vec<_>>(), [5]);
        }
        w.refresh(u64::MAX);
        w.produce(100);
        w.commit();
        for rd in &mut r {
            rd.refresh();
            let offs: Vec<u64> = rd.tags().iter().map(|t| t.offset).collect();
            assert_eq!(offs, [5, 150]);
        }
    }

    /// One thread drives a chain: a source writes 0, 1, 2, ... into buffer 0, stage `k` copies
    /// buffer `k - 1` into buffer `k` holding back `history[k - 1] - 1` items until its input is
    /// final (like a filter that needs look-ahead), and a sink checks what reaches the last
    /// buffer. Window caps and amounts are pseudo-random. Buffer `k` may borrow region `k % 2`
    /// when `regions` is given. Checks that every item arrives once, in order, that no region
    /// ever holds two buffers' items, and returns how many windows were in a region.
    fn drive_chain(
        history: &[usize],
        total: u32,
        regions: Option<[std::sync::Arc<Region>; 2]>,
        mirrored: bool,
        seed: u64,
    ) -> usize {
        let a = Activation::alone(Arc::new(crate::parker::Parker::new()));
        let n = history.len() + 1;
        let bufs: Vec<Arc<StreamBuffer>> = (0..n)
            .map(|k| {
                let region = regions.as_ref().map(|r| r[k % 2].clone());
                if mirrored {
                    let m = Mapping::mirrored(page_size()).unwrap();
                    StreamBuffer::on_mapping((4, 1), m, &a, std::slice::from_ref(&a), &[], region)
                } else {
                    StreamBuffer::with_region((4, 1), 1, &a, std::slice::from_ref(&a), &[], region)
                        .unwrap()
                }
            })
            .collect();
        let mut writers: Vec<Writer> = bufs.iter().map(|b| Writer::new(b.clone())).collect();
        let mut readers: Vec<Reader> = bufs.iter().map(|b| Reader::new(b.clone(), 0)).collect();
        let mut rng = seed;
        let mut next = move |below: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % below
        };
        let in_region = |p: *const u8, bufs: &[Arc<StreamBuffer>]| {
            bufs.iter().filter_map(|b| b.region.as_deref()).any(|r| {
                let start = r.base() as usize;
                (start..start + r.bytes()).contains(&(p as usize))
            })
        };
        let (mut written, mut expect, mut region_windows) = (0u32, 0u32, 0usize);
        let mut rounds = 0;
        while expect < total {
            rounds += 1;
            assert!(
                rounds < 1_000_000,
                "the chain stopped moving at item {expect}"
            );
            // Source.
            let free = writers[0].refresh(1 + next(300)) as usize;
            let (p, len) = writers[0].window();
            region_windows += (len > 0 && in_region(p, &bufs)) as usize;
            let m = free.min((total - written) as usize);
            // SAFETY: the writer's window; u32 accepts any bytes.
            let out = unsafe { std::slice::from_raw_parts_mut(p as *mut u32, len) };
            for x in &mut out[..m] {
                *x = written;
                written += 1;
            }
            writers[0].produce(m);
            writers[0].commit();
            if written == total {
                writers[0].finish();
            }
            // Copy stages, upstream first (as a depth-first pass).
            for k in 1..n {
                let keep = history[k - 1] - 1;
                let (up, down) = (&mut readers[k - 1], &mut writers[k]);
                up.refresh();
                let free = down.refresh(1 + next(300)) as usize;
                let (ip, ilen) = up.window();
                let (op, olen) = down.window();
                region_windows += (olen > 0 && in_region(op, &bufs)) as usize;
                let usable = if up.writer_done() {
                    ilen
                } else {
                    ilen.saturating_sub(keep)
                };
                let m = usable.min(free);
                // SAFETY: the two windows, in different buffers.
                unsafe { std::ptr::copy_nonoverlapping(ip, op, m * 4) };
                up.consume(m);
                down.produce(m);
                up.commit();
                down.commit();
                if up.writer_done() && up.available() == 0 {
                    down.finish();
                }
            }
            // Sink.
            let last = &mut readers[n - 1];
            last.refresh();
            let (p, len) = last.window();
            let take = len.min(1 + next(500) as usize);
            // SAFETY: the reader's window.
            let inp = unsafe { std::slice::from_raw_parts(p as *const u32, len) };
            for &x in &inp[..take] {
                assert_eq!(x, expect, "history {history:?} seed {seed}");
                expect += 1;
            }
            last.consume(take);
            last.commit();
            // No region holds the items of two buffers.
            if let Some(r) = &regions {
                for region in r {
                    let holders = bufs
                        .iter()
                        .filter(|b| {
                            b.region
                                .as_ref()
                                .is_some_and(|x| std::sync::Arc::ptr_eq(x, region))
                                && b.region_base.load(Relaxed) != IN_RING
                        })
                        .count();
                    assert!(holders <= 1, "{holders} buffers in one region");
                    assert_eq!(holders == 1, region.is_busy());
                }
            }
        }
        region_windows
    }

    /// Items through a test chain: fewer under Miri, which interprets every access (the
    /// windows still go round the regions and rings many times).
    fn items(n: u32) -> u32 {
        if cfg!(miri) {
            (n / 1000).max(300)
        } else {
            n
        }
    }

    /// The fewest region windows a chain of `items` must have used: one per `per` items, at
    /// least 5 (what Miri's short chains reach).
    fn min_windows(items: u32, per: u32) -> usize {
        (items / per).max(5) as usize
    }

    /// Seeds per test chain.
    fn seeds() -> std::ops::Range<u64> {
        if cfg!(miri) {
            1..2
        } else {
            1..6
        }
    }

    fn two_regions(bytes: usize) -> Option<[std::sync::Arc<Region>; 2]> {
        Some([0, 1].map(|_| std::sync::Arc::new(Region::new(bytes))))
    }

    #[test]
    fn a_chain_borrowing_two_regions_delivers_every_item_in_order() {
        for seed in seeds() {
            let n = items(200_000);
            let used = drive_chain(&[1; 6], n, two_regions(256), false, seed);
            assert!(
                used > min_windows(n, 200),
                "the regions were hardly used: {used} windows"
            );
            assert_eq!(drive_chain(&[1; 6], items(50_000), None, false, seed), 0);
        }
    }

    #[test]
    fn items_held_back_by_a_reader_move_from_the_region_to_the_ring() {
        // Stages that keep 1..40 items back leave items behind in a region; the writer must
        // move them to its ring when the region runs short, or the chain would stop.
        for seed in seeds() {
            drive_chain(
                &[1, 3, 1, 40, 2, 1],
                items(100_000),
                two_regions(256),
                false,
                seed,
            );
            drive_chain(&[17, 17, 17], items(50_000), two_regions(512), false, seed);
        }
    }

    #[test]
    fn regions_work_on_mirrored_memory() {
        // Where memory cannot be mapped twice, items that leave a region must be mirrored too.
        let n = items(100_000);
        let used = drive_chain(&[1, 5, 1, 1, 30], n, two_regions(1024), true, 7);
        assert!(used > min_windows(n, 1000), "{used} windows");
    }

    #[test]
    fn a_region_is_refused_where_it_cannot_work() {
        let a = Activation::alone(Arc::new(crate::parker::Parker::new()));
        let region = || Some(std::sync::Arc::new(Region::new(1024)));
        let two = StreamBuffer::with_region((4, 1), 1, &a, &[a.clone(), a.clone()], &[], region())
            .unwrap();
        assert!(!two.has_region(), "two readers");
        let small = StreamBuffer::with_region(
            (4096 * 2, 1),
            1,
            &a,
            std::slice::from_ref(&a),
            &[],
            region(),
        )
        .unwrap();
        assert!(!small.has_region(), "a region smaller than an item");
        let big = std::sync::Arc::new(Region::new(4 * page_size()));
        let ring =
            StreamBuffer::with_region((4, 1), 1, &a, std::slice::from_ref(&a), &[], Some(big))
                .unwrap();
        assert!(!ring.has_region(), "a region larger than the ring");
        let ok = StreamBuffer::with_region((4, 1), 1, &a, std::slice::from_ref(&a), &[], region())
            .unwrap();
        assert!(ok.has_region());
    }
}
