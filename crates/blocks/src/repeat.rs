//! [`Repeat`]: each item repeated `interp` times.

use crate::tag_map::move_tags;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Writes each input item `interp` times, like GNU Radio's `repeat`; a tag on an input item
/// goes to its first copy (GNU Radio's `offset · interp`). A new `interp` (the `interp`
/// message input, GNU Radio's `set_interpolation`) applies from the next input item on.
///
/// # Example
/// ```
/// use radioflow_blocks::{Repeat, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1i32, 2]));
/// let repeat = fg.add(Repeat::<i32>::new(3).unwrap());
/// let sink = fg.add(VectorSink::<i32>::new());
/// fg.connect(src, repeat)?;
/// fg.connect(repeat, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<i32>>(sink).unwrap().data(), &[1, 1, 1, 2, 2, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "repeat",
    summary = "Each item repeated `interp` times.",
    dtypes = all,
    make = Self::new(interp).map_err(|e| Refused::param("interp", e))
)]
#[param(interp: usize, min = 1, settable, doc = "copies of each item")]
#[derive(Debug)]
pub struct Repeat<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Each item `interp` times; the tags on the first copies.
    #[output(name = "out")]
    output: StreamOutput<T>,
    /// Copies of the item being written.
    interp: usize,
    /// Copies of each item after it.
    next_interp: usize,
    /// Copies of the first readable item already written.
    written: usize,
}

#[block]
impl<T: Item> Repeat<T> {
    /// Repeats each item `interp` times.
    ///
    /// # Errors
    /// If `interp` is 0.
    pub fn new(interp: usize) -> Result<Self, String> {
        if interp == 0 {
            return Err("0 copies: each item needs at least one".into());
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            interp,
            next_interp: interp,
            written: 0,
        })
    }

    /// Copies of each item from the next input item on (GNU Radio's `set_interpolation`);
    /// 0 is ignored.
    pub fn set_interp(&mut self, interp: usize) {
        if interp > 0 {
            self.next_interp = interp;
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (before, next) = (self.written, self.next_interp);
        // An item partly written keeps its count; the others take the latest.
        let mut interp = if before > 0 { self.interp } else { next };
        let lead = if before > 0 { interp - before } else { 0 };
        let (mut read, mut written, mut copies) = (0, 0, before);
        let x = self.input.slice();
        let y = self.output.slice();
        while read < x.len() && written < y.len() {
            let n = (interp - copies).min(y.len() - written);
            y[written..written + n].fill(x[read]);
            written += n;
            copies += n;
            if copies == interp {
                copies = 0;
                read += 1;
                interp = next;
            }
        }
        // The items whose first copy was written in this call: `first..started`, the first
        // of them at the output's start (or after the rest of a partly written item).
        let first = usize::from(before > 0);
        let started = read + usize::from(copies > 0);
        if started > first {
            let (from, to) = (self.input.offset(), self.output.offset());
            move_tags(&self.input, &mut self.output, first..started, |o| {
                to + (lead + ((o - from) as usize - first) * next) as u64
            });
        }
        self.input.consume(read);
        self.output.produce(written);
        (self.written, self.interp) = (copies, interp);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn copies_cut_by_the_output_space_go_on_in_the_next_call_with_tags_on_first_copies() {
        let mut h = Harness::new(Repeat::<u8>::new(3).unwrap());
        h.push_tag("in", 0, "a", 0i64);
        h.push_tag("in", 1, "b", 1i64);
        h.push_tag("in", 2, "c", 2i64);
        h.push("in", &[7u8, 8, 9]);
        h.set_space("out", 4);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<u8>("out");
        assert_eq!(items, [7, 7, 7, 8]);
        assert_eq!(tags, [Tag::new(0, "a", 0i64), Tag::new(3, "b", 1i64)]);
        assert_eq!(h.consumed("in"), 1);
        h.set_space("out", 100);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<u8>("out");
        assert_eq!(items, [8, 8, 9, 9, 9]);
        assert_eq!(tags, [Tag::new(6, "c", 2i64)]);
    }

    #[test]
    fn a_new_count_applies_from_the_next_item_and_zero_is_refused() {
        let mut h = Harness::new(Repeat::<u8>::new(2).unwrap());
        h.push("in", &[1u8]);
        h.work().unwrap();
        h.post("interp", 1u64).unwrap();
        h.push("in", &[2u8, 3]);
        h.work().unwrap();
        assert_eq!(h.take_output::<u8>("out"), [1, 1, 2, 3]);
        // Changed in the middle of an item: that item keeps its count.
        h.post("interp", 4u64).unwrap();
        h.push("in", &[4u8, 5]);
        h.set_space("out", 2);
        h.work().unwrap();
        h.post("interp", 1u64).unwrap();
        h.set_space("out", 100);
        h.work().unwrap();
        assert_eq!(h.take_output::<u8>("out"), [4, 4, 4, 4, 5]);
        assert!(Repeat::<u8>::new(0).is_err());
    }
}
