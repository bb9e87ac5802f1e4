//! The numbers GNU Radio gives its decoder objects (the generic FEC blocks' end-of-frame tag
//! keys). Their input tags move by the code's rate as the runtime's `propagate_tags_at_rate`
//! moves them.

use std::sync::atomic::{AtomicU64, Ordering};

/// The next number for a generic decoder's end-of-frame tag key (GNU Radio counts its decoder
/// objects from 1, in the order a process makes them).
pub(super) fn alias_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
