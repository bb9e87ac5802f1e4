//! [`Divide`]: the item-by-item quotient of several streams.

use crate::element_wise::between_streams;

between_streams! {
    /// Divides the first input stream by every other, item by item, like GNU Radio's
    /// `divide_ff`, `divide_cc`, `divide_ss` and `divide_ii`: `out[n] = in0[n] / in1[n] / …`.
    /// Floats follow IEEE (`x / 0` is infinite or NaN); a complex quotient is
    /// `a·conj(b) / |b|²`, as VOLK computes it. Integer division truncates toward zero and
    /// integers wrap (`MIN / -1` is `MIN`); an integer divided by 0 is 0. (GNU Radio's C++
    /// integer division by zero, and `i32::MIN / -1`, trap on x86 and end the process; 0 and
    /// wrapping are what the same code computes on AArch64.)
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{Divide, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let a = fg.add(VectorSource::new(vec![7i16, -7, 5]));
    /// let b = fg.add(VectorSource::new(vec![2i16, 2, 0]));
    /// let op = fg.add(Divide::<i16>::new(2));
    /// let sink = fg.add(VectorSink::<i16>::new());
    /// fg.connect(a, (op, 0))?;
    /// fg.connect(b, (op, 1))?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[3, -3, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Divide {
        id: "divide",
        summary: "The first of `inputs` streams (ports in0..in{inputs-1}) divided by the others, item by item.",
        dtypes: [Complex32, Float32, Int16, Int8, Uint8, Float64, Int32],
        formula: "in0 / in1 / …",
        kernel: radioflow_dsp::divide_into,
    }
}
