//! [`Add`]: the item-by-item sum of several streams.

use crate::element_wise::between_streams;

between_streams! {
    /// Adds its input streams item by item, like GNU Radio's `add_ff`, `add_cc`, `add_ss` and
    /// `add_ii`: `out[n] = in0[n] + in1[n] + …`; integers wrap on overflow.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{Add, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let a = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0]));
    /// let b = fg.add(VectorSource::new(vec![4.0f32, 5.0, 6.0]));
    /// let op = fg.add(Add::<f32>::new(2));
    /// let sink = fg.add(VectorSink::<f32>::new());
    /// fg.connect(a, (op, 0))?;
    /// fg.connect(b, (op, 1))?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[5.0, 7.0, 9.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Add {
        id: "add",
        summary: "The item-by-item sum of `inputs` streams (ports in0..in{inputs-1}).",
        dtypes: [Complex32, Float32, Int16, Int8, Uint8, Float64, Int32],
        formula: "in0 + in1 + …",
        kernel: radioflow_dsp::add_into,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;
    use radioflow_runtime::Complex32;

    #[test]
    fn sums_every_input_as_far_as_the_shortest_goes() {
        let mut h = Harness::new(Add::<f32>::new(3));
        h.push("in0", &[1.0f32, 2.0, 3.0]);
        h.push("in1", &[4.0f32, -0.5]);
        h.push("in2", &[0.0f32, 0.25, 9.0]);
        h.work().unwrap();
        assert_eq!(h.take_output::<f32>("out"), [5.0, 1.75]);
        assert_eq!(
            [h.consumed("in0"), h.consumed("in1"), h.consumed("in2")],
            [2, 2, 2]
        );
    }

    #[test]
    fn complex_items_add_by_parts_and_integers_wrap() {
        let mut h = Harness::new(Add::<Complex32>::new(2));
        h.push("in0", &[Complex32::new(1.0, -2.0)]);
        h.push("in1", &[Complex32::new(0.5, 3.0)]);
        h.work().unwrap();
        assert_eq!(
            h.take_output::<Complex32>("out"),
            [Complex32::new(1.5, 1.0)]
        );
        let mut h = Harness::new(Add::<i16>::new(2));
        h.push("in0", &[i16::MAX, -7]);
        h.push("in1", &[1i16, 3]);
        h.work().unwrap();
        assert_eq!(h.take_output::<i16>("out"), [i16::MIN, -4]);
    }
}
