//! Floats to integers, rounded (ties to even) and saturated as GNU Radio does:
//! [`FloatToChar`], [`FloatToShort`], [`FloatToInt`], [`FloatToUchar`].

use crate::element_wise::map;
use radioflow_dsp::float_to_int;

map! {
    /// Floats to bytes (`i8`): `in · scale` rounded (ties to even) and saturated at -128 and
    /// 127, like GNU Radio's `float_to_char` (NaN gives 0, infinities saturate: see [`FromScaled`](radioflow_dsp::FromScaled)).
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
    /// like GNU Radio's `float_to_short` (NaN gives 0, infinities saturate: see [`FromScaled`](radioflow_dsp::FromScaled)).
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
    /// `i32::MAX`, like GNU Radio's `float_to_int` (NaN gives 0, infinities saturate:
    /// see [`FromScaled`](radioflow_dsp::FromScaled)).
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
    /// Radio's `float_to_uchar` (NaN gives 0, infinities saturate: see [`FromScaled`](radioflow_dsp::FromScaled)).
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
