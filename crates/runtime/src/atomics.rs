//! The one place atomics (and the `Arc` shared between threads that use them) come from, so
//! that the feature `loom` model-checks the buffer positions and the wake-up protocol with
//! loom instead of std.

#[cfg(feature = "loom")]
pub(crate) use loom::sync::atomic::{fence, AtomicBool, AtomicU32, AtomicU64, AtomicUsize};
#[cfg(feature = "loom")]
pub(crate) use loom::sync::Arc;

#[cfg(not(feature = "loom"))]
pub(crate) use std::sync::atomic::{fence, AtomicBool, AtomicU32, AtomicU64, AtomicUsize};
#[cfg(not(feature = "loom"))]
pub(crate) use std::sync::Arc;
