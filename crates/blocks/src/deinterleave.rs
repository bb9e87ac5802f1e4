//! [`Deinterleave`]: one stream dealt out to several by blocks of items.

use crate::tag_map::{gr_rate_offset, move_tags};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Writes `blocksize` items to output 0, the next `blocksize` to output 1, ..., then output
/// 0 again, like GNU Radio's `deinterleave`; it moves whole blocks only (the items of an
/// unfinished block at the end of the stream make no output). A tag on input item `i` goes
/// to item `i / outputs` (rounded half up) of every output, where GNU Radio's scheduler puts
/// it.
///
/// # Example
/// ```
/// use radioflow_blocks::{Deinterleave, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4, 5, 6]));
/// let de = fg.add(Deinterleave::<u8>::new(2, 1).unwrap());
/// let a = fg.add(VectorSink::<u8>::new());
/// let b = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, de)?;
/// fg.connect((de, 0), a)?;
/// fg.connect((de, 1), b)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(a).unwrap().data(), &[1, 3, 5]);
/// assert_eq!(fg.block::<VectorSink<u8>>(b).unwrap().data(), &[2, 4, 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "deinterleave",
    summary = "One stream dealt out to `outputs` streams by blocks of `blocksize` items (ports out0..).",
    dtypes = all,
    make = Self::new(outputs, blocksize).map_err(|(name, e)| Refused::param(name, e))
)]
#[param(outputs: usize = 2, min = 1, doc = "how many streams")]
#[param(blocksize: usize = 1, min = 1, doc = "items given to a stream per turn")]
#[derive(Debug)]
pub struct Deinterleave<T: Item> {
    /// The stream.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Its blocks, dealt out in turn.
    #[output(name = "out")]
    outputs: Vec<StreamOutput<T>>,
    blocksize: usize,
    /// The output the next block goes to.
    turn: usize,
}

#[block]
impl<T: Item> Deinterleave<T> {
    /// Deals one stream out to `outputs` streams by blocks of `blocksize` items.
    ///
    /// # Errors
    /// If `outputs` or `blocksize` is 0, naming it.
    pub fn new(outputs: usize, blocksize: usize) -> Result<Self, (&'static str, String)> {
        for (name, v) in [("outputs", outputs), ("blocksize", blocksize)] {
            if v == 0 {
                return Err((name, "must be at least 1".into()));
            }
        }
        Ok(Self {
            input: StreamInput::new().with_min_items(blocksize),
            outputs: (0..outputs)
                .map(|_| StreamOutput::new().with_min_items(blocksize))
                .collect(),
            blocksize,
            turn: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (bs, k, first) = (self.blocksize, self.outputs.len(), self.turn);
        // The blocks that go out: while the input has one and its output has room.
        let readable = self.input.slice().len() / bs;
        let mut blocks = 0;
        while blocks < readable {
            let s = (first + blocks) % k;
            let need = (blocks_to(s, first, blocks, k) + 1) * bs;
            if self.outputs[s].slice().len() < need {
                break;
            }
            blocks += 1;
        }
        if blocks == 0 {
            return Ok(WorkStatus::Continue);
        }
        for output in &mut self.outputs {
            move_tags(&self.input, output, 0..blocks * bs, |o| {
                gr_rate_offset(o, 1, k as u64)
            });
        }
        let x = self.input.slice();
        for (b, block) in x[..blocks * bs].chunks_exact(bs).enumerate() {
            let s = (first + b) % k;
            let at = b / k * bs;
            self.outputs[s].slice()[at..at + bs].copy_from_slice(block);
        }
        for (s, output) in self.outputs.iter_mut().enumerate() {
            output.produce(blocks_to(s, first, blocks, k) * bs);
        }
        self.input.consume(blocks * bs);
        self.turn = (first + blocks) % k;
        Ok(WorkStatus::Continue)
    }
}

/// How many of `blocks` blocks dealt out to `k` outputs from output `first` on go to
/// output `s`.
fn blocks_to(s: usize, first: usize, blocks: usize, k: usize) -> usize {
    let d = (s + k - first) % k;
    if d >= blocks {
        0
    } else {
        (blocks - d - 1) / k + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn deals_whole_blocks_in_turn_with_tags_on_every_output() {
        let mut h = Harness::new(Deinterleave::<u8>::new(3, 2).unwrap());
        h.push_tag("in", 3, "t", 0i64);
        h.push("in", &(1..=13).collect::<Vec<u8>>());
        h.set_space("out1", 2);
        h.work().unwrap();
        // Output 1 has no room for a second block: the turn stops there.
        // GNU Radio 3.10: 3 / 3 = 1 on every output.
        for (port, want) in [
            ("out0", vec![1u8, 2, 7, 8]),
            ("out1", vec![3, 4]),
            ("out2", vec![5, 6]),
        ] {
            let (items, tags) = h.take_output_with_tags::<u8>(port);
            assert_eq!(items, want, "{port}");
            assert_eq!(tags, [Tag::new(1, "t", 0i64)], "{port}");
        }
        assert_eq!(h.consumed("in"), 8);
        h.set_space("out1", 10);
        h.work().unwrap();
        assert_eq!(h.take_output::<u8>("out1"), [9, 10]);
        assert_eq!(h.take_output::<u8>("out2"), [11, 12]);
        assert_eq!(h.consumed("in"), 12, "item 13 waits for its block");
    }

    #[test]
    fn blocks_are_counted_per_output() {
        assert_eq!(blocks_to(0, 0, 5, 2), 3);
        assert_eq!(blocks_to(1, 0, 5, 2), 2);
        assert_eq!(blocks_to(0, 1, 1, 2), 0);
        assert_eq!(blocks_to(2, 1, 7, 3), 2);
    }
}
