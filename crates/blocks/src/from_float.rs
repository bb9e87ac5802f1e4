//! Floats to integers, rounded and saturated: [`FloatToChar`], [`FloatToShort`],
//! [`FloatToInt`], [`FloatToUchar`].
//!
//! Each rounds `in · scale` to the nearest integer, ties to even (C's `rintf`, as GNU Radio and
//! VOLK do), and saturates at the type's limits. Where GNU Radio's result is not defined by its
//! code, these give Rust's saturating answer: NaN is 0, `+inf` the maximum, `-inf` the minimum.
//! (GNU Radio's results there come from the machine's conversion instructions and differ by
//! block and even by the item's place in the buffer: NaN gives 32767 or 0 in `float_to_short`,
//! `i32::MIN` in `float_to_int`; `+inf` gives `i32::MIN` in `float_to_int` and 0 in
//! `float_to_uchar`, as does every value at or above 2^63 in `float_to_int`.)

use crate::element_wise::map;
use radioflow_dsp::float_to_int;

map! {
    /// Floats to bytes (`i8`): `in · scale` rounded (ties to even) and saturated at -128 and
    /// 127, like GNU Radio's `float_to_char` (see the [module](self) for NaN and infinities).
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{FloatToChar, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![0.5f32, 1.5, -2.0, 1e6]));
    /// let op = fg.add(FloatToChar::new(1.0));
    /// let sink = fg.add(VectorSink::<i8>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<i8>>(sink).unwrap().data(), &[0, 2, -2, 127]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    FloatToChar {
        id: "float_to_char",
        summary: "Floats to signed bytes: in · scale, rounded to even and saturated.",
        input: f32,
        output: i8,
        settable: [(scale: f32 = 1.0, set_scale, doc = "the factor")],
        formula: "round(in · scale)",
        kernel: float_to_int,
    }
}

map! {
    /// Floats to `i16`: `in · scale` rounded (ties to even) and saturated at -32768 and 32767,
    /// like GNU Radio's `float_to_short` (see the [module](self) for NaN and infinities).
    FloatToShort {
        id: "float_to_short",
        summary: "Floats to shorts (int16): in · scale, rounded to even and saturated.",
        input: f32,
        output: i16,
        settable: [(scale: f32 = 1.0, set_scale, doc = "the factor")],
        formula: "round(in · scale)",
        kernel: float_to_int,
    }
}

map! {
    /// Floats to `i32`: `in · scale` rounded (ties to even) and saturated at `i32::MIN` and
    /// `i32::MAX`, like GNU Radio's `float_to_int` (see the [module](self) for NaN and
    /// infinities).
    FloatToInt {
        id: "float_to_int",
        summary: "Floats to ints (int32): in · scale, rounded to even and saturated.",
        input: f32,
        output: i32,
        settable: [(scale: f32 = 1.0, set_scale, doc = "the factor")],
        formula: "round(in · scale)",
        kernel: float_to_int,
    }
}

map! {
    /// Floats to unsigned bytes: rounded (ties to even) and saturated at 0 and 255, like GNU
    /// Radio's `float_to_uchar` (see the [module](self) for NaN and infinities).
    FloatToUchar {
        id: "float_to_uchar",
        summary: "Floats to unsigned bytes: rounded to even and saturated at 0 and 255.",
        input: f32,
        output: u8,
        params: [],
        formula: "round(in)",
        kernel: |i, o| float_to_int::<u8>(i, 1.0, o),
    }
}
