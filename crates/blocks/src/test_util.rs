//! Helpers of the block tests: reproducible inputs, and a one-in one-out block run in
//! chunks through the harness.

use radioflow_runtime::prelude::*;
use radioflow_runtime::testing::Harness;

/// `n` values in `[-1, 1)` from a fixed-seed linear congruential generator.
pub(crate) fn random_real(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// `n` complex values with parts in `[-1, 1)`.
pub(crate) fn random_complex(seed: u64, n: usize) -> Vec<Complex32> {
    let v = random_real(seed, 2 * n);
    v.chunks(2).map(|p| Complex32::new(p[0], p[1])).collect()
}

/// Runs `h` (ports `in` and `out`) on `x` pushed `push` items at a time with `space` items
/// of output room per call, calling `work` until it moves nothing; returns the output and
/// the output tags' offsets.
pub(crate) fn run_chunked<B: Block, A: Item, O: Item>(
    h: &mut Harness<B>,
    x: &[A],
    push: usize,
    space: usize,
) -> (Vec<O>, Vec<u64>) {
    h.set_space("out", space);
    let (mut y, mut tags) = (Vec::new(), Vec::new());
    for chunk in x.chunks(push) {
        h.push("in", chunk);
        loop {
            let before = h.consumed("in");
            h.work().unwrap();
            tags.extend(h.output_tags("out").iter().map(|t| t.offset));
            let got = h.take_output::<O>("out");
            let moved = !got.is_empty() || h.consumed("in") != before;
            y.extend(got);
            if !moved {
                break;
            }
        }
    }
    (y, tags)
}
