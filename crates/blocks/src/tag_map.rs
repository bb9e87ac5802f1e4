//! Tags carried through blocks whose output items are not their input items one for one.

use radioflow_runtime::prelude::*;
use std::ops::Range;

/// Copies the tags on the readable items `items` of `input` (indices into its slice) to
/// `output`, each at the absolute output offset `at(input offset)`, or at the next output
/// item where that one is out already. Call before `consume` and `produce`.
pub(crate) fn move_tags<A: Item, B: Item>(
    input: &StreamInput<A>,
    output: &mut StreamOutput<B>,
    items: Range<usize>,
    at: impl Fn(u64) -> u64,
) {
    let (start, end) = (
        input.offset() + items.start as u64,
        input.offset() + items.end as u64,
    );
    let first = output.offset();
    let tags = input.tags();
    let skip = tags.partition_point(|t| t.offset < start);
    for t in tags[skip..].iter().take_while(|t| t.offset < end) {
        output.push_tag(Tag {
            offset: at(t.offset).max(first),
            ..t.clone()
        });
    }
}

/// Where GNU Radio's scheduler puts a tag of input offset `offset` on the output of a block
/// of rate `num / den` (its default tag propagation): the offset times the rate, rounded
/// half up.
pub(crate) fn gr_rate_offset(offset: u64, num: u64, den: u64) -> u64 {
    let (o, num, den) = (u128::from(offset), u128::from(num), u128::from(den));
    ((2 * o * num + den) / (2 * den)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_scale_and_round_half_up_as_gnu_radio_s() {
        // integrate_ff(3): offsets 1, 2, 4, 5, 7 went to 0, 1, 1, 2, 2 in GNU Radio 3.10.
        let got: Vec<u64> = [1, 2, 4, 5, 7]
            .iter()
            .map(|&o| gr_rate_offset(o, 1, 3))
            .collect();
        assert_eq!(got, [0, 1, 1, 2, 2]);
        // deinterleave of two streams: 3 went to 2.
        assert_eq!(gr_rate_offset(3, 1, 2), 2);
        assert_eq!(gr_rate_offset(u64::MAX, 1, 1), u64::MAX);
    }
}
