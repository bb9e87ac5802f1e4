//! Complex samples to and from interleaved integer parts (`re, im, re, im, …`):
//! [`ComplexToInterleavedShort`], [`ComplexToInterleavedChar`],
//! [`InterleavedShortToComplex`], [`InterleavedCharToComplex`].
//!
//! To integers, each part is `part · scale` rounded (ties to even) and saturated as
//! [`FloatToShort`] does (NaN is 0); from integers, each part is `part · (1/scale)` as
//! [`ShortToFloat`] computes it. GNU Radio's `vector_output`/`vector_input` variant (pairs as
//! vector items) is not offered.
//!
//! [`FloatToShort`]: crate::FloatToShort
//! [`ShortToFloat`]: crate::ShortToFloat

use crate::element_wise::map;
use radioflow_dsp::{complex_to_interleaved, interleaved_to_complex};
use radioflow_runtime::Complex32;

map! {
    /// Complex samples to interleaved `i16` parts, two per sample, like GNU Radio's
    /// `complex_to_interleaved_short` (see [`FromScaled`](radioflow_dsp::FromScaled)).
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{ComplexToInterleavedShort, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::{Complex32, Flowgraph};
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![Complex32::new(0.5, -1.0)]));
    /// let op = fg.add(ComplexToInterleavedShort::new(32767.0));
    /// let sink = fg.add(VectorSink::<i16>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[16384, -32767]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ComplexToInterleavedShort {
        id: "complex_to_interleaved_short",
        summary: "Complex samples to interleaved shorts (re, im, …): part · scale, rounded to even and saturated.",
        input: Complex32,
        output: i16,
        groups: (1, 2),
        settable: [(scale: f32 = 1.0, set_scale, doc = "the factor")],
        formula: "round(part · scale)",
        kernel: complex_to_interleaved,
    }
}

map! {
    /// Complex samples to interleaved `i8` parts, two per sample, like GNU Radio's
    /// `complex_to_interleaved_char` (see [`FromScaled`](radioflow_dsp::FromScaled)).
    ComplexToInterleavedChar {
        id: "complex_to_interleaved_char",
        summary: "Complex samples to interleaved signed bytes (re, im, …): part · scale, rounded to even and saturated.",
        input: Complex32,
        output: i8,
        groups: (1, 2),
        settable: [(scale: f32 = 1.0, set_scale, doc = "the factor")],
        formula: "round(part · scale)",
        kernel: complex_to_interleaved,
    }
}

map! {
    /// Interleaved `i16` parts to complex samples, like GNU Radio's
    /// `interleaved_short_to_complex` (see [`FromScaled`](radioflow_dsp::FromScaled)); `swap` takes the first of each
    /// pair as the imaginary part. A lone last part at the end of the stream is dropped.
    InterleavedShortToComplex {
        id: "interleaved_short_to_complex",
        summary: "Interleaved shorts (re, im, …) to complex samples: part / scale, parts swapped if swap.",
        input: i16,
        output: Complex32,
        groups: (2, 1),
        settable: [
            (scale: f32 = 1.0, set_scale, doc = "the divisor"),
            (swap: bool = false, set_swap, doc = "whether each pair is (im, re)"),
        ],
        formula: "(re + j·im) / scale",
        kernel: interleaved_to_complex,
    }
}

map! {
    /// Interleaved `i8` parts to complex samples, like GNU Radio's
    /// `interleaved_char_to_complex` (see [`FromScaled`](radioflow_dsp::FromScaled)). A lone last part at the end of
    /// the stream is dropped.
    InterleavedCharToComplex {
        id: "interleaved_char_to_complex",
        summary: "Interleaved signed bytes (re, im, …) to complex samples: part / scale.",
        input: i8,
        output: Complex32,
        groups: (2, 1),
        settable: [(scale: f32 = 1.0, set_scale, doc = "the divisor")],
        formula: "(re + j·im) / scale",
        kernel: |i, scale, o| interleaved_to_complex::<i8>(i, scale, false, o),
    }
}
