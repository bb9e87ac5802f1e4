//! [`Copy`]: copies its input to its output.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Copies input items to the output unchanged, with their tags, like GNU Radio's `copy`.
/// A plain memory copy per call and nothing else: no allocation, no per-item work. Disabled
/// (`enabled` false, settable while running), it consumes its input and writes nothing, as
/// GNU Radio's does.
///
/// # Example
/// ```
/// use radioflow_blocks::{Copy, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u32, 2, 3]));
/// let copy = fg.add(Copy::<u32>::new());
/// let sink = fg.add(VectorSink::<u32>::new());
/// fg.connect(src, copy)?;
/// fg.connect(copy, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u32>>(sink).unwrap().data(), &[1, 2, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "copy",
    summary = "Passes items (and tags) through unchanged.",
    dtypes = all,
    make = Self::with_enabled(enabled).with_vlen(vlen)
)]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[param(enabled: bool = true, settable, doc = "pass the items (false: drop them)")]
#[derive(Debug)]
pub struct Copy<T: Item> {
    /// The items to pass.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The same items.
    #[output(name = "out")]
    output: StreamOutput<T>,
    enabled: bool,
}

#[block]
impl<T: Item> Copy<T> {
    /// A copy block.
    pub fn new() -> Self {
        Self::with_enabled(true)
    }

    /// A copy block passing items, or (`enabled` false) dropping them.
    pub fn with_enabled(enabled: bool) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            enabled,
        }
    }

    /// Passes vectors of `vlen` scalars (at least 1).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self
    }

    /// Passes items (true) or drops them (false) from the next work call on (GNU Radio's
    /// `set_enabled`).
    pub fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.enabled {
            copy_work(&mut self.input, &mut self.output, usize::MAX);
        } else {
            let n = self.input.slice().len();
            self.input.consume(n);
        }
        Ok(WorkStatus::Continue)
    }
}

impl<T: Item> Default for Copy<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn copies_what_the_output_has_room_for_with_the_tags() {
        let mut h = Harness::new(Copy::<u32>::new());
        h.push_tag("in", 3, "burst", 7i64);
        h.push("in", &[10u32, 11, 12, 13, 14]);
        h.set_space("out", 2);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        assert_eq!((h.consumed("in"), h.produced("out")), (2, 2));
        assert_eq!(h.take_output::<u32>("out"), [10, 11]);
        assert!(h.output_tags("out").is_empty());
        h.set_space("out", 100);
        h.work().unwrap();
        assert_eq!((h.consumed("in"), h.produced("out")), (5, 5));
        let tags = h.output_tags("out");
        assert_eq!(tags, [Tag::new(3, "burst", 7i64)]);
        assert_eq!(h.take_output::<u32>("out"), [12, 13, 14]);
    }

    #[test]
    fn disabled_it_consumes_and_writes_nothing_until_enabled() {
        let mut h = Harness::new(Copy::<u32>::with_enabled(false));
        h.push("in", &[1u32, 2, 3]);
        h.work().unwrap();
        assert_eq!((h.consumed("in"), h.produced("out")), (3, 0));
        h.post("enabled", true).unwrap();
        h.push("in", &[4u32]);
        h.work().unwrap();
        assert_eq!(h.take_output::<u32>("out"), [4]);
    }
}
