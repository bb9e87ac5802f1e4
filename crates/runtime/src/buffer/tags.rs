//! Tags travelling beside the items of one stream buffer.
//!
//! Tags are rare compared with items, so they live in a mutex-protected log that readers only
//! lock when the atomic `total` says a tag they have not seen exists: with no tags in flight the
//! item path takes no lock. The writer pushes tags *before* publishing the items they tag, so a
//! reader that sees an item also sees its tags.

use crate::atomics::AtomicU64;
use crate::tag::Tag;
use crate::valgrind;
use std::collections::VecDeque;
use std::sync::atomic::Ordering::{Acquire, Release};
use std::sync::Mutex;

#[derive(Debug, Default)]
pub(crate) struct TagLog {
    /// Number of tags ever pushed.
    total: AtomicU64,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Absolute index (in push order) of `log[0]`.
    base: u64,
    /// Tags sorted by offset.
    log: VecDeque<Tag>,
}

impl TagLog {
    /// Number of tags ever pushed (Acquire: tags below it are visible).
    pub(crate) fn total(&self) -> u64 {
        self.total.load(Acquire)
    }

    /// Stops valgrind's race detectors from checking `total` (an atomic); call once the log
    /// is at its final address.
    pub(crate) fn untrack_total(&self) {
        valgrind::untracked(&self.total);
    }

    /// Appends `tags` (sorted, offsets not below any earlier tag) and drops tags on items every
    /// live reader has consumed (`offset < min_read`).
    pub(crate) fn push(&self, tags: impl Iterator<Item = Tag>, min_read: u64) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        // std's futex-based Mutex is invisible to valgrind: annotate lock and unlock.
        valgrind::happens_after(&self.inner);
        while inner.log.front().is_some_and(|t| t.offset < min_read) {
            inner.log.pop_front();
            inner.base += 1;
        }
        let before = inner.log.len();
        inner.log.extend(tags);
        let total = inner.base + inner.log.len() as u64;
        debug_assert!(inner.log.len() >= before);
        valgrind::happens_before(&self.inner);
        self.total.store(total, Release);
    }

    /// Appends to `out` every tag with push index in `[from, total)`; returns the new `from`.
    pub(crate) fn fetch(&self, from: u64, out: &mut Vec<Tag>) -> u64 {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        valgrind::happens_after(&self.inner);
        debug_assert!(from >= inner.base, "a reader's unseen tag was pruned");
        let start = from.saturating_sub(inner.base) as usize;
        out.extend(inner.log.iter().skip(start).cloned());
        let total = inner.base + inner.log.len() as u64;
        valgrind::happens_before(&self.inner);
        total
    }
}
