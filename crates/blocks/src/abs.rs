//! [`Abs`]: `out = |in|`.

use crate::element_wise::map;

map! {
    /// The absolute value of every item, like GNU Radio's `abs_ff`, `abs_ss` and `abs_ii`:
    /// `in < 0 ? -in : in`, so integers wrap (`|MIN|` is `MIN`) and `-0.0` stays `-0.0`.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{Abs, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![-3i16, 4, i16::MIN]));
    /// let op = fg.add(Abs::<i16>::new());
    /// let sink = fg.add(VectorSink::<i16>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[3, 4, i16::MIN]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Abs<T: radioflow_dsp::Abs> {
        id: "abs",
        summary: "The absolute value of every item (integers wrap: |MIN| is MIN).",
        dtypes: [Float32, Int16, Int32],
        input: T,
        output: T,
        params: [],
        formula: "in < 0 ? -in : in",
        kernel: radioflow_dsp::abs,
    }
}
