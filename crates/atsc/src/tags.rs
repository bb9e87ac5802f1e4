//! Tags through gr-dtv's ATSC blocks as GNU Radio's scheduler moves them: each tag on a
//! consumed input item goes to output item `offset · num / den`, rounded half up (the block's
//! relative rate), or to the next item to be written where that one is written already.

use radioflow_runtime::prelude::*;

/// Moves the tags on the next `consumed` items of `input` to `output` at `offset · num / den`
/// rounded half up. Call before `consume`/`produce`.
pub(crate) fn forward_tags<A: Item, B: Item>(
    input: &StreamInput<A>,
    output: &mut StreamOutput<B>,
    consumed: usize,
    num: u64,
    den: u64,
) {
    let end = input.offset() + consumed as u64;
    let next = output.offset();
    for t in input.tags().iter().take_while(|t| t.offset < end) {
        let scaled =
            (2 * u128::from(t.offset) * u128::from(num) + u128::from(den)) / (2 * u128::from(den));
        output.push_tag(Tag {
            offset: (scaled as u64).max(next),
            ..t.clone()
        });
    }
}
