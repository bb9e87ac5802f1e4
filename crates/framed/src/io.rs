//! Typed socket handles and [`Io`], what a codelet reads and writes through.

use std::cell::Cell;
use std::marker::PhantomData;

/// What a task reports after running on a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Go on with the next task.
    Continue,
    /// Early exit: drop the rest of this frame; the sequence starts again with the next one.
    Abort,
}

/// An input socket of a task: `len` elements of `T`.
pub struct In<T> {
    pub(crate) graph: u32,
    pub(crate) task: u32,
    pub(crate) index: u32,
    pub(crate) id: u32,
    pub(crate) len: u32,
    _t: PhantomData<fn() -> T>,
}

/// An output socket of a task: `len` elements of `T`.
pub struct Out<T> {
    pub(crate) graph: u32,
    pub(crate) task: u32,
    pub(crate) index: u32,
    pub(crate) id: u32,
    pub(crate) len: u32,
    _t: PhantomData<fn() -> T>,
}

macro_rules! handle {
    ($name:ident) => {
        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T> Copy for $name<T> {}
        impl<T> std::fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(
                    f,
                    "{}(task {}, #{})",
                    stringify!($name),
                    self.task,
                    self.index
                )
            }
        }
        impl<T> $name<T> {
            pub(crate) fn new(graph: u32, task: u32, index: u32, id: u32, len: u32) -> Self {
                Self {
                    graph,
                    task,
                    index,
                    id,
                    len,
                    _t: PhantomData,
                }
            }

            /// TaskGraph and task, as one key.
            #[inline]
            pub(crate) fn key(&self) -> u64 {
                (u64::from(self.graph) << 32) | u64::from(self.task)
            }

            /// Elements in the socket.
            pub fn len(&self) -> usize {
                self.len as usize
            }

            /// Always false: sockets have at least one element.
            pub fn is_empty(&self) -> bool {
                false
            }
        }
    };
}
handle!(In);
handle!(Out);

/// A task's view of the current frame, given to its codelet.
///
/// Sockets are fetched by handle: [`input`](Self::input) gives `&[T]`, [`output`](Self::output)
/// gives `&mut [T]` (each output at most once per call). A handle of another task panics.
pub struct Io<'a> {
    /// Per socket id: where its data is in the current frame.
    slots: &'a [*mut u8],
    /// The task's inputs: the output socket id each one reads.
    ins: &'a [u32],
    /// The task's output socket ids.
    outs: &'a [u32],
    /// TaskGraph and task (see `In::key`).
    key: u64,
    taken: Cell<u64>,
}

impl<'a> Io<'a> {
    /// # Safety invariant (upheld by the executor)
    /// Every `slots[s]` for `s` in `ins` and `outs` points to a live, aligned buffer of that
    /// socket's length and type, for `'a`; the buffers of `outs` are distinct and none of them
    /// is one of the buffers of `ins` (checked when the graph is built); nothing else accesses
    /// them during `'a`.
    pub(crate) fn new(slots: &'a [*mut u8], ins: &'a [u32], outs: &'a [u32], key: u64) -> Self {
        Io {
            slots,
            ins,
            outs,
            key,
            taken: Cell::new(0),
        }
    }

    /// The data of input `s`.
    ///
    /// # Panics
    /// If `s` belongs to another task.
    #[inline]
    pub fn input<T: bytemuck::Pod>(&self, s: In<T>) -> &[T] {
        assert!(s.key() == self.key, "input socket of another task");
        let p = self.slots[self.ins[s.index as usize] as usize];
        // SAFETY: `s` was made for this task of this graph with type `T` and length `len` (the
        // keys are equal, and handles are only made by `TaskGraph`); the invariant of `new` says the buffer
        // is live, aligned, of that type and length, and not written during `'a`.
        unsafe { std::slice::from_raw_parts(p as *const T, s.len as usize) }
    }

    /// The buffer of output `s`, to fill.
    ///
    /// # Panics
    /// If `s` belongs to another task, or was already taken during this call.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub fn output<T: bytemuck::Pod>(&self, s: Out<T>) -> &mut [T] {
        assert!(s.key() == self.key, "output socket of another task");
        let bit = 1u64 << s.index;
        let taken = self.taken.get();
        assert!(taken & bit == 0, "output socket taken twice in one call");
        self.taken.set(taken | bit);
        let p = self.slots[self.outs[s.index as usize] as usize];
        // SAFETY: as for `input`, plus: output buffers are distinct from each other and from
        // the inputs, and the `taken` bit makes this the only reference to this buffer.
        unsafe { std::slice::from_raw_parts_mut(p as *mut T, s.len as usize) }
    }
}
