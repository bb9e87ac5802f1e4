//! Integers to floats: [`CharToFloat`], [`ShortToFloat`], [`IntToFloat`], [`UcharToFloat`].

use crate::element_wise::map;
use radioflow_dsp::int_to_float;

map! {
    /// Bytes (`i8`) to floats divided by `scale`, like GNU Radio's `char_to_float`:
    /// `in · (1/scale)`, the reciprocal rounded to `f32` once, as VOLK computes it.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{CharToFloat, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![-128i8, 64]));
    /// let op = fg.add(CharToFloat::new(128.0));
    /// let sink = fg.add(VectorSink::<f32>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[-1.0, 0.5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    CharToFloat {
        id: "char_to_float",
        summary: "Signed bytes to floats: in / scale.",
        input: i8,
        output: f32,
        settable: [(scale: f32 = 1.0, set_scale, doc = "the divisor")],
        formula: "in / scale",
        kernel: int_to_float,
    }
}

map! {
    /// `i16` to floats divided by `scale`, like GNU Radio's `short_to_float`: `in · (1/scale)`,
    /// the reciprocal rounded to `f32` once, as VOLK's vector kernels compute it (its scalar
    /// kernel, for the last few items of a call, divides: a last-bit difference for a `scale`
    /// that is not a power of two).
    ShortToFloat {
        id: "short_to_float",
        summary: "Shorts (int16) to floats: in / scale.",
        input: i16,
        output: f32,
        settable: [(scale: f32 = 1.0, set_scale, doc = "the divisor")],
        formula: "in / scale",
        kernel: int_to_float,
    }
}

map! {
    /// `i32` to floats divided by `scale`, like GNU Radio's `int_to_float`: the integer rounded
    /// to the nearest `f32`, times `1/scale` rounded to `f32` once, as VOLK computes it.
    IntToFloat {
        id: "int_to_float",
        summary: "Ints (int32) to floats: in / scale.",
        input: i32,
        output: f32,
        settable: [(scale: f32 = 1.0, set_scale, doc = "the divisor")],
        formula: "in / scale",
        kernel: int_to_float,
    }
}

map! {
    /// Unsigned bytes to floats (0 to 255), like GNU Radio's `uchar_to_float`.
    UcharToFloat {
        id: "uchar_to_float",
        summary: "Unsigned bytes to floats (0 to 255).",
        input: u8,
        output: f32,
        params: [],
        formula: "in",
        kernel: |i, o| int_to_float::<u8>(i, 1.0, o),
    }
}
