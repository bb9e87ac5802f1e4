//! [`TaggedStreamMultiplyLength`]: scales the length tags of a tagged stream.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes items through unchanged with their tags, each tag keyed `lengthtagname` getting the
/// value `⌊value · scalar⌋` (toward zero), as GNU Radio's `tagged_stream_multiply_length`
/// does after a block that changes a packet's length (a modulator's samples per bit). A
/// number on the `set_scalar` message input changes the scalar from the next work call on
/// (anything else is ignored). A length tag whose value is not an integer stops the block
/// with an error naming it (GNU Radio's throws).
///
/// # Example
/// ```
/// use radioflow_blocks::{TaggedStreamMultiplyLength, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt, Tag};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8; 8]).tags(vec![Tag::new(0, "len", 8i64)]));
/// let mul = fg.add(TaggedStreamMultiplyLength::<u8>::new("len", 2.5));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, mul)?;
/// fg.connect(mul, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().tags()[0].value, Pmt::Int(20));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "tagged_stream_multiply_length",
    summary = "Passes items, multiplying the value of each length tag by a scalar (GNU Radio's tagged_stream_multiply_length).",
    dtypes = all,
    make = Self::new(&lengthtagname, scalar).with_vlen(vlen)
)]
#[param(lengthtagname: String, example = "packet_len", doc = "the length tags' key")]
#[param(scalar: f64 = 1.0, doc = "the factor on the length tags' values")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[message_input(name = "set_scalar", doc = "a number: the new scalar")]
#[derive(Debug)]
pub struct TaggedStreamMultiplyLength<T: Item> {
    /// The tagged stream.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The same items and tags, the length tags scaled.
    #[output(name = "out")]
    output: StreamOutput<T>,
    key: Pmt,
    scalar: f64,
}

#[block]
impl<T: Item> TaggedStreamMultiplyLength<T> {
    /// Scales the tags keyed `lengthtagname` by `scalar`.
    pub fn new(lengthtagname: &str, scalar: f64) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            key: Pmt::symbol(lengthtagname),
            scalar,
        }
    }

    /// Passes vectors of `vlen` scalars (at least 1).
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self
    }

    #[message_input]
    fn set_scalar(&mut self, msg: Pmt) {
        if let Some(v) = msg.as_f64() {
            self.scalar = v;
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (x, y) = (self.input.slice(), self.output.slice());
        let n = x.len().min(y.len());
        y[..n].copy_from_slice(&x[..n]);
        let end = self.input.offset() + n as u64;
        for t in self.input.tags() {
            if t.offset >= end {
                break;
            }
            let value = if t.key == self.key {
                let Some(len) = t.value.as_i64() else {
                    return Err(BlockError::msg(format!(
                        "the length tag '{}' at item {} is {:?}, not an integer",
                        self.key, t.offset, t.value
                    )));
                };
                // GNU Radio's from_long(to_long(v) * scalar): the double truncated.
                Pmt::Int((len as f64 * self.scalar) as i64)
            } else {
                t.value.clone()
            };
            self.output.add_tag(t.offset, t.key.clone(), value);
        }
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn scales_length_tags_only_and_takes_a_new_scalar_by_message() {
        let mut h = Harness::new(TaggedStreamMultiplyLength::<f32>::new("len", 1.5));
        h.push_tag("in", 0, "len", 3i64);
        h.push_tag("in", 1, "other", 3i64);
        h.push("in", &[1.0f32, 2.0, 3.0]);
        h.work().unwrap();
        let (y, tags) = h.take_output_with_tags::<f32>("out");
        assert_eq!(y, [1.0, 2.0, 3.0]);
        assert_eq!(tags[0], Tag::new(0, "len", 4i64));
        assert_eq!(tags[1], Tag::new(1, "other", 3i64));
        h.post("set_scalar", Pmt::symbol("x")).unwrap();
        h.post("set_scalar", Pmt::Double(-2.0)).unwrap();
        h.push_tag("in", 3, "len", 3i64);
        h.push("in", &[4.0f32]);
        h.work().unwrap();
        assert_eq!(
            h.take_output_with_tags::<f32>("out").1,
            [Tag::new(3, "len", -6i64)]
        );
        h.push_tag("in", 4, "len", 0.5);
        h.push("in", &[5.0f32]);
        let e = h.work().unwrap_err().to_string();
        assert!(e.contains("'len'") && e.contains("item 4"), "{e}");
    }
}
