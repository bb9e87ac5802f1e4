//! What GNU Radio's generic FEC blocks do with tags: input tags moved by the code's rate, and
//! the numbers GNU Radio gives its decoder objects.

use radioflow_runtime::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// The next number for a generic decoder's end-of-frame tag key (GNU Radio counts its decoder
/// objects from 1, in the order a process makes them).
pub(super) fn alias_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Copies the tags on the next `consumed` items of `input` to `output`, each at its absolute
/// offset times `n_out / n_in` rounded half up (GNU Radio's scheduler, for a block of
/// relative rate `n_out / n_in`, with exact rational arithmetic). Call before `consume` and
/// `produce`, after a whole number of frames: the offsets then land at or after `output`'s.
pub(super) fn move_tags<A: Item, B: Item>(
    input: &StreamInput<A>,
    output: &mut StreamOutput<B>,
    consumed: usize,
    n_in: usize,
    n_out: usize,
) {
    let end = input.offset() + consumed as u64;
    let (n_in, n_out) = (n_in as u128, n_out as u128);
    for t in input.tags().iter().take_while(|t| t.offset < end) {
        let offset = (2 * u128::from(t.offset) * n_out + n_in) / (2 * n_in);
        output.add_tag_at(offset as u64, t);
    }
}
