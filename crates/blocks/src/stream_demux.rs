//! [`StreamDemux`]: one stream dealt out in turn, a given number of items to each output.

use crate::stream_mux::{check_lengths, counts, next_turn};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Writes `lengths[0]` items to output 0, then `lengths[1]` to output 1, and so on, then
/// output 0 again, like GNU Radio's `stream_demux`; an output of length 0 is skipped. Tags go
/// with their items. It waits while the output whose turn it is has no room.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamDemux, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4, 5, 6]));
/// let demux = fg.add(StreamDemux::<u8>::new(&[2, 1]).unwrap());
/// let a = fg.add(VectorSink::<u8>::new());
/// let b = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, demux)?;
/// fg.connect((demux, 0), a)?;
/// fg.connect((demux, 1), b)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(a).unwrap().data(), &[1, 2, 4, 5]);
/// assert_eq!(fg.block::<VectorSink<u8>>(b).unwrap().data(), &[3, 6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "stream_demux",
    summary = "One stream dealt out in turn, `lengths[i]` items to output i (ports out0..).",
    dtypes = all,
    make = Self::new(&counts(&lengths)?).map_err(|e| Refused::param("lengths", e))
)]
#[param(lengths: Vec<Pmt>, doc = "items per turn of each output, one per output")]
#[derive(Debug)]
pub struct StreamDemux<T: Item> {
    /// The stream.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The outputs, one per length, each with the tags of its items.
    #[output(name = "out")]
    outputs: Vec<StreamOutput<T>>,
    lengths: Vec<usize>,
    /// The output whose turn it is, and how many items the turn still gives it.
    turn: usize,
    left: usize,
}

#[block]
impl<T: Item> StreamDemux<T> {
    /// One output per length, `lengths[i]` items per turn to output `i`.
    ///
    /// # Errors
    /// If `lengths` is empty or all 0.
    pub fn new(lengths: &[usize]) -> Result<Self, String> {
        check_lengths(lengths)?;
        let turn = next_turn(lengths, 0);
        Ok(Self {
            input: StreamInput::new(),
            outputs: lengths.iter().map(|_| StreamOutput::new()).collect(),
            lengths: lengths.to_vec(),
            turn,
            left: lengths[turn],
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            let output = &mut self.outputs[self.turn];
            let n = copy_work(&mut self.input, output, self.left);
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
    fn deals_in_turn_across_calls_with_tags_on_their_items() {
        let mut h = Harness::new(StreamDemux::<f32>::new(&[1, 2]).unwrap());
        h.push_tag("in", 2, "t", 0i64);
        h.push("in", &[1.0f32, 2.0, 3.0, 4.0]);
        h.set_space("out1", 1);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out0"), [1.0]);
        assert_eq!(h.take_output::<f32>("out1"), [2.0]);
        h.set_space("out1", 10);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out0"), [4.0]);
        let (items, tags) = h.take_output_with_tags::<f32>("out1");
        assert_eq!(items, [3.0]);
        assert_eq!(tags, [Tag::new(1, "t", 0i64)]);
    }
}
