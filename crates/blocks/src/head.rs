//! [`Head`]: passes the first `n` items, then ends the stream.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Copies the first `n` items of its input to its output (with their tags), then finishes,
/// like GNU Radio's `head`. `n` can be set while the graph runs: as GNU Radio's `set_length`,
/// it counts the items already passed, so a new `n` at or below that count ends the stream at
/// the next work call. Finishing releases its input, so a source that feeds only this
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
#[param(n: u64, settable, doc = "how many items to pass (vectors where vlen > 1); set while running: counted from the first item, as GNU Radio's set_length")]
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
    /// Items passed so far.
    passed: u64,
}

#[block]
impl<T: Item> Head<T> {
    /// Passes `n` items.
    pub fn new(n: u64) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            remaining: n,
            passed: 0,
        }
    }

    /// Passes vectors of `vlen` scalars (at least 1): `n` counts vectors.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self
    }

    /// Passes `n` items in all, counting those already passed (GNU Radio's `set_length`).
    pub fn set_n(&mut self, n: u64) {
        self.remaining = n.saturating_sub(self.passed);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let vlen = self.input.vlen();
        let scalars = self.remaining.saturating_mul(vlen as u64);
        let limit = usize::try_from(scalars).unwrap_or(usize::MAX);
        let n = copy_work(&mut self.input, &mut self.output, limit);
        let items = if vlen > 1 { n / vlen } else { n } as u64;
        self.remaining -= items;
        self.passed += items;
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

    #[test]
    fn a_new_n_counts_the_items_already_passed_as_gnu_radio_s_set_length() {
        let mut h = Harness::new(Head::<u16>::new(5));
        h.push("in", &(0..20u16).collect::<Vec<_>>());
        h.set_space("out", 3);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        // Through the message input, as a running graph gets it: 8 in all, 3 passed.
        h.post("n", Pmt::Int(8)).unwrap();
        h.set_space("out", 100);
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.take_output::<u16>("out"), (0..8).collect::<Vec<_>>());
        // Set below what has passed: nothing more, done at the next call.
        let mut h = Harness::new(Head::<u16>::new(5));
        h.push("in", &(0..20u16).collect::<Vec<_>>());
        h.set_space("out", 4);
        assert_eq!(h.work().unwrap(), WorkStatus::Continue);
        h.post("n", Pmt::Int(2)).unwrap();
        h.set_space("out", 100);
        assert_eq!(h.work().unwrap(), WorkStatus::Done);
        assert_eq!(h.take_output::<u16>("out"), [0, 1, 2, 3]);
    }
}
