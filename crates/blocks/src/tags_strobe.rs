//! [`TagsStrobe`]: zeros with a tag every `nsamps` items.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// An endless stream of zeros with the tag `(key, value)` on items `nsamps`, `2·nsamps`, ...
/// (GNU Radio's `blocks.tags_strobe`: the first tag is on item `nsamps`, not 0). An item is a
/// vector of `vlen` zeros where `vlen` is above 1. The tags' source id is `tags_strobe`
/// (GNU Radio's is the block's name with its unique number, `tags_strobe3`, which depends on
/// how many blocks the process made before).
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, TagsStrobe, VectorSink};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(TagsStrobe::<f32>::new(Pmt::symbol("strobe"), Pmt::symbol("TEST"), 4));
/// let head = fg.add(Head::<f32>::new(10));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let offsets: Vec<u64> = fg.block::<VectorSink<f32>>(sink).unwrap().tags().iter().map(|t| t.offset).collect();
/// assert_eq!(offsets, [4, 8]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "tags_strobe",
    summary = "Zeros, endlessly, with the tag (key, value) on items nsamps, 2 nsamps, ... (GNU Radio's tags_strobe).",
    dtypes = all,
    make = Ok::<_, Refused>(Self::new(key, value, nsamps).with_vlen(vlen))
)]
#[param(key: Pmt, doc = "the tags' key")]
#[param(value: Pmt, doc = "the tags' value")]
#[param(nsamps: u64, min = 1, doc = "items from one tag to the next (the first on item nsamps)")]
#[param(vlen: usize = 1, min = 1, doc = "scalars per item (GNU Radio's vector length)")]
#[derive(Debug)]
pub struct TagsStrobe<T: Item> {
    /// Zeros, tagged.
    #[output(name = "out")]
    output: StreamOutput<T>,
    key: Pmt,
    value: Pmt,
    nsamps: u64,
    /// The item the next tag goes on.
    next: u64,
}

#[block]
impl<T: Item> TagsStrobe<T> {
    /// Zeros with `(key, value)` on every `nsamps`-th item.
    ///
    /// # Panics
    /// If `nsamps` is 0 (the registry refuses it by name).
    pub fn new(key: Pmt, value: Pmt, nsamps: u64) -> Self {
        assert!(nsamps > 0, "tags_strobe: nsamps must be at least 1");
        Self {
            output: StreamOutput::new(),
            key,
            value,
            nsamps,
            next: nsamps,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let start = self.output.offset();
        let out = self.output.slice();
        let n = out.len();
        bytemuck::cast_slice_mut::<T, u8>(out).fill(0);
        let end = start + (n / self.output.vlen()) as u64;
        while self.next < end {
            self.output.push_tag(
                Tag::new(self.next, self.key.clone(), self.value.clone())
                    .with_srcid(Pmt::symbol("tags_strobe")),
            );
            self.next += self.nsamps;
        }
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }

    /// Items of `vlen` zeros.
    pub fn with_vlen(mut self, vlen: usize) -> Self {
        self.output.set_vlen(vlen);
        self
    }
}
