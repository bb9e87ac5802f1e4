//! Between bytes and shorts: [`CharToShort`], [`ShortToChar`].

use crate::element_wise::map;

map! {
    /// Bytes (`i8`) to `i16` as the high byte, like GNU Radio's `char_to_short`: `in · 256`.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{CharToShort, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![1i8, -128]));
    /// let op = fg.add(CharToShort::new());
    /// let sink = fg.add(VectorSink::<i16>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[256, i16::MIN]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    CharToShort {
        id: "char_to_short",
        summary: "Signed bytes to shorts (int16) as the high byte: in · 256.",
        input: i8,
        output: i16,
        params: [],
        formula: "in · 256",
        kernel: radioflow_dsp::char_to_short,
    }
}

map! {
    /// `i16` to bytes (`i8`): the high byte, like GNU Radio's `short_to_char`: `in >> 8`
    /// (rounding toward minus infinity: -1 gives -1).
    ShortToChar {
        id: "short_to_char",
        summary: "Shorts (int16) to signed bytes: the high byte, in >> 8.",
        input: i16,
        output: i8,
        params: [],
        formula: "in >> 8",
        kernel: radioflow_dsp::short_to_char,
    }
}
