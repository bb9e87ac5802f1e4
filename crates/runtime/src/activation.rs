//! [`Activation`]: "this block may be able to move", plus the thread to wake for it.
//!
//! Every block has one. A neighbour that published items, freed space, posted a message or
//! finished raises the block's flag; a thread that steps many blocks (`single`, `flow`) steps
//! only raised ones. When notifier and block run on the same thread ([`Wake::local`]) raising
//! the flag is all it takes, a plain store with no fence; only a notification that crosses
//! threads also goes through the [`Parker`].

use crate::parker::Parker;
use crate::sync::{Arc, AtomicBool};
use crate::valgrind;
use crossbeam_utils::CachePadded;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

/// A block's ready flag and the parker of the thread that runs it.
#[derive(Debug)]
pub(crate) struct Activation {
    ready: CachePadded<AtomicBool>,
    parker: Arc<Parker>,
}

impl Activation {
    /// Starts raised, so every block is stepped once. Built in its `Arc` so that the flag is
    /// marked for valgrind at its final address.
    pub(crate) fn new(parker: Arc<Parker>) -> Arc<Self> {
        let a = Arc::new(Self {
            ready: CachePadded::new(AtomicBool::new(true)),
            parker,
        });
        valgrind::untracked(&*a.ready);
        a
    }

    pub(crate) fn parker(&self) -> &Arc<Parker> {
        &self.parker
    }

    /// Raises the flag and wakes the block's thread (from another thread).
    pub(crate) fn notify(&self) {
        self.raise();
        self.parker.notify();
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
    /// The target runs on the notifier's thread.
    local: bool,
}

impl Wake {
    /// Wakes `target` from a block whose activation is `own`.
    pub(crate) fn new(target: &Arc<Activation>, own: &Arc<Activation>) -> Self {
        Self {
            target: target.clone(),
            local: Arc::ptr_eq(&target.parker, &own.parker),
        }
    }

    pub(crate) fn notify(&self) {
        if self.local {
            self.target.raise();
        } else {
            self.target.notify();
        }
    }
}
