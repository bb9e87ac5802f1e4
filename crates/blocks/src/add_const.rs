//! [`AddConst`]: `out = in + k`.

use crate::element_wise::with_constant;

with_constant! {
    /// Adds a constant to every item, keeping the tags, like GNU Radio's `add_const_ff`,
    /// `_cc`, `_ss` and `_ii`. Works for every [`Arith`](radioflow_dsp::Arith) item type
    /// (`f32`, `Complex32`, `i16`, `i32`, ...); integers wrap on overflow.
    ///
    /// # Example
    /// ```
    /// use radioflow_blocks::{AddConst, VectorSink, VectorSource};
    /// use radioflow_blocks::runtime::Flowgraph;
    ///
    /// let mut fg = Flowgraph::new();
    /// let src = fg.add(VectorSource::new(vec![1i16, 2, 3]));
    /// let op = fg.add(AddConst::<i16>::new(10));
    /// let sink = fg.add(VectorSink::<i16>::new());
    /// fg.connect(src, op)?;
    /// fg.connect(op, sink)?;
    /// fg.run()?;
    /// assert_eq!(fg.block::<VectorSink<i16>>(sink).unwrap().data(), &[11, 12, 13]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    AddConst {
        id: "add_const",
        summary: "Adds `k` to every item.",
        formula: "in + k",
        kernel: radioflow_dsp::add_const,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::prelude::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn adds_per_call_as_far_as_the_output_allows_keeping_tags_and_wrapping() {
        let mut h = Harness::new(AddConst::new(30_000i16));
        h.push_tag("in", 2, "k", 1i64);
        h.push("in", &[-1i16, 0, 2_767, 2_768]);
        h.set_space("out", 3);
        h.work().unwrap();
        assert_eq!((h.consumed("in"), h.produced("out")), (3, 3));
        assert_eq!(h.output_tags("out"), [Tag::new(2, "k", 1i64)]);
        assert_eq!(h.take_output::<i16>("out"), [29_999, 30_000, i16::MAX]);
        h.work().unwrap();
        assert_eq!(h.take_output::<i16>("out"), [i16::MIN], "integers wrap");

        let mut h = Harness::new(AddConst::new(Complex32::new(0.5, -1.0)));
        h.push("in", &[Complex32::new(1.0, 1.0)]);
        h.work().unwrap();
        assert_eq!(
            h.take_output::<Complex32>("out"),
            [Complex32::new(1.5, 0.0)]
        );
    }
}
