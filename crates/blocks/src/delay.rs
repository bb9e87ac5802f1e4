//! [`Delay`]: streams delayed by a number of items that can change while they flow.

use crate::tag_map::move_tags;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Delays each of its `ports` streams by `dly` items, like GNU Radio's `delay`: the output
/// starts with `dly` zeros, then the input items follow with their tags (a tag on input item
/// `i` is on output item `i + dly`; with several ports every output carries the tags of every
/// input, as GNU Radio's scheduler propagates them). A new delay (the `dly` message input, GNU Radio's
/// `set_dly`) takes effect where the streams are: a longer one inserts that many zeros, a
/// shorter one drops that many input items (and their tags). All ports move together, so a
/// change falls on the same item of every stream.
///
/// # Example
/// ```
/// use radioflow_blocks::{Delay, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
/// let delay = fg.add(Delay::<f32>::new(2, 1));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, delay)?;
/// fg.connect(delay, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[0.0, 0.0, 1.0, 2.0, 3.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "delay",
    summary = "Streams delayed by `dly` items (zeros first); the delay can change while they flow.",
    dtypes = all,
    make = Self::new(dly, ports)
)]
#[param(dly: usize, settable, doc = "the delay in items")]
#[param(ports: usize = 1, min = 1, doc = "how many streams (ports in0.., out0..), each delayed alike")]
#[derive(Debug)]
pub struct Delay<T: Item> {
    /// The streams.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    /// The same streams, delayed; the tags with their items.
    #[output(name = "out")]
    outputs: Vec<StreamOutput<T>>,
    dly: usize,
    /// Zeros still to write (positive) or input items still to drop (negative) before the
    /// streams run at the delay `dly`.
    pending: i64,
}

#[block]
impl<T: Item> Delay<T> {
    /// `ports` streams, each delayed by `dly` items.
    ///
    /// # Panics
    /// If `ports` is 0.
    pub fn new(dly: usize, ports: usize) -> Self {
        assert!(ports > 0, "Delay needs at least one port");
        Self {
            inputs: (0..ports).map(|_| StreamInput::new()).collect(),
            outputs: (0..ports).map(|_| StreamOutput::new()).collect(),
            dly,
            pending: dly as i64,
        }
    }

    /// The delay from the next work call on (GNU Radio's `set_dly`): zeros are inserted or
    /// input items dropped where the streams are, by the difference.
    pub fn set_dly(&mut self, dly: usize) {
        self.pending += dly as i64 - self.dly as i64;
        self.dly = dly;
    }

    /// The delay.
    pub fn dly(&self) -> usize {
        self.dly
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.pending > 0 {
            let space = self.outputs.iter_mut().map(|o| o.slice().len()).min();
            let n = space.unwrap_or(0).min(self.pending as usize);
            for o in &mut self.outputs {
                o.slice()[..n].fill(T::zeroed());
                o.produce(n);
            }
            self.pending -= n as i64;
        }
        if self.pending < 0 {
            let readable = self.inputs.iter().map(|i| i.slice().len()).min();
            let n = readable
                .unwrap_or(0)
                .min(self.pending.unsigned_abs() as usize);
            for i in &mut self.inputs {
                i.consume(n);
            }
            self.pending += n as i64;
        }
        if self.pending == 0 {
            let readable = self.inputs.iter().map(|i| i.slice().len()).min();
            let space = self.outputs.iter_mut().map(|o| o.slice().len()).min();
            let n = readable.unwrap_or(0).min(space.unwrap_or(0));
            // Every input's tags on every output, in input order, as GNU Radio's scheduler
            // propagates them; all streams are in step, so an item's offset moves by the same
            // amount on every output.
            for o in &mut self.outputs {
                for i in &self.inputs {
                    let shift = (i.offset(), o.offset());
                    move_tags(i, o, 0..n, |x| x - shift.0 + shift.1);
                }
            }
            for (i, o) in self.inputs.iter_mut().zip(&mut self.outputs) {
                o.slice()[..n].copy_from_slice(&i.slice()[..n]);
                i.consume(n);
                o.produce(n);
            }
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn zeros_first_then_the_items_with_their_tags_shifted() {
        let mut h = Harness::new(Delay::<i16>::new(2, 1));
        h.push_tag("in0", 1, "t", 1i64);
        h.push("in0", &[5i16, 6, 7]);
        h.set_space("out0", 3);
        h.work().unwrap();
        assert_eq!(h.take_output::<i16>("out0"), [0, 0, 5]);
        h.set_space("out0", 100);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<i16>("out0");
        assert_eq!(items, [6, 7]);
        assert_eq!(tags, [Tag::new(3, "t", 1i64)]);
    }

    #[test]
    fn a_longer_delay_inserts_zeros_a_shorter_one_drops_items() {
        let mut h = Harness::new(Delay::<u8>::new(0, 2));
        h.push("in0", &[1u8, 2]);
        h.push("in1", &[11u8, 12, 13]);
        h.work().unwrap();
        assert_eq!(h.take_output::<u8>("out0"), [1, 2]);
        assert_eq!(h.take_output::<u8>("out1"), [11, 12]);
        h.post("dly", 3u64).unwrap();
        h.push("in0", &[3u8, 4, 5, 6]);
        h.work().unwrap();
        // In step: in1 holds one item.
        assert_eq!(h.take_output::<u8>("out0"), [0, 0, 0, 3]);
        assert_eq!(h.take_output::<u8>("out1"), [0, 0, 0, 13]);
        h.block_mut().set_dly(1);
        h.push_tag("in1", 3, "dropped", 0i64);
        h.push_tag("in1", 5, "kept", 0i64);
        h.push("in0", &[7u8, 8, 9]);
        h.push("in1", &[14u8, 15, 16, 17, 18]);
        h.work().unwrap();
        assert_eq!(h.take_output::<u8>("out0"), [6, 7, 8]);
        let (items, tags) = h.take_output_with_tags::<u8>("out1");
        assert_eq!(items, [16, 17, 18]);
        assert_eq!(tags, [Tag::new(6, "kept", 0i64)]);
    }
}
