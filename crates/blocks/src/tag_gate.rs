//! [`TagGate`]: a copy that stops tags (all, or one key).

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Copies its input to its output and stops tags (GNU Radio's `blocks.tag_gate`): with
/// `propagate_tags` every tag passes; without it none does, unless `single_key` is set, in
/// which case only the tags of that key are stopped and the others pass.
///
/// # Example
/// ```
/// use radioflow_blocks::{TagGate, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Tag};
///
/// let tags = vec![Tag::new(0, "a", 1i64), Tag::new(1, "b", 2i64)];
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, 2.0]).tags(tags));
/// let gate = fg.add(TagGate::<f32>::new(false).single_key("a"));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, gate)?;
/// fg.connect(gate, sink)?;
/// fg.run()?;
/// let sink = fg.block::<VectorSink<f32>>(sink).unwrap();
/// assert_eq!(sink.tags(), [Tag::new(1, "b", 2i64)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "tag_gate",
    summary = "Passes items; tags pass with propagate_tags, else none do, or (single_key set) all but that key's (GNU Radio's tag_gate).",
    dtypes = all,
    make = Self::new(propagate_tags).single_key(&single_key).with_vlen(vlen)
)]
#[param(propagate_tags: bool = false, doc = "let every tag pass")]
#[param(single_key: String = "", settable, doc = "without propagate_tags: stop only this key's tags (empty: stop all; set while running: from the next work call on)")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct TagGate<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The items, with the tags let through.
    #[output(name = "out")]
    output: StreamOutput<T>,
    propagate: bool,
    /// The key stopped, where only one is.
    single: Option<Pmt>,
}

#[block]
impl<T: Item> TagGate<T> {
    /// Passes every tag (`propagate_tags`) or none.
    pub fn new(propagate_tags: bool) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            propagate: propagate_tags,
            single: None,
        }
    }

    /// Without `propagate_tags`, stops only the tags of `key` (empty: all, the default).
    pub fn single_key(mut self, key: &str) -> Self {
        self.single = (!key.is_empty()).then(|| Pmt::symbol(key));
        self
    }

    /// Stops only the tags of `key` from the next work call on (empty: all), without
    /// `propagate_tags` (GNU Radio's `set_single_key`).
    pub fn set_single_key(&mut self, key: String) {
        self.single = (!key.is_empty()).then(|| Pmt::symbol(key.as_str()));
    }

    /// Items of `vlen` scalars.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.input.set_vlen(vlen);
        self.output.set_vlen(vlen);
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len().min(self.output.slice().len());
        self.output.slice()[..n].copy_from_slice(&self.input.slice()[..n]);
        if self.propagate {
            propagate_tags(&self.input, &mut self.output, n);
        } else if let Some(key) = &self.single {
            let (from, to) = (self.input.offset(), self.output.offset());
            let end = from + (n / self.input.vlen()) as u64;
            for t in self.input.tags().iter().take_while(|t| t.offset < end) {
                if t.key != *key {
                    self.output.add_tag_at(t.offset - from + to, t);
                }
            }
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
    fn tags_pass_all_none_or_all_but_one_key() {
        for (propagate, key, expected) in [
            (true, "", vec!["a", "b"]),
            (true, "a", vec!["a", "b"]),
            (false, "", vec![]),
            (false, "a", vec!["b"]),
        ] {
            let mut h = Harness::new(TagGate::<u8>::new(propagate).single_key(key));
            h.push_tag("in", 0, "a", 1i64);
            h.push_tag("in", 1, "b", 2i64);
            h.push("in", &[7u8, 8]);
            h.work().unwrap();
            let (items, tags) = h.take_output_with_tags::<u8>("out");
            assert_eq!(items, [7, 8]);
            let keys: Vec<String> = tags.iter().map(|t| t.key.to_string()).collect();
            assert_eq!(keys, expected, "{propagate} {key:?}");
        }
    }

    #[test]
    fn single_key_set_while_running_stops_that_key_from_the_next_call() {
        let mut h = Harness::new(TagGate::<u8>::new(false).single_key("a"));
        h.post("single_key", "b").unwrap();
        h.push_tag("in", 0, "a", 1i64);
        h.push_tag("in", 1, "b", 2i64);
        h.push("in", &[7u8, 8]);
        h.work().unwrap();
        let (_, tags) = h.take_output_with_tags::<u8>("out");
        assert_eq!(tags, [Tag::new(0, "a", 1i64)]);
    }
}
