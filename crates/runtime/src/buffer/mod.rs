//! Lock-free stream buffers: one writer, any number of readers, contiguous windows.
//!
//! - [`mapping`]: memory mapped twice back to back (or mirrored where that is unavailable).
//! - [`region`]: memory the buffers of one chain borrow in turn, so a chunk stays in L1.
//! - [`stream`]: the shared ring state (atomic positions, tags) and the untyped
//!   [`Reader`](stream::Reader) / [`Writer`](stream::Writer) endpoints that ports wrap.

pub(crate) mod mapping;
pub(crate) mod region;
pub(crate) mod stream;
mod tags;

pub(crate) use region::Region;
pub(crate) use stream::{Reader, StreamBuffer, Writer};

/// Default buffer size in bytes. Large enough that a work call moves thousands of items, small
/// enough that a chain of ten buffers stays in a 1 MiB L2 cache.
pub const DEFAULT_BUFFER_BYTES: usize = 64 * 1024;
