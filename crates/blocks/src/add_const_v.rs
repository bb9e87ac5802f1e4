//! [`AddConstV`]: `out = in + k`, one constant per position of a vector.

use crate::element_wise::per_position;

per_position! {
    /// Adds to each position of every vector item its own constant (`k[j]` for position
    /// `j`; the vectors are `k.len()` long), keeping the tags, like GNU Radio's
    /// `add_const_vff` and its `_cc`, `_ss`, `_ii` forms with a vector length above 1.
    /// Integers wrap on overflow.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{AddConstV, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0, 3.0, 4.0]).with_vlen(2)?);
    /// let op = fg.add(AddConstV::new(vec![2.0f32, -1.0])?);
    /// let sink = fg.add(VectorSink::<f32>::new().with_vlen(2));
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[3.0, 1.0, 5.0, 3.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    AddConstV {
        id: "add_const_v",
        summary: "Adds to each position of a vector its own constant.",
        formula: "in + k[position]",
        kernel: radioflow_dsp::add_const_per_position,
    }
}
