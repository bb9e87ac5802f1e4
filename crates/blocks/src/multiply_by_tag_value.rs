//! [`MultiplyByTagValue`]: complex samples times the value of the last tag of a key.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::Complex32;

/// Multiplies complex samples by a factor that a tag of key `tag_name` sets from its item on
/// (GNU Radio's `blocks.multiply_by_tag_value_cc`): 1 until the first such tag; a tag's
/// complex value, or its real number (integer or float) as a real factor; a tag of that key
/// whose value is no number leaves the factor as it was (GNU Radio logs a warning; so does
/// radioflow). Every tag passes on. One difference: an unsigned 64-bit value
/// (`pmt.from_uint64`) is a real factor here, where GNU Radio's block stops its flowgraph
/// with `pmt_to_double: wrong_type`.
///
/// # Example
/// ```
/// use radioflow_blocks::{MultiplyByTagValue, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Tag};
/// use radioflow_blocks::runtime::Complex32;
///
/// let one = Complex32::new(1.0, 0.0);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![one; 4]).tags(vec![Tag::new(2, "k", 3.0)]));
/// let mul = fg.add(MultiplyByTagValue::new("k"));
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, mul)?;
/// fg.connect(mul, sink)?;
/// fg.run()?;
/// let y = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().to_vec();
/// assert_eq!(y, [one, one, one * 3.0, one * 3.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "multiply_by_tag_value",
    summary = "Complex samples times the value of the last tag of key tag_name (1 before it) (GNU Radio's multiply_by_tag_value_cc).",
    make = Self::new(&tag_name).with_vlen(vlen)
)]
#[param(tag_name: String = "", doc = "the key of the tags whose values are the factor")]
#[param(vlen: usize = 1, min = 1, doc = "samples per item (GNU Radio's vector length); a tag sets the factor from its item's first sample")]
#[derive(Debug)]
pub struct MultiplyByTagValue {
    /// The samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// The samples times the factor.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    key: Pmt,
    factor: Complex32,
}

#[block]
impl MultiplyByTagValue {
    /// Multiplies by the values of the tags of key `tag_name`.
    pub fn new(tag_name: &str) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            key: Pmt::symbol(tag_name),
            factor: Complex32::new(1.0, 0.0),
        }
    }

    /// Items of `vlen` samples.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self
    }

    /// The factor now (GNU Radio's `k()`).
    pub fn k(&self) -> Complex32 {
        self.factor
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let vlen = self.input.vlen();
        let n = self.input.slice().len().min(self.output.slice().len()) / vlen * vlen;
        let from = self.input.offset();
        let end = from + (n / vlen) as u64;
        let mut done = 0;
        let mut factor = self.factor;
        for t in self.input.tags().iter().take_while(|t| t.offset < end) {
            if t.key != self.key {
                continue;
            }
            let at = ((t.offset - from) as usize * vlen).max(done);
            let (i, o) = (
                &self.input.slice()[done..at],
                &mut self.output.slice()[done..at],
            );
            scale(i, o, factor);
            done = at;
            match t.value.as_complex() {
                Some(k) => factor = Complex32::new(k.re as f32, k.im as f32),
                None => tracing::warn!(
                    "multiply_by_tag_value: tag '{}' at item {} is {}, not a number; the factor stays",
                    t.key,
                    t.offset,
                    t.value
                ),
            }
        }
        self.factor = factor;
        let (i, o) = (
            &self.input.slice()[done..n],
            &mut self.output.slice()[done..n],
        );
        scale(i, o, factor);
        propagate_tags(&self.input, &mut self.output, n);
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

/// `output = input * k`, sample by sample.
fn scale(input: &[Complex32], output: &mut [Complex32], k: Complex32) {
    for (o, i) in output.iter_mut().zip(input) {
        *o = i * k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn the_factor_changes_at_each_tag_of_the_key_and_holds_across_calls() {
        let c = |re, im| Complex32::new(re, im);
        let mut h = Harness::new(MultiplyByTagValue::new("k").with_vlen(2));
        h.push_tag("in", 1, "k", 2i64);
        h.push_tag("in", 2, "other", 5i64);
        h.push_tag(
            "in",
            2,
            "k",
            Pmt::Complex(radioflow_runtime::pmt::Complex64::new(0.0, 1.0)),
        );
        h.push_tag("in", 3, "k", Pmt::symbol("no number"));
        h.push("in", &[c(1.0, 1.0); 8]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<Complex32>("out");
        let i = c(0.0, 1.0);
        let want: Vec<Complex32> = [c(1.0, 0.0), c(2.0, 0.0), i, i]
            .iter()
            .flat_map(|&k| [c(1.0, 1.0) * k; 2])
            .collect();
        assert_eq!(items, want);
        assert_eq!(tags.len(), 4, "every tag passes");
        h.push("in", &[c(1.0, 0.0); 2]);
        h.work().unwrap();
        assert_eq!(h.take_output::<Complex32>("out"), [i, i]);
    }
}
