//! Frames: one preallocated buffer holding every output socket of the graph, and the table of
//! where each socket's data currently is (switchers point sockets at other sockets' data).

/// Alignment of every socket buffer (a cache line).
pub(crate) const ALIGN: usize = 64;

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; ALIGN]);

/// Where each output socket lives in a frame (made by the graph:
/// [`TaskGraph::frame_layout`](crate::TaskGraph::frame_layout)).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Per socket id: byte offset of its own buffer (`usize::MAX` for inputs).
    pub(crate) offset: Vec<usize>,
    /// Per socket id: bytes.
    pub(crate) bytes: Vec<usize>,
    /// Total bytes.
    pub(crate) total: usize,
}

/// The data of one frame.
pub(crate) struct Frame {
    arena: Vec<Line>,
    /// Per socket id: where its data is now. Invariant: every non-null entry points into
    /// `arena`, at the start of some output socket's buffer of the same type and length
    /// (its own, or the one a switcher aliased it to).
    pub(crate) slots: Vec<*mut u8>,
    /// Per switcher: the current path.
    pub(crate) paths: Vec<u32>,
    /// Sequence number (pipelines).
    pub(crate) seq: u64,
}

// SAFETY: the raw pointers in `slots` point into `arena`, owned by the same value, so the frame
// can move to another thread as a whole (its heap buffer does not move).
unsafe impl Send for Frame {}

impl Frame {
    pub(crate) fn new(layout: &Layout, switchers: usize) -> Frame {
        let mut arena = vec![Line([0; ALIGN]); layout.total.div_ceil(ALIGN).max(1)];
        let base = arena.as_mut_ptr() as *mut u8;
        let slots = layout
            .offset
            .iter()
            .map(|&o| {
                if o == usize::MAX {
                    std::ptr::null_mut()
                } else {
                    // SAFETY: every offset is inside the arena (computed by `Layout::of` from
                    // the same sizes the arena was allocated with).
                    unsafe { base.add(o) }
                }
            })
            .collect();
        Frame {
            arena,
            slots,
            paths: vec![0; switchers],
            seq: 0,
        }
    }

    /// The socket's own buffer in this frame.
    pub(crate) fn own(&mut self, layout: &Layout, socket: u32) -> *mut u8 {
        let base = self.arena.as_mut_ptr() as *mut u8;
        // SAFETY: the offset of an output socket is inside the arena (see `new`).
        unsafe { base.add(layout.offset[socket as usize]) }
    }

    /// Copies output `socket`'s current data from `src` into this frame's own buffer for it
    /// and points the socket there (the copying pipeline adaptors).
    pub(crate) fn copy_in(&mut self, layout: &Layout, src: &Frame, socket: u32) {
        let dst = self.own(layout, socket);
        let from = src.slots[socket as usize];
        // SAFETY: `from` points to `bytes` bytes inside `src`'s arena (slot invariant), `dst`
        // to as many inside ours; the frames are distinct values, so the ranges do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(from, dst, layout.bytes[socket as usize]) };
        self.slots[socket as usize] = dst;
    }
}
