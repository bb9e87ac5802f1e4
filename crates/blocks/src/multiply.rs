//! [`Multiply`]: the item-by-item product of several streams.

use radioflow_dsp::{multiply_into, Arith};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Multiplies its input streams item by item, like GNU Radio's `multiply_cc`/`multiply_ff`:
/// `out[n] = in0[n] · in1[n] · …` (a mixer when one input is an oscillator).
///
/// # Stream inputs
/// - `in0`, `in1`, …: `T`, as many as asked for (at least one).
///
/// # Stream outputs
/// - `out`: `T`, the product. Tags of every input go to the same output items.
///
/// # Message ports
/// None.
///
/// # Parameters
/// - `inputs`: number of input streams.
///
/// # Example
/// ```
/// use radioflow_blocks::{Multiply, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let a = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
/// let b = fg.add(VectorSource::new(vec![4.0f32, 5.0, 6.0]));
/// let mul = fg.add(Multiply::<f32>::new(2));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(a, (mul, 0))?;
/// fg.connect(b, (mul, 1))?;
/// fg.connect(mul, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[4.0, 10.0, 18.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Ports)]
pub struct Multiply<T: Item + Arith> {
    /// Ports `in0`, `in1`, ...; at least one.
    #[input(name = "in")]
    inputs: Vec<StreamInput<T>>,
    #[output(name = "out")]
    output: StreamOutput<T>,
}

#[block]
impl<T: Item + Arith> Multiply<T> {
    /// A product of `inputs` streams.
    ///
    /// # Panics
    /// If `inputs` is 0.
    pub fn new(inputs: usize) -> Self {
        assert!(inputs > 0, "Multiply needs at least one input");
        Self {
            inputs: (0..inputs).map(|_| StreamInput::new()).collect(),
            output: StreamOutput::new(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let available = self.inputs.iter().map(|i| i.slice().len()).min();
        let n = available.unwrap_or(0).min(self.output.slice().len());
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let out = &mut self.output.slice()[..n];
        out.copy_from_slice(&self.inputs[0].slice()[..n]);
        for input in &self.inputs[1..] {
            multiply_into(out, input.slice());
        }
        for input in &mut self.inputs {
            propagate_tags(input, &mut self.output, n);
            input.consume(n);
        }
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

register_block!(BlockDescription {
    id: "multiply",
    summary: "The item-by-item product of `inputs` streams (ports in0..in{inputs-1}): a mixer when one input is an oscillator.",
    dtypes: &[Dtype::Complex32, Dtype::Float32, Dtype::Int16, Dtype::Int8, Dtype::Uint8, Dtype::Float64, Dtype::Int32],
    params: &[ParamDescription::optional("inputs", ParamKind::Int { min: 1 }, DefaultValue::Int(2), "how many inputs")],
    ports: declared_ports::<Multiply<f32>>,
    make: |a| {
        let n = a.usize("inputs")?;
        Ok(with_dtype!(a.item_dtype()?, T => Box::new(Multiply::<T>::new(n)) as Box<dyn Block>))
    },
});

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn multiplies_what_every_input_has_and_carries_every_inputs_tags() {
        let mut h = Harness::new(Multiply::<f32>::new(3));
        h.push_tag("in0", 0, "a", 0i64);
        h.push_tag("in2", 2, "c", 2i64);
        h.push("in0", &[1.0f32, 2.0, 3.0, 4.0]);
        h.push("in1", &[5.0f32, 6.0]);
        h.push("in2", &[-1.0f32, 0.5, 2.0, 2.0]);
        h.work().unwrap();
        assert_eq!(
            [h.consumed("in0"), h.consumed("in1"), h.consumed("in2")],
            [2, 2, 2],
            "limited by the shortest input"
        );
        assert_eq!(h.output_tags("out"), [Tag::new(0, "a", 0i64)]);
        assert_eq!(h.take_output::<f32>("out"), [-5.0, 6.0]);
        h.push("in1", &[7.0f32, 8.0]);
        h.set_space("out", 1);
        h.work().unwrap();
        assert_eq!(h.output_tags("out"), [Tag::new(2, "c", 2i64)]);
        assert_eq!(h.take_output::<f32>("out"), [42.0], "limited by the output");
        h.set_space("out", 10);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [64.0]);
        assert_eq!(h.produced("out"), 4);
    }

    #[test]
    fn one_input_is_a_copy() {
        let mut h = Harness::new(Multiply::<i16>::new(1));
        h.push("in0", &[3i16, -4]);
        h.work().unwrap();
        assert_eq!(h.take_output::<i16>("out"), [3, -4]);
    }

    #[test]
    #[should_panic(expected = "at least one input")]
    fn no_input_is_refused() {
        let _ = Multiply::<f32>::new(0);
    }
}
