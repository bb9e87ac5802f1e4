//! [`FramedBlock`]: a sequence as one block of a streaming flowgraph.

use crate::io::{Out, Status};
use crate::sequence::Sequence;
use radioflow_runtime::{block, BlockError, Item, Ports, StreamInput, StreamOutput, WorkStatus};

/// Runs a [`Sequence`] on a stream: every `frame_in` items of the input fill the
/// [`TaskGraph::external`](crate::TaskGraph::external) socket `source`, the sequence runs once, and the
/// `frame_out` items of output socket `result` are written to the output. A frame a task
/// aborts produces nothing. Items left over at the end of the stream (less than a frame) are
/// dropped.
///
/// # Stream inputs
/// - `in`: `T`.
///
/// # Stream outputs
/// - `out`: `U`.
///
/// # Message ports
/// None.
///
/// # Parameters
/// - `seq`, `source`, `result`: the sequence and its two ends.
///
/// # Example
/// ```
/// use radioflow_framed::{FramedBlock, TaskGraph, Sequence, Status};
/// use radioflow_runtime::Flowgraph;
/// use radioflow_runtime::testing::{Counter, Sink};
///
/// // Frames of 4 u32 -> their sum.
/// let mut g = TaskGraph::new();
/// let src = g.external::<u32>("stream", 4);
/// let sum = g.stateless("sum");
/// let (i, o) = (g.input::<u32>(sum, "in", 4), g.output::<u32>(sum, "out", 1));
/// g.codelet(sum, move |_, io| { io.output(o)[0] = io.input(i).iter().sum(); Status::Continue });
/// g.bind(i, src)?;
/// let block = FramedBlock::new(Sequence::new(g)?, src, o);
///
/// let mut fg = Flowgraph::new();
/// let c = fg.add(Counter::new(8)); // 0..8
/// let b = fg.add(block);
/// let s = fg.add(Sink::new());
/// fg.connect(c, b)?;
/// fg.connect(b, s)?;
/// fg.run()?;
/// assert_eq!(fg.block::<Sink>(s).unwrap().items, [6, 22]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Ports)]
pub struct FramedBlock<T: Item, U: Item> {
    seq: Sequence,
    source: Out<T>,
    result: Out<U>,
    #[input(name = "in")]
    input: StreamInput<T>,
    #[output(name = "out")]
    output: StreamOutput<U>,
}

#[block(type_name = "framed")]
impl<T: Item, U: Item> FramedBlock<T, U> {
    /// A block running `seq`, fed through `source`, emitting `result`.
    /// The block needs a whole input frame to run the sequence and a whole output frame of
    /// room to write its result; it declares both, so the runtime sizes its buffers for them
    /// (a 64,800-symbol frame included) under every scheduler.
    pub fn new(seq: Sequence, source: Out<T>, result: Out<U>) -> Self {
        FramedBlock {
            input: StreamInput::new().with_min_items(source.len()),
            output: StreamOutput::new().with_min_items(result.len()),
            seq,
            source,
            result,
        }
    }

    /// The sequence (for its profile after a run).
    pub fn sequence(&self) -> &Sequence {
        &self.seq
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (n_in, n_out) = (self.source.len(), self.result.len());
        let Self {
            seq,
            source,
            result,
            input,
            output,
        } = self;
        let i = input.slice();
        let o = output.slice();
        let (mut used, mut made) = (0, 0);
        while i.len() - used >= n_in && o.len() - made >= n_out {
            seq.write(*source).copy_from_slice(&i[used..used + n_in]);
            used += n_in;
            if seq.exec_once().map_err(BlockError::from)? == Status::Continue {
                o[made..made + n_out].copy_from_slice(seq.read(*result));
                made += n_out;
            }
        }
        input.consume(used);
        output.produce(made);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TaskGraph;
    use radioflow_runtime::testing::Harness;
    use radioflow_runtime::Block;

    /// Frames of 4 `u32` -> their sum.
    fn summer() -> FramedBlock<u32, u32> {
        let mut g = TaskGraph::new();
        let src = g.external::<u32>("stream", 4);
        let sum = g.stateless("sum");
        let (i, o) = (g.input::<u32>(sum, "in", 4), g.output::<u32>(sum, "out", 1));
        g.codelet(sum, move |_, io| {
            io.output(o)[0] = io.input(i).iter().sum();
            Status::Continue
        });
        g.bind(i, src).unwrap();
        FramedBlock::new(Sequence::new(g).unwrap(), src, o)
    }

    #[test]
    fn runs_whole_frames_only_as_far_as_the_output_allows() {
        let mut h = Harness::new(summer());
        assert_eq!(h.block().type_name(), "framed");
        h.push("in", &[1u32, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
        h.set_space("out", 2);
        h.work().unwrap();
        assert_eq!((h.consumed("in"), h.produced("out")), (8, 2));
        assert_eq!(h.take_output::<u32>("out"), [10, 26]);
        h.set_space("out", 10);
        h.work().unwrap();
        assert_eq!(h.consumed("in"), 12, "two items wait for their frame");
        assert_eq!(h.take_output::<u32>("out"), [42]);
        h.push("in", &[15u32, 16]);
        h.work().unwrap();
        assert_eq!(h.take_output::<u32>("out"), [58]);
    }
}
