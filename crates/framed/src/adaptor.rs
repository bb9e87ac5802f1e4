//! Pipeline adaptors: bounded rings of frame references between stages, indexed by frame
//! sequence number so that frames come out in order whatever replica produced them, and the
//! waiting (active or passive) for a slot to fill or free.

use crate::frame::Frame;
use crossbeam_utils::CachePadded;
use std::cell::UnsafeCell;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// How a pipeline thread waits for a full or empty adaptor slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Wait {
    /// Spin (yielding the CPU now and then, so that more threads than cores still progress).
    Active,
    /// Spin briefly, yield the CPU a while, then sleep until woken.
    #[default]
    Passive,
}

/// Where waiting threads sleep; a notifier takes the lock only when someone sleeps.
#[derive(Default)]
pub(crate) struct Signal {
    waiters: AtomicUsize,
    lock: Mutex<()>,
    cv: Condvar,
}

impl Signal {
    /// Waits until `ready()` or `abort`; returns false on abort.
    pub(crate) fn wait(
        &self,
        mode: Wait,
        abort: &AtomicBool,
        mut ready: impl FnMut() -> bool,
    ) -> bool {
        let mut spins = 0u32;
        loop {
            if ready() {
                return true;
            }
            if abort.load(Ordering::Relaxed) {
                return false;
            }
            spins += 1;
            match mode {
                Wait::Active => {
                    if spins.is_multiple_of(256) {
                        std::thread::yield_now();
                    } else {
                        std::hint::spin_loop();
                    }
                }
                // Spin briefly, then give the CPU to others a while (the thread we wait for
                // may be one of them), and only then sleep: waking a sleeper costs tens of
                // microseconds.
                Wait::Passive if spins < 100 => std::hint::spin_loop(),
                Wait::Passive if spins < 200 => std::thread::yield_now(),
                Wait::Passive => break,
            }
        }
        // Dekker with `notify` (SeqCst fences on both sides): either the notifier sees our
        // count, or our next look at the condition sees its update.
        self.waiters.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        let mut g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let ok = loop {
            if ready() {
                break true;
            }
            if abort.load(Ordering::SeqCst) {
                break false;
            }
            g = self.cv.wait(g).unwrap_or_else(|e| e.into_inner());
        };
        drop(g);
        self.waiters.fetch_sub(1, Ordering::SeqCst);
        ok
    }

    /// Wakes the sleepers (after the store that made their condition true).
    pub(crate) fn notify(&self) {
        fence(Ordering::SeqCst);
        if self.waiters.load(Ordering::SeqCst) > 0 {
            drop(self.lock.lock().unwrap_or_else(|e| e.into_inner()));
            self.cv.notify_all();
        }
    }
}

/// What travels through an adaptor slot.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Msg {
    /// Pool index of the frame (copy-less mode).
    pub(crate) frame: u32,
    /// A task aborted this frame: later stages skip it.
    pub(crate) aborted: bool,
    /// End of the stream: no frame has a sequence number at or above this.
    pub(crate) end: Option<u64>,
}

struct Slot {
    /// `2k`: free for frame `k`; `2k + 1`: holds frame `k`.
    stamp: CachePadded<AtomicU64>,
    msg: UnsafeCell<Msg>,
    /// Copying mode: the slot's own buffer.
    buf: UnsafeCell<Option<Frame>>,
}

/// The frames for one consumer replica: frame `k` (with `k % stride == replica`) goes to slot
/// `(k / stride) % capacity`. One producer and one consumer touch a slot at a time, in
/// sequence order, so the consumer sees its frames in order.
pub(crate) struct Queue {
    slots: Box<[Slot]>,
    stride: u64,
    filled: Signal,
    freed: Signal,
}

// SAFETY: a slot's `msg` and `buf` are written only by the producer that saw the stamp
// "free for k" and read only by the consumer that saw "holds k"; the Release/Acquire stamp
// stores and loads order those accesses, so no two threads access them at once.
unsafe impl Sync for Queue {}

impl Queue {
    pub(crate) fn new(
        replica: usize,
        stride: usize,
        capacity: usize,
        buffers: Option<&dyn Fn() -> Frame>,
    ) -> Queue {
        let slots = (0..capacity)
            .map(|s| Slot {
                stamp: CachePadded::new(AtomicU64::new(2 * (replica + s * stride) as u64)),
                msg: UnsafeCell::new(Msg::default()),
                buf: UnsafeCell::new(buffers.map(|f| f())),
            })
            .collect();
        Queue {
            slots,
            stride: stride as u64,
            filled: Signal::default(),
            freed: Signal::default(),
        }
    }

    fn slot(&self, k: u64) -> &Slot {
        &self.slots[((k / self.stride) % self.slots.len() as u64) as usize]
    }

    /// Puts frame `k` in; `fill` may write the slot's buffer first. False on abort.
    pub(crate) fn push(
        &self,
        k: u64,
        msg: Msg,
        mode: Wait,
        abort: &AtomicBool,
        fill: impl FnOnce(Option<&mut Frame>),
    ) -> bool {
        let slot = self.slot(k);
        if !self
            .freed
            .wait(mode, abort, || slot.stamp.load(Ordering::Acquire) == 2 * k)
        {
            return false;
        }
        // SAFETY: the stamp says the slot is free for frame `k`, which only this thread
        // produces; the consumer will not touch it until the Release store below.
        unsafe {
            *slot.msg.get() = msg;
            fill((*slot.buf.get()).as_mut());
        }
        slot.stamp.store(2 * k + 1, Ordering::Release);
        self.filled.notify();
        true
    }

    /// Takes frame `k` out; `drain` may read the slot's buffer before it is freed. `None` on
    /// abort.
    pub(crate) fn pop(
        &self,
        k: u64,
        mode: Wait,
        abort: &AtomicBool,
        drain: impl FnOnce(&Msg, Option<&Frame>),
    ) -> Option<Msg> {
        let slot = self.slot(k);
        if !self.filled.wait(mode, abort, || {
            slot.stamp.load(Ordering::Acquire) == 2 * k + 1
        }) {
            return None;
        }
        // SAFETY: the stamp says the slot holds frame `k` (Acquire pairs with the producer's
        // Release); this thread is its only consumer, and the producer of the next frame for
        // this slot waits for the store below.
        let msg = unsafe {
            let m = *slot.msg.get();
            drain(&m, (*slot.buf.get()).as_ref());
            m
        };
        let next = k + self.stride * self.slots.len() as u64;
        slot.stamp.store(2 * next, Ordering::Release);
        self.freed.notify();
        Some(msg)
    }

    /// Wakes every sleeper (abort).
    pub(crate) fn wake_all(&self) {
        self.filled.notify();
        self.freed.notify();
    }
}
