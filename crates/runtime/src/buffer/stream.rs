//! The shared state of one stream buffer and its untyped endpoints.
//!
//! Positions are absolute item counts (`u64`, never wrapping in practice). The writer owns
//! `[write, min_read + capacity)`, each reader owns `[its read, write)`; the ring index of an
//! absolute position is `pos % capacity`. A finished reader stores `u64::MAX` as its position,
//! which takes it out of the writer's minimum.

use super::mapping::{page_size, Mapping};
use super::tags::TagLog;
use crate::activation::{Activation, Wake};
use crate::sync::{Arc, AtomicBool, AtomicU64};
use crate::tag::Tag;
use crate::valgrind;
use crossbeam_utils::CachePadded;
use std::sync::atomic::Ordering::{Acquire, Release};

/// Position stored by a reader that will read no more.
const READER_GONE: u64 = u64::MAX;

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
    /// Capacity in items.
    capacity: u64,
    writer: CachePadded<WriterSide>,
    readers: Box<[CachePadded<AtomicU64>]>,
    tags: TagLog,
    /// How the writer wakes each reader (by slot).
    wake_readers: Box<[Wake]>,
    /// How each reader (by slot) wakes the writer.
    wake_writer: Box<[Wake]>,
}

impl StreamBuffer {
    /// A buffer of at least `min_bytes` for items of `item_size` bytes, rounded up so that the
    /// capacity is a whole number of pages and of items.
    pub(crate) fn new(
        item_size: usize,
        min_bytes: usize,
        writer: &Arc<Activation>,
        readers: &[Arc<Activation>],
    ) -> std::io::Result<Arc<Self>> {
        assert!(item_size > 0, "zero-sized items cannot be streamed");
        let granule = lcm(page_size(), item_size);
        let bytes = min_bytes.max(1).div_ceil(granule) * granule;
        let mapping = Mapping::new(bytes)?;
        let n_readers = readers.len();
        let buf = Arc::new(Self {
            capacity: (mapping.capacity() / item_size) as u64,
            mapping,
            item_size,
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
        });
        // The positions are atomics: no access to them is a data race.
        valgrind::untracked(&*buf.writer);
        valgrind::untracked(&*buf.readers);
        buf.tags.untrack_total();
        Ok(buf)
    }

    /// Capacity in items.
    #[cfg(any(test, loom))]
    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Smallest position of a live reader, `READER_GONE` if none is left.
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

    fn ptr_at(&self, pos: u64) -> *mut u8 {
        let ring = (pos % self.capacity) as usize * self.item_size;
        // SAFETY: ring < capacity bytes, inside the 2 * capacity mapping.
        unsafe { self.mapping.base().add(ring) }
    }

    fn notify_readers(&self) {
        for w in self.wake_readers.iter() {
            w.notify();
        }
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
    published: u64,
    /// End of the writable window computed by [`Writer::refresh`].
    limit: u64,
    /// Tags added since the last commit, in insertion order.
    staged: Vec<Tag>,
    last_min_read: u64,
}

impl Writer {
    /// The buffer this writer fills.
    pub(crate) fn buffer(&self) -> &Arc<StreamBuffer> {
        &self.buf
    }

    pub(crate) fn new(buf: Arc<StreamBuffer>) -> Self {
        Self {
            buf,
            pos: 0,
            published: 0,
            limit: 0,
            staged: Vec::new(),
            last_min_read: 0,
        }
    }

    /// Recomputes the free window, at most `max_items` long. Returns its length.
    pub(crate) fn refresh(&mut self, max_items: u64) -> u64 {
        let min = self.buf.min_read();
        self.last_min_read = min;
        self.limit = if min == READER_GONE {
            self.pos
        } else {
            debug_assert!(min <= self.published, "a reader overtook the writer");
            (min + self.buf.capacity).min(self.pos.saturating_add(max_items))
        };
        self.limit - self.pos
    }

    /// Free items in the window.
    pub(crate) fn free(&self) -> usize {
        (self.limit - self.pos) as usize
    }

    /// Start of the window and its length in items.
    pub(crate) fn window(&self) -> (*mut u8, usize) {
        (self.buf.ptr_at(self.pos), self.free())
    }

    pub(crate) fn position(&self) -> u64 {
        self.pos
    }

    /// Items visible to readers so far.
    pub(crate) fn published(&self) -> u64 {
        self.published
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
    }

    /// # Panics
    /// If `offset` is below the first unpublished item.
    pub(crate) fn add_tag(&mut self, tag: Tag) {
        assert!(
            tag.offset >= self.published,
            "tag offset {} is on an item already published (next is {})",
            tag.offset,
            self.published
        );
        self.staged.push(tag);
    }

    /// Publishes produced items (and their tags) and wakes readers. Returns whether anything
    /// was published.
    pub(crate) fn commit(&mut self) -> bool {
        if self.pos == self.published {
            return false;
        }
        let n = (self.pos - self.published) as usize;
        let ring = (self.published % self.buf.capacity) as usize * self.buf.item_size;
        // SAFETY: we are the only writer and [published, pos) is not visible to readers yet.
        unsafe { self.buf.mapping.mirror(ring, n * self.buf.item_size) };
        if !self.staged.is_empty() {
            self.flush_tags();
        }
        valgrind::happens_before(&*self.buf.writer);
        self.buf.writer.pos.store(self.pos, Release);
        self.published = self.pos;
        self.buf.notify_readers();
        true
    }

    fn flush_tags(&mut self) {
        self.staged.sort_by_key(|t| t.offset);
        let ready = self.staged.partition_point(|t| t.offset < self.pos);
        if ready > 0 {
            self.buf
                .tags
                .push(self.staged.drain(..ready), self.last_min_read);
        }
    }

    /// No reader was left at the last [`Writer::refresh`].
    pub(crate) fn was_dead(&self) -> bool {
        self.last_min_read == READER_GONE
    }

    /// Whether the output is dead (no reader left) or full (no free item), in one scan of the
    /// reader positions.
    pub(crate) fn dead_or_full(&self) -> (bool, bool) {
        let min = self.buf.min_read();
        if min == READER_GONE {
            (true, false)
        } else {
            (false, self.pos - min >= self.buf.capacity)
        }
    }

    /// Marks the stream finished (after a final commit) and wakes readers.
    pub(crate) fn finish(&mut self) {
        self.commit();
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
    published: u64,
    /// Writer position seen by the last refresh.
    limit: u64,
    /// The writer had finished at the last refresh, so `limit` is final.
    writer_done: bool,
    /// Fetched tags on items not consumed yet, sorted by offset.
    tags: Vec<Tag>,
    tags_fetched: u64,
}

impl Reader {
    /// The buffer this reader reads.
    pub(crate) fn buffer(&self) -> &Arc<StreamBuffer> {
        &self.buf
    }

    pub(crate) fn new(buf: Arc<StreamBuffer>, slot: usize) -> Self {
        assert!(slot < buf.readers.len());
        Self {
            buf,
            slot,
            pos: 0,
            published: 0,
            limit: 0,
            writer_done: false,
            tags: Vec::new(),
            tags_fetched: 0,
        }
    }

    /// Takes a new snapshot of what the writer published. Returns the readable length.
    pub(crate) fn refresh(&mut self) -> u64 {
        // `done` before `pos`: if the writer had finished, the position read next is final.
        self.writer_done = self.buf.writer.done.load(Acquire);
        self.limit = self.buf.writer.pos.load(Acquire);
        valgrind::happens_after(&*self.buf.writer);
        debug_assert!(self.limit >= self.pos);
        if self.buf.tags.total() > self.tags_fetched {
            self.tags_fetched = self.buf.tags.fetch(self.tags_fetched, &mut self.tags);
        }
        self.limit - self.pos
    }

    pub(crate) fn available(&self) -> usize {
        (self.limit - self.pos) as usize
    }

    pub(crate) fn window(&self) -> (*const u8, usize) {
        (self.buf.ptr_at(self.pos), self.available())
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
        let start = self.tags.partition_point(|t| t.offset < self.pos);
        let end = self.tags.partition_point(|t| t.offset < self.limit);
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
    }

    /// Releases consumed items to the writer. Returns how many items were released.
    pub(crate) fn commit(&mut self) -> u64 {
        let released = self.pos - self.published;
        if released == 0 {
            return 0;
        }
        if !self.tags.is_empty() {
            let gone = self.tags.partition_point(|t| t.offset < self.pos);
            self.tags.drain(..gone);
        }
        valgrind::happens_before(&self.buf.readers[self.slot]);
        self.buf.readers[self.slot].store(self.pos, Release);
        self.published = self.pos;
        self.buf.wake_writer[self.slot].notify();
        released
    }

    /// Leaves the buffer: the writer no longer waits for this reader.
    pub(crate) fn finish(&mut self) {
        valgrind::happens_before(&self.buf.readers[self.slot]);
        self.buf.readers[self.slot].store(READER_GONE, Release);
        self.buf.wake_writer[self.slot].notify();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for round in 0..200 {
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
        }
        assert!(expect.iter().all(|&e| e > 10 * cap as u32));
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
        assert!(w.dead_or_full().0);
        assert_eq!(w.refresh(u64::MAX), 0);
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
}
