//! [`VectorSink`]: collects its input in memory.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Stores every item and tag it receives, like GNU Radio's `vector_sink`. Read them after the
/// run with [`data`](Self::data), [`tags`](Self::tags) or [`take`](Self::take).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0.5f32, 1.5]));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, sink)?;
/// fg.run()?;
/// let data = fg.block_mut::<VectorSink<f32>>(sink).unwrap().take();
/// assert_eq!(data, [0.5, 1.5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "vector_sink",
    summary = "Collects what it receives (items and tags) for reading after the run.",
    dtypes = all,
    make = Self::new().with_vlen(vlen)
)]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct VectorSink<T: Item> {
    /// The items to keep, with their tags.
    #[input(name = "in")]
    input: StreamInput<T>,
    data: Vec<T>,
    tags: Vec<Tag>,
}

#[block]
impl<T: Item> VectorSink<T> {
    /// An empty sink.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new(),
            data: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// A sink of vectors of `vlen` scalars (at least 1): [`data`](Self::data) is flat, tag
    /// offsets count vectors.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self
    }

    /// The scalars received so far, in order (`vlen` per item).
    pub fn data(&self) -> &[T] {
        &self.data
    }

    /// The tags received so far, in order; offsets count items of this sink's input, so they
    /// index [`data`](Self::data) (times the vector length; as long as nothing was taken out).
    pub fn tags(&self) -> &[Tag] {
        &self.tags
    }

    /// Takes the items received so far out of the sink, leaving it empty. Tags stay.
    pub fn take(&mut self) -> Vec<T> {
        std::mem::take(&mut self.data)
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.input.slice();
        self.data.extend_from_slice(i);
        self.tags.extend_from_slice(self.input.tags());
        let n = i.len();
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}

impl<T: Item> Default for VectorSink<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn keeps_items_and_tags_of_every_call() {
        let mut h = Harness::new(VectorSink::<i16>::new());
        h.push_tag("in", 1, "a", 1i64);
        h.push("in", &[1i16, 2]);
        h.work().unwrap();
        h.push_tag("in", 3, "b", 3i64);
        h.push("in", &[3i16, 4]);
        h.work().unwrap();
        assert_eq!(h.consumed("in"), 4);
        assert_eq!(h.block().data(), [1, 2, 3, 4]);
        assert_eq!(
            h.block().tags(),
            [Tag::new(1, "a", 1i64), Tag::new(3, "b", 3i64)]
        );
        assert_eq!(h.block_mut().take(), [1, 2, 3, 4]);
        assert!(h.block().data().is_empty());
        assert_eq!(h.block().tags().len(), 2, "tags stay");
    }

    #[test]
    fn keeps_vectors_flat_with_tags_on_vector_offsets() {
        let mut h = Harness::new(VectorSink::<u8>::new().with_vlen(3));
        h.push_tag("in", 1, "a", 1i64);
        h.push("in", &[1u8, 2, 3, 4, 5, 6]);
        h.work().unwrap();
        assert_eq!(h.block().data(), [1, 2, 3, 4, 5, 6]);
        assert_eq!(h.block().tags(), [Tag::new(1, "a", 1i64)]);
    }
}
