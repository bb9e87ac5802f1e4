//! [`MultiplyConst`]: `out = in · k`.

use crate::element_wise::with_constant;

with_constant! {
    /// Multiplies every item by a constant, keeping the tags, like GNU Radio's
    /// `multiply_const_ff`, `_cc`, `_ss` and `_ii`. Works for every
    /// [`Arith`](radioflow_dsp::Arith) item type (`f32`, `Complex32`, `i16`, `i32`, ...);
    /// integers wrap on overflow.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{MultiplyConst, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::{Complex32, Flowgraph};
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0), Complex32::new(0.0, 2.0)]));
    /// let op = fg.add(MultiplyConst::<Complex32>::new(Complex32::new(0.0, 1.0)));
    /// let sink = fg.add(VectorSink::<Complex32>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data(), &[Complex32::new(0.0, 1.0), Complex32::new(-2.0, 0.0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    MultiplyConst {
        id: "multiply_const",
        summary: "Multiplies every item by `k`.",
        formula: "in · k",
        kernel: radioflow_dsp::multiply_const,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::prelude::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn multiplies_per_call_as_far_as_the_output_allows_keeping_tags_and_wrapping() {
        let mut h = Harness::new(MultiplyConst::new(3i32));
        h.push_tag("in", 1, "k", 1i64);
        h.push("in", &[-2i32, 5, i32::MAX]);
        h.set_space("out", 2);
        h.work().unwrap();
        assert_eq!((h.consumed("in"), h.produced("out")), (2, 2));
        assert_eq!(h.output_tags("out"), [Tag::new(1, "k", 1i64)]);
        assert_eq!(h.take_output::<i32>("out"), [-6, 15]);
        h.work().unwrap();
        assert_eq!(
            h.take_output::<i32>("out"),
            [i32::MAX.wrapping_mul(3)],
            "integers wrap"
        );

        let mut h = Harness::new(MultiplyConst::new(Complex32::new(0.0, 1.0)));
        h.push("in", &[Complex32::new(1.0, 0.0), Complex32::new(0.0, 2.0)]);
        h.work().unwrap();
        assert_eq!(
            h.take_output::<Complex32>("out"),
            [Complex32::new(0.0, 1.0), Complex32::new(-2.0, 0.0)]
        );
    }
}
