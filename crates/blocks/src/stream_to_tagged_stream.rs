//! [`StreamToTaggedStream`]: marks a stream into packets of a fixed length.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes items through unchanged (with their tags) and tags every `packet_len`-th item, from
/// the first, with `len_tag_key` = `packet_len`: the length tag GNU Radio's tagged-stream
/// blocks read (GNU Radio's `stream_to_tagged_stream`).
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamToTaggedStream, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Tag};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![7u8; 10]));
/// let mark = fg.add(StreamToTaggedStream::<u8>::new(4, "packet_len"));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, mark)?;
/// fg.connect(mark, sink)?;
/// fg.run()?;
/// let tags: Vec<u64> = fg.block::<VectorSink<u8>>(sink).unwrap().tags().iter().map(|t| t.offset).collect();
/// assert_eq!(tags, [0, 4, 8]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "stream_to_tagged_stream",
    summary = "Tags every `packet_len`-th item with its packet's length (GNU Radio's stream_to_tagged_stream).",
    dtypes = all
)]
#[param(packet_len: u64, min = 1, doc = "items per packet")]
#[param(len_tag_key: String = "packet_len", doc = "the length tag's key")]
#[derive(Debug)]
pub struct StreamToTaggedStream<T: Item> {
    /// The items.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The same items, a length tag on the first of each packet.
    #[output(name = "out")]
    output: StreamOutput<T>,
    packet_len: u64,
    key: Pmt,
}

#[block]
impl<T: Item> StreamToTaggedStream<T> {
    /// Packets of `packet_len` items (at least 1), tagged with key `len_tag_key`.
    pub fn new(packet_len: u64, len_tag_key: impl AsRef<str>) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            packet_len: packet_len.max(1),
            key: Pmt::symbol(len_tag_key.as_ref()),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let start = self.output.offset();
        let n = copy_work(&mut self.input, &mut self.output, usize::MAX) as u64;
        // The first packet start at or after `start`.
        let mut at = start.div_ceil(self.packet_len) * self.packet_len;
        while at < start + n {
            // Tags may be added after produce for items of this call: the writer publishes
            // them with the items at the end of the call.
            self.output.add_tag(
                at,
                self.key.clone(),
                Pmt::Int(i64::try_from(self.packet_len).unwrap_or(i64::MAX)),
            );
            at += self.packet_len;
        }
        Ok(WorkStatus::Continue)
    }
}
