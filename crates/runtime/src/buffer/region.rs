//! [`Region`]: a chunk of memory that the buffers of one chain borrow in turn.
//!
//! A ring per connection means a block writes into memory the chain has not touched since its
//! last pass, which on a ten-block chain has left L1: every write then fetches its lines from
//! L2 (the `buf` experiment's *layout limit*, docs/notes/benchmarks-history.md). `flow` gives each chain two
//! regions of one chunk. A buffer of the chain that is empty when its writer looks may move its
//! next items into a free region instead of its ring; its reader gives the region back as soon
//! as it has read everything. Neighbouring buffers of a chain use different regions, so a chunk
//! travels down the chain between two areas that stay in L1, as in the hand-written "scheduler
//! emulation" block of Bloessl et al. 2019, while every block still sees plain stream ports.
//!
//! Rules that keep it safe (`stream.rs` applies them):
//! - only buffers whose writer and single reader run in the same chain share regions, so one
//!   thread at a time uses a region (a chain moves between workers whole, through the hand-over
//!   fences of `balance.rs`);
//! - a region holds the items of at most one buffer: a buffer takes it only while the buffer is
//!   empty and the region free, and frees it when it is empty again or its reader leaves;
//! - items in a region never wrap: the writer's window ends at the region's end, and when too
//!   little of it is left while items remain (a reader that keeps a history), the writer moves
//!   them into its own ring and frees the region.

use super::mapping::page_size;
use crate::atomics::AtomicBool;
use crossbeam_utils::CachePadded;
use std::ptr::NonNull;
use std::sync::atomic::Ordering::Relaxed;

/// Memory borrowed in turn by the buffers of one chain.
#[derive(Debug)]
pub(crate) struct Region {
    memory: NonNull<u8>,
    bytes: usize,
    /// A buffer's items are here. Written at every take and release: on a line of its own, so
    /// that the regions of chains on other workers (allocated next to it) do not share it.
    busy: CachePadded<AtomicBool>,
}

// SAFETY: plain heap memory; which buffer may touch it when is decided by `busy`, used by one
// thread at a time (module documentation).
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

impl Region {
    /// A free region of `bytes` (at least one), page-aligned like the rings.
    pub(crate) fn new(bytes: usize) -> Self {
        let layout = Self::layout(bytes);
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        let memory = NonNull::new(ptr).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        let region = Self {
            memory,
            bytes: layout.size(),
            busy: CachePadded::new(AtomicBool::new(false)),
        };
        crate::valgrind::untracked(&*region.busy);
        region
    }

    fn layout(bytes: usize) -> std::alloc::Layout {
        std::alloc::Layout::from_size_align(bytes.max(1), page_size())
            .expect("region size fits a Layout")
    }

    /// Start of the region.
    pub(crate) fn base(&self) -> *mut u8 {
        self.memory.as_ptr()
    }

    /// Size in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Takes the region if it is free.
    pub(crate) fn try_take(&self) -> bool {
        !self.busy.load(Relaxed) && {
            self.busy.store(true, Relaxed);
            true
        }
    }

    /// Whether a buffer's items are here.
    #[cfg(test)]
    pub(crate) fn is_busy(&self) -> bool {
        self.busy.load(Relaxed)
    }

    /// Frees the region.
    pub(crate) fn release(&self) {
        self.busy.store(false, Relaxed);
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with the same layout.
        unsafe { std::alloc::dealloc(self.memory.as_ptr(), Self::layout(self.bytes)) };
    }
}
