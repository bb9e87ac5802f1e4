//! [`Skiphead`]: drops the first `n` items.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Drops the first `n` items of its input (and their tags), then passes the rest with their
/// tags, like GNU Radio's `skiphead`.
///
/// # Example
/// ```
/// use radioflow_blocks::{Skiphead, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4]));
/// let skip = fg.add(Skiphead::<u8>::new(3));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, skip)?;
/// fg.connect(skip, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "skiphead",
    summary = "Drops the first `n` items, then passes the rest.",
    dtypes = all
)]
#[param(n: u64, doc = "how many items to drop")]
#[derive(Debug)]
pub struct Skiphead<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The items after the first `n`, with their tags.
    #[output(name = "out")]
    output: StreamOutput<T>,
    /// Items still to drop.
    skip: u64,
}

#[block]
impl<T: Item> Skiphead<T> {
    /// Drops `n` items.
    pub fn new(n: u64) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            skip: n,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.skip > 0 {
            let n = (self.input.slice().len() as u64).min(self.skip);
            self.input.consume(n as usize);
            self.skip -= n;
        }
        if self.skip == 0 {
            copy_work(&mut self.input, &mut self.output, usize::MAX);
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn drops_across_calls_then_passes_with_tags() {
        let mut h = Harness::new(Skiphead::<i32>::new(3));
        h.push_tag("in", 1, "dropped", 0i64);
        h.push_tag("in", 4, "kept", 0i64);
        h.push("in", &[1i32, 2]);
        h.work().unwrap();
        assert_eq!(h.produced("out"), 0);
        h.push("in", &[3i32, 4, 5]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<i32>("out");
        assert_eq!(items, [4, 5]);
        assert_eq!(tags, [Tag::new(1, "kept", 0i64)]);
    }
}
