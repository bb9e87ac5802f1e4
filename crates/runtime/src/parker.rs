//! Wake-up channel of a thread that runs blocks.
//!
//! Every block is assigned one [`Parker`] by its scheduler (one per block in `tpb`, one for the
//! whole graph in `single`, one per worker later). A neighbour that published data or freed space
//! calls [`Parker::notify`]; it costs one fence and one load when the token is already set, and a
//! system call only when the thread actually sleeps.
//!
//! Protocol (a Dekker handshake through SeqCst fences, checked with loom in `tests/loom.rs`):
//! the runner calls [`Parker::reset`] *before* looking at its buffers, and [`Parker::park`] only
//! if it found nothing to do; a notifier publishes its positions *before* calling `notify`.
//! Either the runner's look sees the published positions, or the notifier sees the reset
//! token and sets it again, so `park` returns at once: no wake-up is lost.

use crate::atomics::{fence, AtomicU32};
use crate::valgrind;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release, SeqCst};

const EMPTY: u32 = 0;
const NOTIFIED: u32 = 1;
const PARKED: u32 = 2;

/// A one-token wake-up channel (like `std::thread::park`, but shareable between threads and
/// with a fast path that leaves the cache line untouched when the token is already set).
#[derive(Debug)]
pub struct Parker {
    state: AtomicU32,
    #[cfg(feature = "loom")]
    notify: loom::sync::Notify,
}

impl Default for Parker {
    fn default() -> Self {
        Self::new()
    }
}

impl Parker {
    /// A parker with no token.
    pub fn new() -> Self {
        Self {
            state: AtomicU32::new(EMPTY),
            #[cfg(feature = "loom")]
            notify: loom::sync::Notify::new(),
        }
    }

    /// Sets the token and wakes the runner if it sleeps. Call after publishing what the runner
    /// should see.
    pub fn notify(&self) {
        fence(SeqCst);
        self.notify_after_fence();
    }

    /// [`notify`](Self::notify) for a caller that has just issued the `SeqCst` fence itself
    /// (after publishing, before choosing which parker to notify).
    pub(crate) fn notify_after_fence(&self) {
        if self.state.load(Relaxed) == NOTIFIED {
            return;
        }
        valgrind::happens_before(&self.state);
        if self.state.swap(NOTIFIED, Release) == PARKED {
            self.wake();
        }
    }

    /// Clears the token; call before checking for work.
    pub fn reset(&self) {
        self.state.swap(EMPTY, Acquire);
        fence(SeqCst);
    }

    /// Sleeps until a [`notify`](Self::notify) that came after the last [`reset`](Self::reset).
    /// Returns at once if one already came.
    pub fn park(&self) {
        if self
            .state
            .compare_exchange(EMPTY, PARKED, Acquire, Acquire)
            .is_err()
        {
            valgrind::happens_after(&self.state);
            return;
        }
        while self.state.load(Acquire) == PARKED {
            self.wait_while_parked();
        }
        valgrind::happens_after(&self.state);
    }

    #[cfg(not(feature = "loom"))]
    fn wait_while_parked(&self) {
        // Valgrind counts a futex call as a plain write of the word; it is an atomic.
        valgrind::untracked(&self.state);
        // SAFETY: FUTEX_WAIT reads the u32 behind a valid, aligned pointer that outlives the
        // call; it sleeps only while the value still equals PARKED. A null timeout waits forever.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.state.as_ptr(),
                libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                PARKED,
                std::ptr::null::<libc::timespec>(),
            );
        }
    }

    #[cfg(not(feature = "loom"))]
    fn wake(&self) {
        valgrind::untracked(&self.state);
        // SAFETY: FUTEX_WAKE only uses the address as a key; the pointer is valid and aligned.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.state.as_ptr(),
                libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
                i32::MAX,
            );
        }
    }

    #[cfg(feature = "loom")]
    fn wait_while_parked(&self) {
        self.notify.wait();
    }

    #[cfg(feature = "loom")]
    fn wake(&self) {
        self.notify.notify();
    }
}
