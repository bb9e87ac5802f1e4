//! [`Endpoint`]: a stream reader or writer in an allocation of its own, with two handles: one in
//! the block's port, one in the task that steps the block.
//!
//! The port uses its handle inside the block's own calls (`work`, message handlers, hooks); the
//! task uses its handle between them, to refresh every window before `work` and publish every
//! position after it without calling into the block (`port_table.rs`). Both handles are only
//! ever used by the thread that steps the task, because the task owns the block that owns the
//! port and they move between threads together; and never at the same time, because the task
//! holds no reference into an endpoint while it calls the block, and the block's port methods
//! return no reference into it (the slices they return point into the buffer's memory).
//!
//! The endpoint sits outside the block's own allocation on purpose: a pointer kept by the task
//! into the block's fields would alias the `&mut` the task hands to `work`.

use std::cell::UnsafeCell;

/// One of two handles on a stream endpoint `E` (a `Reader` or a `Writer`).
pub(crate) struct Endpoint<E>(std::sync::Arc<UnsafeCell<E>>);

// SAFETY: both handles are used by one thread at a time: the thread that steps the task owning
// them both (see the module documentation); moving the pair to another thread moves `E` with
// it, so `E: Send` is all that is needed.
unsafe impl<E: Send> Send for Endpoint<E> {}

impl<E> Endpoint<E> {
    /// The first handle on `e`.
    pub(crate) fn new(e: E) -> Self {
        Self(std::sync::Arc::new(UnsafeCell::new(e)))
    }

    /// The second handle on the same endpoint (made once, when a run attaches its buffers).
    pub(crate) fn share(&self) -> Self {
        Self(self.0.clone())
    }

    /// The endpoint, shared.
    ///
    /// # Safety
    /// No exclusive reference from the other handle ([`get_mut`](Self::get_mut)) may be live
    /// while the returned reference is.
    pub(crate) unsafe fn get(&self) -> &E {
        // SAFETY: the caller rules out a live `&mut E` from the other handle; this handle's own
        // `&mut` cannot coexist with `&self`.
        unsafe { &*self.0.get() }
    }

    /// The endpoint, exclusively.
    ///
    /// # Safety
    /// No reference from the other handle may be live while the returned reference is.
    pub(crate) unsafe fn get_mut(&mut self) -> &mut E {
        // SAFETY: the caller rules out references from the other handle; `&mut self` rules out
        // references from this one.
        unsafe { &mut *self.0.get() }
    }
}

impl<E: std::fmt::Debug> std::fmt::Debug for Endpoint<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Endpoint")
    }
}
