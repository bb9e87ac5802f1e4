//! [`lock`]: the crate's one way to take a mutex.

use std::sync::{Mutex, MutexGuard};

/// Locks `m`; a poisoned lock only means another thread panicked while holding it, and the
/// data behind our locks stays consistent (every update is a single assignment).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
