//! [`Nlog10`]: `out = n·log10(in) + k`.

use crate::element_wise::map;

map! {
    /// `n·log10(in) + k` of every item, like GNU Radio's `nlog10_ff` (decibels with `n` = 10
    /// or 20). Inputs below the smallest normal `f32` (zero, negative, `-inf`) count as that
    /// smallest normal, so they give `n·(-37.93) + k`, not `-inf` or NaN; NaN stays NaN.
    /// GNU Radio computes `n/log2(10) · log2(in·10^(k/n))` with VOLK's approximate `log2` (equal
    /// within a few `1e-6` relative); with `n` = 0 its output is NaN, here `k`.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{Nlog10, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![1.0f32, 100.0]));
    /// let op = fg.add(Nlog10::new(10.0, -3.0));
    /// let sink = fg.add(VectorSink::<f32>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<f32>>(sink).unwrap().data(), &[-3.0, 17.0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Nlog10 {
        id: "nlog10",
        summary: "n·log10(in) + k of every item (decibels with n = 10 or 20).",
        dtypes: [Float32],
        input: f32,
        output: f32,
        params: [
            (n: f32 = 1.0, doc = "the factor of the logarithm"),
            (k: f32 = 0.0, doc = "the offset added"),
        ],
        formula: "n·log10(in) + k",
        kernel: radioflow_dsp::nlog10,
    }
}
