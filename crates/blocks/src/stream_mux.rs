//! [`StreamMux`]: streams taken in turn, a given number of items from each.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Takes `lengths[0]` items from input 0, then `lengths[1]` from input 1, and so on, then
/// input 0 again, into one output stream, like GNU Radio's `stream_mux`; an input of length 0
/// is skipped. Tags go with their items. It waits on the input whose turn it is, and ends
/// when that input ends.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamMux, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1u8, 2, 3, 4]));
/// let b = fg.add(VectorSource::new(vec![10u8, 20]));
/// let mux = fg.add(StreamMux::<u8>::new(&[2, 1]).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(a, (mux, 0))?;
/// fg.connect(b, (mux, 1))?;
/// fg.connect(mux, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 2, 10, 3, 4, 20]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "stream_mux",
    summary = "Streams taken in turn, `lengths[i]` items from input i (ports in0..).",
    dtypes = all,
    make = Self::new(&counts(&lengths)?).map_err(|e| Refused::param("lengths", e))
)]
#[param(lengths: Vec<Pmt>, doc = "items per turn of each input, one per input")]
#[derive(Debug)]
pub struct StreamMux<T: Item> {
    /// The streams, one per length.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    /// The items of every input in turn, with their tags.
    #[output(name = "out")]
    output: StreamOutput<T>,
    lengths: Vec<usize>,
    /// The input whose turn it is, and how many of its items the turn still takes.
    turn: usize,
    left: usize,
}

/// A list of counts given as numbers (GNU Radio's `int_vector`).
///
/// # Errors
/// If an element is not a whole number from 0, naming `lengths`.
pub(crate) fn counts(values: &[Pmt]) -> Result<Vec<usize>, Refused> {
    values
        .iter()
        .map(|v| {
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| Refused::param("lengths", format!("{v} is not a count of items")))
        })
        .collect()
}

/// The first turn at or after `from` whose length is not 0 (`lengths` has one).
pub(crate) fn next_turn(lengths: &[usize], from: usize) -> usize {
    (0..lengths.len())
        .map(|k| (from + k) % lengths.len())
        .find(|&i| lengths[i] > 0)
        .expect("a length above 0, checked when made")
}

/// `lengths` checked: at least one, not all 0.
pub(crate) fn check_lengths(lengths: &[usize]) -> Result<(), String> {
    if lengths.iter().all(|&n| n == 0) {
        return Err(format!(
            "{lengths:?} takes no item from any stream: give at least one length, not all 0"
        ));
    }
    Ok(())
}

#[block]
impl<T: Item> StreamMux<T> {
    /// One input per length, `lengths[i]` items per turn from input `i`.
    ///
    /// # Errors
    /// If `lengths` is empty or all 0.
    pub fn new(lengths: &[usize]) -> Result<Self, String> {
        check_lengths(lengths)?;
        let turn = next_turn(lengths, 0);
        Ok(Self {
            inputs: lengths.iter().map(|_| StreamInput::new()).collect(),
            output: StreamOutput::new(),
            lengths: lengths.to_vec(),
            turn,
            left: lengths[turn],
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            let input = &mut self.inputs[self.turn];
            let n = copy_work(input, &mut self.output, self.left);
            if n == 0 {
                return Ok(WorkStatus::Continue);
            }
            self.left -= n;
            if self.left == 0 {
                self.turn = next_turn(&self.lengths, self.turn + 1);
                self.left = self.lengths[self.turn];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn turns_go_on_across_calls_skip_zero_lengths_and_keep_tags_on_their_items() {
        let mut h = Harness::new(StreamMux::<i16>::new(&[2, 0, 3]).unwrap());
        h.push_tag("in2", 1, "b", 0i64);
        h.push("in0", &[1i16, 2, 3]);
        h.push("in2", &[-1i16, -2]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<i16>("out");
        assert_eq!(items, [1, 2, -1, -2]);
        assert_eq!(tags, [Tag::new(3, "b", 0i64)]);
        h.push("in2", &[-3i16, -4]);
        h.set_space("out", 2);
        h.work().unwrap();
        assert_eq!(h.take_output::<i16>("out"), [-3, 3]);
        assert_eq!(h.consumed("in2"), 3);
    }

    #[test]
    fn lengths_all_zero_or_not_counts_are_refused() {
        assert!(StreamMux::<u8>::new(&[0, 0]).is_err());
        assert!(StreamMux::<u8>::new(&[]).is_err());
        assert!(counts(&[Pmt::Int(1), Pmt::Double(1.5)]).is_err());
        assert!(counts(&[Pmt::Int(-1)]).is_err());
    }
}
