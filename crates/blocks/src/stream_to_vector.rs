//! [`StreamToVector`]: groups `n` items into one vector item.

use crate::reshape::reshape_work;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Groups every `n` consecutive input items (each a vector of `vlen`, 1 for scalars) into
/// one output item of `n · vlen` scalars, like GNU Radio's `stream_to_vector`. The scalars are
/// the same; only the item boundaries change. A tag on input item `k` goes to output item
/// `k / n` rounded half up (GNU Radio's scheduler). Input items left at the end of the stream
/// that do not make a whole output vector are dropped, as in GNU Radio.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamToVector, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0, 4.0, 5.0]));
/// let s2v = fg.add(StreamToVector::<f32>::new(2, 1).unwrap());
/// let sink = fg.add(VectorSink::<f32>::new().with_vlen(2));
/// fg.connect(src, s2v)?;
/// fg.connect(s2v, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[1.0, 2.0, 3.0, 4.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "stream_to_vector",
    summary = "Groups `n` items into one vector item.",
    dtypes = all,
    make = Self::new(n, vlen).map_err(|e| Refused::param("n", e))
)]
#[param(n: usize, min = 1, doc = "input items per output vector")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per input item (the output has n · vlen)")]
#[derive(Debug)]
pub struct StreamToVector<T: Item> {
    /// Items of `vlen` scalars.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Items of `n · vlen` scalars.
    #[output(name = "out")]
    output: StreamOutput<T>,
}

#[block]
impl<T: Item> StreamToVector<T> {
    /// Groups `n` items of `vlen` scalars into one.
    ///
    /// # Errors
    /// If `n` or `vlen` is 0, or their product overflows.
    pub fn new(n: usize, vlen: usize) -> Result<Self, String> {
        let out = vector_lengths(n, vlen)?;
        Ok(Self {
            input: StreamInput::new().with_vlen(vlen).with_min_items(out),
            output: StreamOutput::new().with_vlen(out),
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        reshape_work(&mut self.input, &mut self.output);
        Ok(WorkStatus::Continue)
    }
}

/// The vector length `n · vlen` of the grouped items, or why there is none.
pub(crate) fn vector_lengths(n: usize, vlen: usize) -> Result<usize, String> {
    if n == 0 {
        return Err("vectors of 0 items: n must be at least 1".into());
    }
    if vlen == 0 {
        return Err("items of 0 scalars: vlen must be at least 1".into());
    }
    n.checked_mul(vlen)
        .ok_or_else(|| format!("vectors of {n} · {vlen} scalars are too long"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn groups_whole_vectors_and_moves_tags_to_their_vector() {
        let mut h = Harness::new(StreamToVector::<u16>::new(3, 1).unwrap());
        h.push_tag("in", 1, "a", 1i64);
        h.push_tag("in", 2, "b", 2i64);
        h.push_tag("in", 4, "c", 4i64);
        h.push("in", &[0u16, 1, 2, 3, 4, 5, 6, 7]);
        h.work().unwrap();
        assert_eq!((h.consumed("in"), h.produced("out")), (6, 6));
        let (data, tags) = h.take_output_with_tags::<u16>("out");
        assert_eq!(data, [0, 1, 2, 3, 4, 5]);
        let at: Vec<u64> = tags.iter().map(|t| t.offset).collect();
        assert_eq!(at, [0, 1, 1], "1/3 -> 0, 2/3 -> 1, 4/3 -> 1 (half up)");
    }

    #[test]
    fn zero_lengths_are_refused() {
        assert!(StreamToVector::<u8>::new(0, 1).is_err());
        assert!(StreamToVector::<u8>::new(2, 0).is_err());
    }
}
