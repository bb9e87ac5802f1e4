//! Complex samples to real ones: [`ComplexToReal`], [`ComplexToImag`], [`ComplexToMag`],
//! [`ComplexToMagSquared`], [`ComplexToArg`], [`ComplexToFloat`], [`ComplexToMagphase`].

use crate::element_wise::{map, two_outputs};
use radioflow_runtime::Complex32;

map! {
    /// The real part of every item, like GNU Radio's `complex_to_real`.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{ComplexToReal, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::{Complex32, Flowgraph};
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![Complex32::new(1.5, -2.0)]));
    /// let op = fg.add(ComplexToReal::new());
    /// let sink = fg.add(VectorSink::<f32>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[1.5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ComplexToReal {
        id: "complex_to_real",
        summary: "The real part of every complex item.",
        input: Complex32,
        output: f32,
        params: [],
        formula: "Re in",
        kernel: radioflow_dsp::real,
    }
}

map! {
    /// The imaginary part of every item, like GNU Radio's `complex_to_imag`.
    ComplexToImag {
        id: "complex_to_imag",
        summary: "The imaginary part of every complex item.",
        input: Complex32,
        output: f32,
        params: [],
        formula: "Im in",
        kernel: radioflow_dsp::imag,
    }
}

map! {
    /// The magnitude of every item, like GNU Radio's `complex_to_mag`: `sqrt(re² + im²)` in
    /// `f32` (not `hypot`: infinite above about 1.8e19, as GNU Radio's).
    ComplexToMag {
        id: "complex_to_mag",
        summary: "The magnitude |in| of every complex item.",
        input: Complex32,
        output: f32,
        params: [],
        formula: "|in|",
        kernel: radioflow_dsp::magnitude,
    }
}

map! {
    /// The squared magnitude (power) of every item, like GNU Radio's `complex_to_mag_squared`.
    ComplexToMagSquared {
        id: "complex_to_mag_squared",
        summary: "The squared magnitude |in|² (power) of every complex item.",
        input: Complex32,
        output: f32,
        params: [],
        formula: "re² + im²",
        kernel: radioflow_dsp::magnitude_squared,
    }
}

map! {
    /// The phase of every item in `[-π, π]`, like GNU Radio's `complex_to_arg`: 0 at the
    /// origin and `+π` on the negative real axis (GNU Radio's conventions); exact `atan2`
    /// where GNU Radio interpolates a table (within about 2e-6 rad of it). NaN gives NaN.
    ComplexToArg {
        id: "complex_to_arg",
        summary: "The phase arg(in) of every complex item, in [-π, π].",
        input: Complex32,
        output: f32,
        params: [],
        formula: "arg(in)",
        kernel: radioflow_dsp::arg,
    }
}

two_outputs! {
    /// The real and imaginary parts of every item, like GNU Radio's `complex_to_float`; the
    /// `im` output may stay unconnected (then it is [`ComplexToReal`]).
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{ComplexToFloat, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::{Complex32, Flowgraph};
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![Complex32::new(1.5, -2.0)]));
    /// let op = fg.add(ComplexToFloat::new());
    /// let re = fg.add(VectorSink::<f32>::new());
    /// let im = fg.add(VectorSink::<f32>::new());
    /// fg.connect(src, op)?;
    /// fg.connect((op, 0), re)?;
    /// fg.connect((op, 1), im)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<f32>>(im).unwrap().data(), &[-2.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ComplexToFloat {
        id: "complex_to_float",
        summary: "The real (port re) and imaginary (port im, optional) parts of every complex item.",
        input: Complex32,
        outputs: ("re": f32, "im": f32),
        formula: "(Re in, Im in)",
        kernel: radioflow_dsp::parts,
        without_b: radioflow_dsp::real,
    }
}

two_outputs! {
    /// The magnitude and phase of every item, like GNU Radio's `complex_to_magphase` (each as
    /// [`ComplexToMag`] and [`ComplexToArg`] compute it). Both outputs are needed, as GNU
    /// Radio's block needs them.
    ComplexToMagphase {
        id: "complex_to_magphase",
        summary: "The magnitude (port mag) and phase (port phase) of every complex item.",
        input: Complex32,
        outputs: ("mag": f32, "phase": f32),
        formula: "(|in|, arg(in))",
        kernel: radioflow_dsp::magnitude_phase,
    }
}
