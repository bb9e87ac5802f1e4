//! [`KeepOneInN`]: the last item of every `n`.

use crate::tag_map::move_tags;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Keeps the last item of every group of `n` and drops the others, like GNU Radio's
/// `keep_one_in_n`; the tags of a group's items go to the item kept from it (GNU Radio's
/// `⌊offset / n⌋`), those of a group the stream ends in are lost with it. A new `n` (the `n`
/// message input, GNU Radio's `set_n`) starts a new group at the next input item.
///
/// # Example
/// ```
/// use radioflow_blocks::{KeepOneInN, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4, 5, 6, 7]));
/// let keep = fg.add(KeepOneInN::<u8>::new(3).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, keep)?;
/// fg.connect(keep, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[3, 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "keep_one_in_n",
    summary = "The last item of every `n`.",
    dtypes = all,
    make = Self::new(n).map_err(|e| Refused::param("n", e))
)]
#[param(n: usize, min = 1, settable, doc = "the group size")]
#[derive(Debug)]
pub struct KeepOneInN<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The last item of each group, with the group's tags.
    #[output(name = "out")]
    output: StreamOutput<T>,
    n: usize,
    /// Items of the current group still to read, the last of them kept.
    left: usize,
}

#[block]
impl<T: Item> KeepOneInN<T> {
    /// Keeps one item in `n`.
    ///
    /// # Errors
    /// If `n` is 0.
    pub fn new(n: usize) -> Result<Self, String> {
        if n == 0 {
            return Err("groups of 0 items keep nothing: n must be at least 1".into());
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            n,
            left: n,
        })
    }

    /// The group size from the next input item on, which starts a group (GNU Radio's
    /// `set_n`); 0 is ignored.
    pub fn set_n(&mut self, n: usize) {
        if n > 0 {
            self.n = n;
            self.left = n;
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let x = self.input.slice();
        let y = self.output.slice();
        let (mut read, mut written) = (0, 0);
        // Whole groups while the output has room, then what the input has of the next one
        // (its item is kept once the output has room).
        while written < y.len() && x.len() - read >= self.left {
            read += self.left;
            y[written] = x[read - 1];
            written += 1;
            self.left = self.n;
        }
        if written < y.len() && read < x.len() {
            self.left -= x.len() - read;
            read = x.len();
        }
        let (from, to, n, left) = (self.input.offset(), self.output.offset(), self.n, self.left);
        // The output item each input item's group makes: one per full group read, counted
        // back from the end of what was read.
        let end = from + read as u64;
        let partial = (n - left) as u64;
        move_tags(&self.input, &mut self.output, 0..read, |o| {
            if o >= end - partial {
                to + written as u64
            } else {
                to + written as u64 - 1 - (end - partial - 1 - o) / n as u64
            }
        });
        self.input.consume(read);
        self.output.produce(written);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn keeps_the_last_of_each_group_across_calls_with_the_group_s_tags() {
        let mut h = Harness::new(KeepOneInN::<u16>::new(3).unwrap());
        h.push_tag("in", 1, "a", 1i64);
        h.push_tag("in", 4, "b", 4i64);
        h.push_tag("in", 7, "c", 7i64);
        h.push("in", &[1u16, 2, 3, 4, 5]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<u16>("out");
        assert_eq!(items, [3]);
        // "b" waits on the next group's item.
        assert_eq!(tags, [Tag::new(0, "a", 1i64)]);
        h.push("in", &[6u16, 7, 8, 9]);
        h.set_space("out", 1);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<u16>("out");
        assert_eq!(items, [6]);
        assert_eq!(tags, [Tag::new(1, "b", 4i64)]);
        assert_eq!(h.consumed("in"), 6, "the next group waits for room");
        h.set_space("out", 10);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<u16>("out");
        assert_eq!(items, [9]);
        assert_eq!(tags, [Tag::new(2, "c", 7i64)]);
    }

    #[test]
    fn a_new_n_starts_a_group() {
        let mut h = Harness::new(KeepOneInN::<u8>::new(4).unwrap());
        h.push("in", &[1u8, 2]);
        h.work().unwrap();
        h.post("n", 2u64).unwrap();
        h.push("in", &[3u8, 4, 5, 6]);
        h.work().unwrap();
        assert_eq!(h.take_output::<u8>("out"), [4, 6]);
        assert!(KeepOneInN::<u8>::new(0).is_err());
    }
}
