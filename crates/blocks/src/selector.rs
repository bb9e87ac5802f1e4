//! [`Selector`]: one of several streams to one of several outputs.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Copies input `input_index` to output `output_index` with its tags, like GNU Radio's
/// `selector`; the other inputs are read and dropped at the same pace (so it moves as fast
/// as its slowest input and ends with the first to end), the other outputs get nothing.
/// Disabled (`enabled` false) it drops every input. The indexes and `enabled` are settable
/// while it runs (GNU Radio's `set_input_index`, `set_output_index`, `set_enabled`); an
/// index out of range is ignored with a warning.
///
/// # Example
/// ```
/// use radioflow_blocks::{Selector, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1u8, 2, 3]));
/// let b = fg.add(VectorSource::new(vec![10u8, 20, 30]));
/// let sel = fg.add(Selector::<u8>::new(2, 1, 1, 0, true).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(a, (sel, 0))?;
/// fg.connect(b, (sel, 1))?;
/// fg.connect(sel, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[10, 20, 30]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "selector",
    summary = "Input `input_index` to output `output_index` (ports in0.., out0..), the other inputs dropped.",
    dtypes = all,
    make = Self::new(inputs, outputs, input_index, output_index, enabled)
        .map_err(|(name, e)| Refused::param(name, e))
)]
#[param(inputs: usize = 2, min = 1, doc = "how many inputs")]
#[param(outputs: usize = 2, min = 1, doc = "how many outputs")]
#[param(input_index: usize = 0, settable, doc = "the input passed on")]
#[param(output_index: usize = 0, settable, doc = "the output it goes to")]
#[param(enabled: bool = true, settable, doc = "pass the items (false: drop every input)")]
#[derive(Debug)]
pub struct Selector<T: Item> {
    /// The streams.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    /// The chosen stream on the chosen output.
    #[output(name = "out")]
    outputs: Vec<StreamOutput<T>>,
    input_index: usize,
    output_index: usize,
    enabled: bool,
}

#[block]
impl<T: Item> Selector<T> {
    /// `inputs` inputs and `outputs` outputs, `input_index` passed to `output_index` while
    /// `enabled`.
    ///
    /// # Errors
    /// If there is no input or output, or an index is out of range, naming the parameter.
    pub fn new(
        inputs: usize,
        outputs: usize,
        input_index: usize,
        output_index: usize,
        enabled: bool,
    ) -> Result<Self, (&'static str, String)> {
        for (name, v) in [("inputs", inputs), ("outputs", outputs)] {
            if v == 0 {
                return Err((name, "must be at least 1".into()));
            }
        }
        for (name, index, count) in [
            ("input_index", input_index, inputs),
            ("output_index", output_index, outputs),
        ] {
            if index >= count {
                return Err((name, format!("{index} is not below {count}")));
            }
        }
        Ok(Self {
            inputs: (0..inputs).map(|_| StreamInput::new()).collect(),
            outputs: (0..outputs).map(|_| StreamOutput::new()).collect(),
            input_index,
            output_index,
            enabled,
        })
    }

    /// The input passed on from the next work call on (GNU Radio's `set_input_index`); one
    /// out of range is ignored with a warning.
    pub fn set_input_index(&mut self, index: usize) {
        if index < self.inputs.len() {
            self.input_index = index;
        } else {
            tracing::warn!(
                "selector: input_index {index} ignored: it has {} inputs",
                self.inputs.len()
            );
        }
    }

    /// The output written from the next work call on (GNU Radio's `set_output_index`); one
    /// out of range is ignored with a warning.
    pub fn set_output_index(&mut self, index: usize) {
        if index < self.outputs.len() {
            self.output_index = index;
        } else {
            tracing::warn!(
                "selector: output_index {index} ignored: it has {} outputs",
                self.outputs.len()
            );
        }
    }

    /// Passes items (true) or drops every input (false) (GNU Radio's `set_enabled`).
    pub fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let readable = self
            .inputs
            .iter()
            .map(|i| i.slice().len())
            .min()
            .unwrap_or(0);
        let n = if self.enabled {
            let (input, output) = (
                &mut self.inputs[self.input_index],
                &mut self.outputs[self.output_index],
            );
            copy_work(input, output, readable)
        } else {
            readable
        };
        for (i, input) in self.inputs.iter_mut().enumerate() {
            if !(self.enabled && i == self.input_index) {
                input.consume(n);
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
    fn passes_the_chosen_input_drops_the_others_in_step_and_follows_new_indexes() {
        let mut h = Harness::new(Selector::<i16>::new(2, 2, 1, 0, true).unwrap());
        h.push_tag("in0", 0, "dropped", 0i64);
        h.push_tag("in1", 1, "kept", 0i64);
        h.push("in0", &[1i16, 2, 3]);
        h.push("in1", &[-1i16, -2]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<i16>("out0");
        assert_eq!(items, [-1, -2]);
        assert_eq!(tags, [Tag::new(1, "kept", 0i64)]);
        assert_eq!((h.consumed("in0"), h.consumed("in1")), (2, 2));
        h.post("output_index", 1u64).unwrap();
        h.post("input_index", 0u64).unwrap();
        h.post("input_index", 2u64).unwrap();
        h.push("in1", &[-3i16]);
        h.work().unwrap();
        assert_eq!(h.take_output::<i16>("out1"), [3]);
        h.post("enabled", false).unwrap();
        h.push("in0", &[4i16]);
        h.push("in1", &[-4i16]);
        h.work().unwrap();
        assert_eq!(h.produced("out0") + h.produced("out1"), 3);
        assert_eq!((h.consumed("in0"), h.consumed("in1")), (4, 4));
    }

    #[test]
    fn indexes_out_of_range_are_refused_naming_them() {
        assert_eq!(
            Selector::<u8>::new(2, 2, 2, 0, true).unwrap_err().0,
            "input_index"
        );
        assert_eq!(
            Selector::<u8>::new(2, 1, 0, 1, true).unwrap_err().0,
            "output_index"
        );
        assert_eq!(
            Selector::<u8>::new(0, 1, 0, 0, true).unwrap_err().0,
            "inputs"
        );
    }
}
