//! [`Head`]: passes the first `n` items, then ends the stream.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Copies the first `n` items of its input to its output (with their tags), then finishes,
/// like GNU Radio's `head`. Finishing releases its input, so a source that feeds only this
/// block finishes too.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, NullSink, NullSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(NullSource::<u8>::new());
/// let head = fg.add(Head::<u8>::new(1_000_000));
/// let sink = fg.add(NullSink::<u8>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<NullSink<u8>>(sink).unwrap().items(), 1_000_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "head",
    summary = "Passes the first `n` items, then ends the stream.",
    dtypes = all,
    make = Self::new(n).with_vlen(vlen)
)]
#[param(n: u64, doc = "how many items to pass (vectors where vlen > 1)")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct Head<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The first `n` input items.
    #[output(name = "out")]
    output: StreamOutput<T>,
    /// Items still to pass.
    remaining: u64,
}

#[block]
impl<T: Item> Head<T> {
    /// Passes `n` items.
    pub fn new(n: u64) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            remaining: n,
        }
    }

    /// Passes vectors of `vlen` scalars (at least 1): `n` counts vectors.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let vlen = self.input.vlen();
        let scalars = self.remaining.saturating_mul(vlen as u64);
        let limit = usize::try_from(scalars).unwrap_or(usize::MAX);
        let n = copy_work(&mut self.input, &mut self.output, limit);
        self.remaining -= if vlen > 1 { n / vlen } else { n } as u64;
        Ok(if self.remaining == 0 {
            WorkStatus::Done
        } else {
            WorkStatus::Continue
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn passes_n_items_across_calls_then_is_done() {
        let mut h = Harness::new(Head::<u16>::new(5));
        h.push_tag("in", 1, "early", 1i64);
        h.push_tag("in", 6, "late", 6i64);
        h.push("in", &[0u16, 1, 2, 3, 4, 5, 6, 7]);
        h.set_space("out", 3);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        assert_eq!(h.output_tags("out"), [Tag::new(1, "early", 1i64)]);
        assert_eq!(h.take_output::<u16>("out"), [0, 1, 2]);
        h.set_space("out", 100);
        assert_eq!(h.work().unwrap(), WorkStatus::Done, "the fifth item passed");
        assert_eq!((h.consumed("in"), h.produced("out")), (5, 5));
        assert!(h.output_tags("out").is_empty(), "item 6 and its tag stay");
        assert_eq!(h.take_output::<u16>("out"), [3, 4]);
    }

    #[test]
    fn a_head_of_zero_passes_nothing() {
        let mut h = Harness::new(Head::<u8>::new(0));
        h.push("in", &[1u8, 2]);
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!((h.consumed("in"), h.produced("out")), (0, 0));
    }
}
