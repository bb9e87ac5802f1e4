//! [`NullSource`]: an endless stream of zeros.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Writes zeros (all-zero bytes) into all the free space of its output, forever, like GNU
/// Radio's `null_source`.
///
/// It never finishes on its own: limit it with a [`Head`](crate::Head), or it ends when every
/// reader has finished.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, NullSource, VectorSink};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(NullSource::<i16>::new());
/// let head = fg.add(Head::<i16>::new(100));
/// let sink = fg.add(VectorSink::<i16>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[0; 100]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "null_source",
    summary = "Zeros, endlessly (bound it with head).",
    dtypes = all,
    make = Self::new().with_vlen(vlen)
)]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct NullSource<T: Item> {
    /// Zeros.
    #[output(name = "out")]
    output: StreamOutput<T>,
}

#[block]
impl<T: Item> NullSource<T> {
    /// A source of zeros.
    pub fn new() -> Self {
        Self {
            output: StreamOutput::new(),
        }
    }

    /// Writes vectors of `vlen` scalars (at least 1).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.output.set_vlen(vlen);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let n = out.len();
        bytemuck::cast_slice_mut::<T, u8>(out).fill(0);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

impl<T: Item> Default for NullSource<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn fills_the_space_it_is_offered_with_zeros() {
        let mut h = Harness::new(NullSource::<Complex32>::new());
        h.set_space("out", 5);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        assert_eq!(h.take_output::<Complex32>("out"), [Complex32::default(); 5]);
        h.set_space("out", 1000);
        h.work().unwrap();
        assert_eq!(
            h.take_output::<Complex32>("out"),
            [Complex32::default(); 1000]
        );
        assert_eq!(h.produced("out"), 1005);
    }
}
