//! Lock-free stream buffers: one writer, any number of readers, contiguous windows.
//!
//! - [`mapping`]: memory mapped twice back to back (or mirrored where that is unavailable).
//! - [`region`]: memory the buffers of one chain borrow in turn, so a chunk stays in L1.
//! - [`stream`]: the shared ring state (atomic positions, tags) and the untyped
//!   [`Reader`](stream::Reader) / [`Writer`](stream::Writer) endpoints that ports wrap;
//!   `stream/borrow.rs`: how a buffer borrows a region while it is empty.
//! - `size.rs`: the default size and the largest one the machine can hold.

pub(crate) mod mapping;
pub(crate) mod region;
mod size;
pub(crate) mod stream;
mod tags;

pub(crate) use region::Region;
pub use size::DEFAULT_BUFFER_BYTES;
pub(crate) use size::{max_buffer_bytes, too_large};
pub(crate) use stream::{Reader, StreamBuffer, Writer};
