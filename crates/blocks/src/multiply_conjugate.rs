//! [`MultiplyConjugate`]: `out = in0 · conj(in1)`.

use crate::element_wise::two_inputs;
use radioflow_runtime::Complex32;

two_inputs! {
    /// Multiplies its first input by the conjugate of its second, item by item, like GNU
    /// Radio's `multiply_conjugate_cc` (a correlator's or a phase detector's product).
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{MultiplyConjugate, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::{Complex32, Flowgraph};
    ///
    /// let mut fg = Flowgraph::new();
    /// let a = fg.add(VectorSource::new(vec![Complex32::new(0.0, 2.0)]));
    /// let b = fg.add(VectorSource::new(vec![Complex32::new(0.0, 1.0)]));
    /// let op = fg.add(MultiplyConjugate::new());
    /// let sink = fg.add(VectorSink::<Complex32>::new());
    /// fg.connect(a, (op, 0))?;
    /// fg.connect(b, (op, 1))?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data(), &[Complex32::new(2.0, 0.0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    MultiplyConjugate {
        id: "multiply_conjugate",
        summary: "The first input times the conjugate of the second, item by item.",
        dtypes: [Complex32],
        inputs: ("in0": Complex32, "in1": Complex32),
        output: Complex32,
        formula: "in0 · conj(in1)",
        kernel: radioflow_dsp::multiply_conjugate,
    }
}
