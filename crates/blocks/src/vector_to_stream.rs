//! [`VectorToStream`]: splits each vector item into `n` items.

use crate::reshape::reshape_work;
use crate::stream_to_vector::vector_lengths;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Splits every input item of `n · vlen` scalars into `n` output items of `vlen` (1: scalars),
/// like GNU Radio's `vector_to_stream`. The scalars are the same; only the item boundaries
/// change. A tag on input item `k` goes to output item `k · n`.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource, VectorToStream};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1i32, 2, 3, 4]).with_vlen(2)?);
/// let v2s = fg.add(VectorToStream::<i32>::new(2, 1).unwrap());
/// let sink = fg.add(VectorSink::<i32>::new());
/// fg.connect(src, v2s)?;
/// fg.connect(v2s, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<i32>>(sink).unwrap().data(), &[1, 2, 3, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "vector_to_stream",
    summary = "Splits each vector item into `n` items.",
    dtypes = all,
    make = Self::new(n, vlen).map_err(|e| Refused::param("n", e))
)]
#[param(n: usize, min = 1, doc = "output items per input vector")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per output item (the input has n · vlen)")]
#[derive(Debug)]
pub struct VectorToStream<T: Item> {
    /// Items of `n · vlen` scalars.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Items of `vlen` scalars.
    #[output(name = "out")]
    output: StreamOutput<T>,
}

#[block]
impl<T: Item> VectorToStream<T> {
    /// Splits items of `n · vlen` scalars into `n` of `vlen`.
    ///
    /// # Errors
    /// If `n` or `vlen` is 0, or their product overflows.
    pub fn new(n: usize, vlen: usize) -> Result<Self, String> {
        let whole = vector_lengths(n, vlen)?;
        Ok(Self {
            input: StreamInput::new().with_vlen(whole),
            output: StreamOutput::new().with_vlen(vlen).with_min_items(whole),
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        reshape_work(&mut self.input, &mut self.output);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn splits_vectors_and_moves_tags_to_their_first_item() {
        let mut h = Harness::new(VectorToStream::<f32>::new(2, 2).unwrap());
        h.push_tag("in", 1, "a", 1i64);
        h.push("in", &[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        h.set_space("out", 6);
        h.work().unwrap();
        assert_eq!(
            (h.consumed("in"), h.produced("out")),
            (4, 4),
            "whole input vectors only"
        );
        let (data, tags) = h.take_output_with_tags::<f32>("out");
        assert_eq!(data, [0.0, 1.0, 2.0, 3.0]);
        assert!(tags.is_empty());
        h.work().unwrap();
        let (data, tags) = h.take_output_with_tags::<f32>("out");
        assert_eq!(data, [4.0, 5.0, 6.0, 7.0]);
        assert_eq!(tags.iter().map(|t| t.offset).collect::<Vec<_>>(), [2]);
    }
}
