//! Complex samples from real ones: [`FloatToComplex`], [`MagphaseToComplex`].

use crate::element_wise::two_inputs;
use radioflow_runtime::Complex32;

two_inputs! {
    /// Complex items from their real and imaginary parts, like GNU Radio's `float_to_complex`;
    /// the `im` input may stay unconnected (the imaginary parts are then 0).
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{FloatToComplex, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::{Complex32, Flowgraph};
    ///
    /// let mut fg = Flowgraph::new();
    /// let re = fg.add(VectorSource::new(vec![1.0f32, 2.0]));
    /// let im = fg.add(VectorSource::new(vec![-1.0f32, 0.5]));
    /// let op = fg.add(FloatToComplex::new());
    /// let sink = fg.add(VectorSink::<Complex32>::new());
    /// fg.connect(re, (op, 0))?;
    /// fg.connect(im, (op, 1))?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// let z = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
    /// assert_eq!(z, &[Complex32::new(1.0, -1.0), Complex32::new(2.0, 0.5)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    FloatToComplex {
        id: "float_to_complex",
        summary: "Complex items from their real (port re) and imaginary (port im, optional: 0) parts.",
        inputs: ("re": f32, "im": f32),
        output: Complex32,
        formula: "re + j·im",
        kernel: radioflow_dsp::to_complex,
        without_b: radioflow_dsp::real_to_complex,
    }
}

two_inputs! {
    /// Complex items from their magnitude and phase, like GNU Radio's `magphase_to_complex`:
    /// `mag·cos(phase) + j·mag·sin(phase)`. Both inputs are needed, as GNU Radio's block
    /// needs them.
    MagphaseToComplex {
        id: "magphase_to_complex",
        summary: "Complex items from their magnitude (port mag) and phase (port phase).",
        inputs: ("mag": f32, "phase": f32),
        output: Complex32,
        formula: "mag·cos(phase) + j·mag·sin(phase)",
        kernel: radioflow_dsp::from_polar,
    }
}
