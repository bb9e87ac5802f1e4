//! [`NullSink`]: consumes and discards everything.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Consumes every item it is offered and only counts them, like GNU Radio's `null_sink`.
///
/// [`items`](Self::items) reports how many items were consumed.
///
/// # Example
/// ```
/// use radioflow_blocks::{NullSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32; 1000]));
/// let sink = fg.add(NullSink::<f32>::new());
/// fg.connect(src, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<NullSink<f32>>(sink).unwrap().items(), 1000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "null_sink",
    summary = "Discards what it receives.",
    dtypes = all,
    make = Self::new().with_vlen(vlen)
)]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct NullSink<T: Item> {
    /// Discarded.
    #[input(name = "in")]
    input: StreamInput<T>,
    items: u64,
}

#[block]
impl<T: Item> NullSink<T> {
    /// A sink that discards its input.
    pub fn new() -> Self {
        Self {
            input: StreamInput::new(),
            items: 0,
        }
    }

    /// Reads vectors of `vlen` scalars (at least 1).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self
    }

    /// Number of items consumed so far (vectors where the input carries them).
    pub fn items(&self) -> u64 {
        self.items
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len();
        self.input.consume(n);
        let vlen = self.input.vlen();
        self.items += if vlen > 1 { n / vlen } else { n } as u64;
        Ok(WorkStatus::Continue)
    }
}

impl<T: Item> Default for NullSink<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn consumes_everything_offered_and_counts_it() {
        let mut h = Harness::new(NullSink::<u32>::new());
        h.push("in", &[1u32; 700]);
        h.work().unwrap();
        h.push("in", &[2u32; 300]);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        assert_eq!((h.consumed("in"), h.block().items()), (1000, 1000));
    }
}
