//! [`Conjugate`]: `out = conj(in)`.

use crate::element_wise::map;
use radioflow_runtime::Complex32;

map! {
    /// The complex conjugate of every item, like GNU Radio's `conjugate_cc`.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{Conjugate, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::{Complex32, Flowgraph};
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 2.0)]));
    /// let op = fg.add(Conjugate::new());
    /// let sink = fg.add(VectorSink::<Complex32>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data(), &[Complex32::new(1.0, -2.0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Conjugate {
        id: "conjugate",
        summary: "The complex conjugate of every item.",
        dtypes: [Complex32],
        input: Complex32,
        output: Complex32,
        params: [],
        formula: "conj(in)",
        kernel: radioflow_dsp::conjugate,
    }
}
