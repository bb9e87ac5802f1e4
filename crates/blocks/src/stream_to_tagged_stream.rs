//! [`StreamToTaggedStream`]: marks a stream into packets of a fixed length.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes items through unchanged (with their tags) and tags every `packet_len`-th item, from
/// the first, with `len_tag_key` = `packet_len`: the length tag GNU Radio's tagged-stream
/// blocks read (GNU Radio's `stream_to_tagged_stream`). `packet_len` can be set while the
/// graph runs; the packet under way keeps its length (see
/// [`set_packet_len`](Self::set_packet_len)).
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
#[param(packet_len: u64, min = 1, settable, doc = "items per packet")]
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
    /// Where the next packet starts (its tag's offset).
    next: u64,
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
            next: 0,
        }
    }

    /// Packets of `packet_len` items from the next packet start on, as GNU Radio's
    /// `set_packet_len` and `set_packet_len_pmt` (GRC calls both): the packet under way keeps
    /// its length, the next one's tag (already due where the old length put it) carries the
    /// new length, and packets follow at the new length.
    pub fn set_packet_len(&mut self, packet_len: u64) {
        self.packet_len = packet_len.max(1);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let start = self.output.offset();
        let n = copy_work(&mut self.input, &mut self.output, usize::MAX) as u64;
        while self.next < start + n {
            // Tags may be added after produce for items of this call: the writer publishes
            // them with the items at the end of the call.
            self.output.add_tag(
                self.next,
                self.key.clone(),
                Pmt::Int(i64::try_from(self.packet_len).unwrap_or(i64::MAX)),
            );
            self.next += self.packet_len;
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn a_new_packet_len_starts_with_the_next_packet_as_gnu_radio_s() {
        let mut h = Harness::new(StreamToTaggedStream::<u8>::new(4, "packet_len"));
        h.push("in", &[0u8; 10]);
        h.work().unwrap();
        // Through the message input, as a running graph gets it; 0 is refused (ignored).
        h.post("packet_len", Pmt::Int(0)).unwrap();
        h.post("packet_len", Pmt::Int(3)).unwrap();
        h.push("in", &[0u8; 10]);
        h.work().unwrap();
        // GNU Radio's work: the tag at the next start already due (12, four after 8) carries
        // the new length, the next starts follow three apart.
        let tags: Vec<(u64, Pmt)> = h
            .output_tags("out")
            .into_iter()
            .map(|t| (t.offset, t.value))
            .collect();
        let want: Vec<(u64, Pmt)> = [(0, 4), (4, 4), (8, 4), (12, 3), (15, 3), (18, 3)]
            .into_iter()
            .map(|(o, v)| (o, Pmt::Int(v)))
            .collect();
        assert_eq!(tags, want);
        assert_eq!(h.take_output::<u8>("out"), [0u8; 20]);
    }
}
