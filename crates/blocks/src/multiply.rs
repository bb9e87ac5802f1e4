//! [`Multiply`]: the item-by-item product of several streams.

use crate::element_wise::between_streams;

between_streams! {
    /// Multiplies its input streams item by item, like GNU Radio's `multiply_cc`/`multiply_ff`:
    /// `out[n] = in0[n] · in1[n] · …` (a mixer when one input is an oscillator).
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
    Multiply {
        id: "multiply",
        summary: "The item-by-item product of `inputs` streams (ports in0..in{inputs-1}): a mixer when one input is an oscillator.",
        dtypes: [Complex32, Float32, Int16, Int8, Uint8, Float64, Int32],
        formula: "in0 · in1 · …",
        kernel: radioflow_dsp::multiply_into,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::prelude::*;
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
