//! [`Activation`]: "this block may be able to move", plus the thread to wake for it.
//!
//! Every block has one. A neighbour that published items, freed space, posted a message or
//! finished raises the block's flag; a thread that steps many blocks (`single`, `flow`) steps
//! only raised ones. When notifier and block run on the same thread (see [`Wake`]) raising the
//! flag is all it takes, a plain store with no fence; only a notification that crosses threads
//! also goes through the [`Parker`].
//!
//! The thread is a *slot* in the run's list of parkers, not a fixed parker, because `flow`
//! hands blocks from one worker to another while they run (`scheduler/balance.rs`). Only the
//! thread that runs a block moves it, and it hands the block over through a queue after moving
//! it; a notifier that reads the old slot wakes the old thread for nothing, and the new one
//! steps every block it receives anyway, so no wake-up is lost.

use crate::atomics::{fence, Arc, AtomicBool, AtomicUsize};
use crate::parker::Parker;
use crate::valgrind;
use crossbeam_utils::CachePadded;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release, SeqCst};

/// The parkers of a run's threads, one per thread, shared by every activation of the run
/// (immutable, so a plain `std` Arc also under loom).
pub(crate) type Parkers = std::sync::Arc<[Arc<Parker>]>;

/// A block's ready flag and the parker of the thread that runs it.
#[derive(Debug)]
pub(crate) struct Activation {
    ready: CachePadded<AtomicBool>,
    /// Index in `parkers` of the thread that runs the block.
    slot: AtomicUsize,
    parkers: Parkers,
}

impl Activation {
    /// Starts raised, so every block is stepped once. Built in its `Arc` so that the flag is
    /// marked for valgrind at its final address.
    pub(crate) fn new(parkers: Parkers, slot: usize) -> Arc<Self> {
        assert!(
            slot < parkers.len(),
            "slot {slot} of {} parkers",
            parkers.len()
        );
        let a = Arc::new(Self {
            ready: CachePadded::new(AtomicBool::new(true)),
            slot: AtomicUsize::new(slot),
            parkers,
        });
        valgrind::untracked(&*a.ready);
        valgrind::untracked(&a.slot);
        a
    }

    /// An activation with a parker of its own (tests, the test harness).
    pub(crate) fn alone(parker: Arc<Parker>) -> Arc<Self> {
        Self::new(vec![parker].into(), 0)
    }

    /// The parker of the thread that runs the block.
    pub(crate) fn parker(&self) -> &Arc<Parker> {
        &self.parkers[self.slot()]
    }

    /// The thread (slot) that runs the block.
    pub(crate) fn slot(&self) -> usize {
        self.slot.load(Relaxed)
    }

    /// Hands the block to the thread in `slot`. Called only by the thread that runs it, before
    /// it passes the block on; the fence pairs with the one in [`notify`](Self::notify): a
    /// notifier that still reads the old slot published its items before this fence, so the
    /// new thread (which receives the block after it) sees them.
    pub(crate) fn move_to(&self, slot: usize) {
        assert!(slot < self.parkers.len(), "no thread slot {slot}");
        self.slot.store(slot, Relaxed);
        fence(SeqCst);
    }

    /// Raises the flag and wakes the block's thread (from another thread). The slot is read
    /// after the fence that publishes the caller's items (see [`move_to`](Self::move_to)).
    pub(crate) fn notify(&self) {
        self.raise();
        fence(SeqCst);
        self.parker().notify_after_fence();
    }

    /// Raises the flag only: the caller runs on the block's thread, which looks at every flag
    /// before it sleeps.
    pub(crate) fn raise(&self) {
        if !self.ready.load(Relaxed) {
            self.ready.store(true, Release);
        }
    }

    /// Lowers the flag; returns whether it was raised.
    pub(crate) fn take(&self) -> bool {
        self.ready.load(Relaxed) && self.ready.swap(false, Acquire)
    }
}

/// How an endpoint wakes the block at the other end.
#[derive(Clone, Debug)]
pub(crate) struct Wake {
    target: Arc<Activation>,
    own: Arc<Activation>,
    /// Both activations index the same parker list, so equal slots mean the same thread
    /// (activations built apart, as in tests, never count as local).
    same_run: bool,
}

impl Wake {
    /// Wakes `target` from a block whose activation is `own`.
    pub(crate) fn new(target: &Arc<Activation>, own: &Arc<Activation>) -> Self {
        Self {
            target: target.clone(),
            own: own.clone(),
            same_run: std::sync::Arc::ptr_eq(&target.parkers, &own.parkers),
        }
    }

    /// Raises the target's flag and wakes its thread, from any thread (one that runs no block
    /// of the graph, for which the comparison of slots in [`notify`](Self::notify) means
    /// nothing).
    pub(crate) fn notify_from_anywhere(&self) {
        self.target.notify();
    }

    /// Raises the target's flag, and wakes its thread unless that is the caller's thread.
    /// Both slots are read now: the caller's is exact (only its own thread moves it), and a
    /// stale target slot can only name another thread, which is then woken for nothing.
    pub(crate) fn notify(&self) {
        if self.same_run && self.target.slot() == self.own.slot() {
            self.target.raise();
        } else {
            self.target.notify();
        }
    }
}
