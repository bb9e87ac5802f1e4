//! [`rate_work`]: one work call of a block over a streaming kernel that changes the rate.

use radioflow_runtime::prelude::*;

/// One work call of a block whose kernel keeps its own history and reports what it took and
/// made, `f(input, output) -> (consumed, produced)` (the decimating, interpolating and
/// resampling filters of `radioflow_dsp`): the tags on the consumed inputs move to output
/// `i · interpolation / decimation` rounded to the nearest, halves up (GNU Radio's rule: a
/// tag at 105 through a decimation by 2 lands on 53), or the next output if that one is out
/// already (the kernels take input ahead of their outputs), then the counts are consumed
/// and produced.
pub(crate) fn rate_work<A: Item, B: Item>(
    input: &mut StreamInput<A>,
    output: &mut StreamOutput<B>,
    interpolation: u64,
    decimation: u64,
    f: impl FnOnce(&[A], &mut [B]) -> (usize, usize),
) -> (usize, usize) {
    rate_work_delayed(input, output, interpolation, decimation, 0, f)
}

/// [`rate_work`] with tags moved as if the input came `delay` samples later (GNU Radio's
/// `declare_sample_delay`, which its buffer readers add to a tag's offset before the rate
/// moves it).
pub(crate) fn rate_work_delayed<A: Item, B: Item>(
    input: &mut StreamInput<A>,
    output: &mut StreamOutput<B>,
    interpolation: u64,
    decimation: u64,
    delay: u64,
    f: impl FnOnce(&[A], &mut [B]) -> (usize, usize),
) -> (usize, usize) {
    let (consumed, produced) = f(input.slice(), output.slice());
    if !input.tags().is_empty() {
        let (from, to) = (input.offset(), output.offset());
        for t in input.tags() {
            if t.offset >= from + consumed as u64 {
                break;
            }
            let (i, d) = (u128::from(interpolation), u128::from(decimation));
            let at = ((2 * u128::from(t.offset + delay) * i + d) / (2 * d)) as u64;
            output.push_tag(Tag {
                offset: at.max(to),
                ..t.clone()
            });
        }
    }
    input.consume(consumed);
    output.produce(produced);
    (consumed, produced)
}
