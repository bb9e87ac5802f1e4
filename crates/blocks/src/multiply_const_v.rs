//! [`MultiplyConstV`]: `out = in · k`, one constant per position of a vector.

use crate::element_wise::per_position;

per_position! {
    /// Multiplies each position of every vector item by its own constant (`k[j]` for position
    /// `j`; the vectors are `k.len()` long), keeping the tags, like GNU Radio's
    /// `multiply_const_vff` and its `_cc`, `_ss`, `_ii` forms with a vector length above 1.
    /// Integers wrap on overflow.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{MultiplyConstV, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0, 4.0]).with_vlen(2)?);
    /// let op = fg.add(MultiplyConstV::new(vec![2.0f32, -1.0])?);
    /// let sink = fg.add(VectorSink::<f32>::new().with_vlen(2));
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[2.0, -2.0, 6.0, -4.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    MultiplyConstV {
        id: "multiply_const_v",
        summary: "Multiplies each position of a vector by its own constant.",
        formula: "in · k[position]",
        kernel: radioflow_dsp::multiply_const_per_position,
    }
}
