//! [`Interleave`]: blocks of items from several streams in turn.

use crate::tag_map::move_tags;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Writes `blocksize` items of input 0, then `blocksize` of input 1, ..., then input 0
/// again, like GNU Radio's `interleave`; it moves whole rounds only (`blocksize` items from
/// every input), so it ends with the shortest input. A tag on item `i` of any input goes to
/// output item `i · inputs`, where GNU Radio's scheduler puts it (the item's own position
/// only when `inputs` and `blocksize` are 1).
///
/// # Example
/// ```
/// use radioflow_blocks::{Interleave, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1u8, 2, 3, 4]));
/// let b = fg.add(VectorSource::new(vec![10u8, 20, 30, 40]));
/// let il = fg.add(Interleave::<u8>::new(2, 2).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(a, (il, 0))?;
/// fg.connect(b, (il, 1))?;
/// fg.connect(il, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 2, 10, 20, 3, 4, 30, 40]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "interleave",
    summary = "Blocks of `blocksize` items from each input in turn (ports in0..).",
    dtypes = all,
    make = Self::new(inputs, blocksize).map_err(|(name, e)| Refused::param(name, e))
)]
#[param(inputs: usize = 2, min = 1, doc = "how many streams")]
#[param(blocksize: usize = 1, min = 1, doc = "items taken from a stream per turn")]
#[derive(Debug)]
pub struct Interleave<T: Item> {
    /// The streams.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    /// Their blocks in turn.
    #[output(name = "out")]
    output: StreamOutput<T>,
    blocksize: usize,
}

#[block]
impl<T: Item> Interleave<T> {
    /// Interleaves `inputs` streams by blocks of `blocksize` items.
    ///
    /// # Errors
    /// If `inputs` or `blocksize` is 0, naming it.
    pub fn new(inputs: usize, blocksize: usize) -> Result<Self, (&'static str, String)> {
        for (name, v) in [("inputs", inputs), ("blocksize", blocksize)] {
            if v == 0 {
                return Err((name, "must be at least 1".into()));
            }
        }
        let round = inputs.checked_mul(blocksize).ok_or((
            "blocksize",
            format!("{blocksize} items times {inputs} streams is too many"),
        ))?;
        Ok(Self {
            inputs: (0..inputs)
                .map(|_| StreamInput::new().with_min_items(blocksize))
                .collect(),
            output: StreamOutput::new().with_min_items(round),
            blocksize,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (bs, k) = (self.blocksize, self.inputs.len());
        let readable = self.inputs.iter().map(|i| i.slice().len()).min();
        let rounds = (readable.unwrap_or(0) / bs).min(self.output.slice().len() / (bs * k));
        if rounds == 0 {
            return Ok(WorkStatus::Continue);
        }
        for input in &self.inputs {
            move_tags(input, &mut self.output, 0..rounds * bs, |o| o * k as u64);
        }
        let y = self.output.slice();
        for (s, input) in self.inputs.iter().enumerate() {
            let x = input.slice();
            for r in 0..rounds {
                let at = (r * k + s) * bs;
                y[at..at + bs].copy_from_slice(&x[r * bs..(r + 1) * bs]);
            }
        }
        for input in &mut self.inputs {
            input.consume(rounds * bs);
        }
        self.output.produce(rounds * bs * k);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn whole_rounds_only_with_tags_where_gnu_radio_puts_them() {
        let mut h = Harness::new(Interleave::<i32>::new(3, 2).unwrap());
        h.push_tag("in1", 3, "t", 0i64);
        h.push("in0", &[1i32, 2, 3, 4]);
        h.push("in1", &[11i32, 12, 13, 14, 15]);
        h.push("in2", &[21i32, 22, 23]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<i32>("out");
        assert_eq!(items, [1, 2, 11, 12, 21, 22]);
        assert!(tags.is_empty());
        h.push("in2", &[24i32]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<i32>("out");
        assert_eq!(items, [3, 4, 13, 14, 23, 24]);
        assert_eq!(tags, [Tag::new(9, "t", 0i64)]);
        assert!(Interleave::<u8>::new(0, 1).is_err());
        assert_eq!(Interleave::<u8>::new(2, 0).unwrap_err().0, "blocksize");
    }
}
