//! [`TaggedStreamToPdu`]: each packet of a tagged stream as one PDU.

use crate::pdu_item::PduItem;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends each packet of a tagged stream as one PDU on `pdus` (GNU Radio's
/// `pdu.tagged_stream_to_pdu`): a packet starts at an item tagged `tag` = its length; the PDU
/// is the pair `(metadata . vector)`, the metadata a dict of the packet's other tags (added in
/// stream order, so a key tagged twice keeps its last value, first in the dict), the vector a
/// `u8vector`, `f32vector` or `c32vector` of the packet's items. A packet the stream ends
/// inside is dropped, as GNU Radio drops it.
///
/// # Errors
/// An item outside any packet (the stream does not start with a length tag) stops the run,
/// naming the item, as GNU Radio's "Missing a required length tag" does.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageDebug, StreamToTaggedStream, TaggedStreamToPdu, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4, 5]));
/// let tag = fg.add(StreamToTaggedStream::<u8>::new(2, "packet_len"));
/// let s2p = fg.add(TaggedStreamToPdu::<u8>::new("packet_len"));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect(src, tag)?;
/// fg.connect(tag, s2p)?;
/// fg.connect_message((s2p, "pdus"), (dbg, "store"))?;
/// fg.run()?;
/// let pdus = fg.block::<MessageDebug>(dbg).unwrap().messages();
/// assert_eq!(pdus, [
///     Pmt::pair(Pmt::Null, Pmt::blob(vec![1, 2])),
///     Pmt::pair(Pmt::Null, Pmt::blob(vec![3, 4])),
/// ]); // the last packet, [5], is not whole
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "tagged_stream_to_pdu",
    summary = "Each packet of a tagged stream (by its length tag) as one PDU on `pdus`, its other tags as the metadata (GNU Radio's tagged_stream_to_pdu).",
    dtypes = [Uint8, Float32, Complex32]
)]
#[param(tag: String = "packet_len", doc = "the length tag's key")]
#[derive(Debug)]
pub struct TaggedStreamToPdu<T: PduItem> {
    /// Packets, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// A PDU per packet.
    #[message_output]
    pdus: MessageOutput,
    key: Pmt,
    /// The packet being gathered: its items so far and their tags.
    items: Vec<T>,
    meta: Pmt,
    /// Items the packet still lacks (0: between packets).
    left: usize,
}

#[block]
impl<T: PduItem> TaggedStreamToPdu<T> {
    /// Packets marked by length tags of key `tag`.
    pub fn new(tag: impl AsRef<str>) -> Self {
        Self {
            input: StreamInput::new(),
            pdus: MessageOutput::new(),
            key: Pmt::symbol(tag.as_ref()),
            items: Vec::new(),
            meta: Pmt::Null,
            left: 0,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let avail = self.input.slice().len();
        let start = self.input.offset();
        let mut used = 0;
        while used < avail {
            let at = start + used as u64;
            if self.left == 0 {
                let len = self
                    .input
                    .tags()
                    .iter()
                    .rfind(|t| t.offset == at && t.key == self.key)
                    .map(|t| t.value.as_i64());
                let len = match len {
                    Some(Some(n)) if n >= 0 => n as usize,
                    Some(_) => {
                        return Err(BlockError::msg(format!(
                            "the length tag on item {at} is not a whole number >= 0"
                        )))
                    }
                    None => {
                        return Err(BlockError::msg(format!(
                            "item {at} is in no packet: it has no length tag '{}' \
                             (GNU Radio: \"Missing a required length tag\")",
                            self.key
                        )))
                    }
                };
                self.items.clear();
                self.meta = Pmt::Null;
                self.left = len;
                if len == 0 {
                    self.pdus.post(Pmt::pair(Pmt::Null, T::pdu_vector(&[])));
                    continue;
                }
            }
            let n = self.left.min(avail - used);
            let end = at + n as u64;
            for t in self.input.tags() {
                if (at..end).contains(&t.offset) && t.key != self.key {
                    self.meta.dict_add(t.key.clone(), t.value.clone());
                }
            }
            self.items
                .extend_from_slice(&self.input.slice()[used..used + n]);
            used += n;
            self.left -= n;
            if self.left == 0 {
                let meta = std::mem::replace(&mut self.meta, Pmt::Null);
                self.pdus.post(Pmt::pair(meta, T::pdu_vector(&self.items)));
            }
        }
        self.input.consume(used);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn packets_across_calls_gather_their_tags_and_the_last_value_of_a_key() {
        let mut h = Harness::new(TaggedStreamToPdu::<f32>::new("len"));
        h.push_tag("in", 0, "len", 3i64);
        h.push_tag("in", 1, "a", 7i64);
        h.push_tag("in", 1, "b", 8i64);
        h.push("in", &[0.0f32, 1.0]);
        h.work().unwrap();
        assert!(h.take_messages("pdus").is_empty());
        h.push_tag("in", 2, "a", 9i64);
        h.push_tag("in", 3, "len", 1i64);
        h.push("in", &[2.0f32, 3.0]);
        h.work().unwrap();
        let meta = Pmt::dict_from([("b", 8i64), ("a", 9)]);
        assert_eq!(
            h.take_messages("pdus"),
            [
                Pmt::pair(meta, Pmt::F32Vector(vec![0.0, 1.0, 2.0].into())),
                Pmt::pair(Pmt::Null, Pmt::F32Vector(vec![3.0].into())),
            ]
        );
    }

    #[test]
    fn an_item_before_any_length_tag_stops_the_run() {
        let mut h = Harness::new(TaggedStreamToPdu::<u8>::new("len"));
        h.push("in", &[1u8, 2]);
        let e = h.work().unwrap_err().to_string();
        assert!(e.contains("item 0") && e.contains("'len'"), "{e}");
    }
}
