//! The region protocol: how a buffer whose writer and single reader run in one `flow` chain
//! borrows one of the chain's chunk-sized regions while it is empty, so a chunk goes down the
//! chain through L1 (`Region` in `buffer/region.rs` is the memory and its ownership flag).
//!
//! The writer takes a free region when it finds the buffer empty (`region_base` then holds the
//! position at the region's first byte); the reader frees it when it has read everything; a
//! writer whose step wrote nothing frees one its empty buffer holds. Items in a region never
//! wrap: when less than half of it is left while items remain, the writer moves them into its
//! ring. Only this buffer's endpoints touch `region_base`, and one thread runs them both.

use super::{Reader, Start, StreamBuffer, Writer, IN_RING};
use std::sync::atomic::Ordering::Relaxed;

impl StreamBuffer {
    /// Where the offsets of an endpoint count from: the ring, or the region when `in_region`.
    pub(super) fn start(&self, in_region: bool) -> Start {
        match (&self.region, in_region) {
            (Some(r), true) => Start(r.base()),
            _ => Start(self.mapping.base()),
        }
    }

    /// Byte offset of position `pos` in the ring (a division: only when a buffer moves its
    /// items between region and ring).
    pub(super) fn ring_offset(&self, pos: u64) -> usize {
        (pos % self.capacity) as usize * self.item_size
    }

    /// Frees the region the items were in (the buffer is empty, or its reader left).
    pub(super) fn free_region(&self) {
        if let Some(r) = &self.region
            && self.region_base.load(Relaxed) != IN_RING
        {
            self.region_base.store(IN_RING, Relaxed);
            r.release();
        }
    }
}

impl Writer {
    /// Keeps the items in the ring from now on (the region offers one chunk at most, the ring
    /// its whole capacity): for a block that cannot move with the windows it was given.
    /// Returns whether this changed anything (the buffer could borrow a region until now).
    #[cold]
    pub(crate) fn keep_in_ring(&mut self) -> bool {
        let changed = self.buf.region.is_some() && !self.ring_only;
        self.ring_only = true;
        changed
    }

    /// Whether this buffer's items are in its region now (its reader frees it when it has read
    /// them; with [`keep_in_ring`](Self::keep_in_ring) set, nothing takes it again).
    pub(crate) fn holds_region(&self) -> bool {
        self.buf.region.is_some() && self.buf.region_base.load(Relaxed) != IN_RING
    }

    /// Decides where the next items go, for a buffer with a region: into the region if the
    /// buffer is empty and the region free (or already ours), into the ring otherwise. Items
    /// left in a region with less than half of it free move to the ring. Returns the end of
    /// the writable space. `min` is the reader's position.
    pub(super) fn place(&mut self, min: u64) -> u64 {
        let buf = &*self.buf;
        let Some(region) = buf.region.as_deref() else {
            return min + buf.capacity;
        };
        let empty = min == self.pos;
        let base = buf.region_base.load(Relaxed);
        if base != IN_RING {
            // Our items are in the region (only the reader frees it, by storing IN_RING).
            debug_assert!(self.in_region);
            if self.ring_only {
                let end = min + buf.capacity;
                self.leave_region(base, min);
                return end;
            }
            if empty {
                // Start again at the region's start.
                buf.region_base.store(self.pos, Relaxed);
                self.offset = 0;
                return self.pos + buf.region_items;
            }
            let end = base + buf.region_items;
            if (end - self.pos) * 2 >= buf.region_items {
                return end;
            }
            let end = min + buf.capacity;
            self.leave_region(base, min);
            return end;
        }
        if empty && !self.ring_only && region.try_take() {
            buf.region_base.store(self.pos, Relaxed);
            self.in_region = true;
            self.start = buf.start(true);
            self.offset = 0;
            return self.pos + buf.region_items;
        }
        if self.in_region {
            // The reader emptied the buffer and freed the region; back to the ring.
            self.in_region = false;
            self.start = buf.start(false);
            self.offset = buf.ring_offset(self.pos);
            self.published_offset = self.offset;
        }
        min + buf.capacity
    }

    /// Frees the region if the buffer is empty: a writer that took it for a step that produced
    /// nothing (its input was empty) must not keep it from the chain's other buffers.
    #[cold]
    pub(super) fn free_idle_region(&mut self) {
        if self.buf.min_read() == self.pos {
            self.buf.free_region();
        }
    }

    /// Moves the items `[min, pos)` from the region (its first byte at position `base`) to
    /// their places in the ring and frees the region.
    pub(super) fn leave_region(&mut self, base: u64, min: u64) {
        let buf = &*self.buf;
        let Some(region) = buf.region.as_deref() else {
            return;
        };
        let bytes = (self.pos - min) as usize * buf.item_size;
        let to = buf.ring_offset(min);
        // SAFETY: the source lies inside the region (the items came in after `base` and end
        // before the region's end); the destination is ring memory no reader looks at (every
        // item of the buffer is in the region), `bytes` <= the region <= one capacity, which the
        // double (or mirrored) mapping shows contiguously from any ring offset.
        unsafe {
            std::ptr::copy_nonoverlapping(
                region.base().add((min - base) as usize * buf.item_size),
                buf.mapping.base().add(to),
                bytes,
            );
            if buf.mapping.needs_mirror() {
                buf.mapping.mirror(to, bytes);
            }
        }
        buf.free_region();
        self.in_region = false;
        self.start = buf.start(false);
        self.offset = buf.ring_offset(self.pos);
        self.published_offset = self.offset;
    }
}

impl Reader {
    /// Finds the items again after the writer moved them between region and ring.
    pub(super) fn locate(&mut self) {
        let base = self.buf.region_base.load(Relaxed);
        if base != IN_RING {
            self.in_region = true;
            self.start = self.buf.start(true);
            self.offset = (self.pos - base) as usize * self.buf.item_size;
        } else if self.in_region {
            self.in_region = false;
            self.start = self.buf.start(false);
            self.offset = self.buf.ring_offset(self.pos);
        }
    }
}
