//! The work of the blocks that regroup the same scalars into items of another vector length
//! (stream_to_vector, vector_to_stream): a copy of whole items on both sides.

use crate::tag_map::{gr_rate_offset, move_tags};
use radioflow_runtime::prelude::*;

/// Copies as many scalars as fill whole items on both ports (one vector length divides the
/// other), moving each tag to the output item GNU Radio's scheduler puts it on (its offset
/// times the rate `in vlen / out vlen`, rounded half up). Returns the scalars copied.
pub(crate) fn reshape_work<T: Item>(
    input: &mut StreamInput<T>,
    output: &mut StreamOutput<T>,
) -> usize {
    let (vin, vout) = (input.vlen(), output.vlen());
    let whole = vin.max(vout);
    let i = input.slice();
    let o = output.slice();
    let mut n = i.len().min(o.len());
    n -= n % whole;
    o[..n].copy_from_slice(&i[..n]);
    move_tags(input, output, 0..n / vin, |k| {
        gr_rate_offset(k, vin as u64, vout as u64)
    });
    input.consume(n);
    output.produce(n);
    n
}
