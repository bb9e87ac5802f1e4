//! [`PduToTaggedStream`]: each PDU that arrives as a packet of a tagged stream.

use crate::pdu_item::{uniform_bytes, PduItem};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::collections::VecDeque;

/// Writes the vector of each PDU that arrives on `pdus` as one packet of items (GNU Radio's
/// `pdu.pdu_to_tagged_stream`). A PDU is GNU Radio's pair `(metadata . vector)`: a dict (or
/// nil) and a uniform vector. The packet's first item carries a tag for each metadata entry,
/// in the dict's order, then the length tag `tag` = the packet's length.
///
/// As GNU Radio's, it reads the vector's bytes as items of the block's type whatever the
/// vector's own type (a `u8vector` of 9 bytes is 2 floats; the bytes left over are dropped),
/// and a vector shorter than one item gives no packet. A message that is not a PDU is an
/// error that stops the run (GNU Radio's stops too).
///
/// It runs until the run is stopped or nothing reads its output, as GNU Radio's.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, MessageBurstSource, PduToTaggedStream, VectorSink};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let pdu = Pmt::pair(Pmt::Null, Pmt::blob(vec![1, 2, 3]));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::repeat(pdu, 2));
/// let p2s = fg.add(PduToTaggedStream::<u8>::new("packet_len"));
/// let head = fg.add(Head::<u8>::new(6));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect_message((src, "out"), (p2s, "pdus"))?;
/// fg.connect(p2s, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let sink = fg.block::<VectorSink<u8>>(sink).unwrap();
/// assert_eq!(sink.data(), [1, 2, 3, 1, 2, 3]);
/// assert_eq!(sink.tags().iter().map(|t| t.offset).collect::<Vec<_>>(), [0, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_to_tagged_stream",
    summary = "Each PDU arriving on `pdus` as one packet of items, tagged with its metadata and its length (GNU Radio's pdu_to_tagged_stream).",
    dtypes = [Uint8, Float32, Complex32]
)]
#[param(tag: String = "packet_len", doc = "the length tag's key")]
#[message_input(name = "pdus", doc = "PDUs: (metadata dict . uniform vector)")]
#[derive(Debug)]
pub struct PduToTaggedStream<T: PduItem> {
    /// The PDUs' items, one packet each.
    #[output(name = "out")]
    output: StreamOutput<T>,
    key: Pmt,
    /// PDUs waiting: metadata and vector.
    queue: VecDeque<(Pmt, Pmt)>,
    /// Items of the front PDU already written.
    written: usize,
}

#[block]
impl<T: PduItem> PduToTaggedStream<T> {
    /// Packets tagged with key `tag`.
    pub fn new(tag: impl AsRef<str>) -> Self {
        Self {
            output: StreamOutput::new(),
            key: Pmt::symbol(tag.as_ref()),
            queue: VecDeque::new(),
            written: 0,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let size = std::mem::size_of::<T>();
        while let Some((meta, vector)) = self.queue.front() {
            let bytes = uniform_bytes(vector).expect("checked on arrival");
            let len = bytes.len() / size;
            let out = self.output.slice();
            let n = out.len().min(len - self.written);
            if n == 0 {
                break;
            }
            let from = self.written * size;
            bytemuck::cast_slice_mut::<T, u8>(&mut out[..n])
                .copy_from_slice(&bytes[from..from + n * size]);
            if self.written == 0 {
                let at = self.output.offset();
                for (k, v) in meta.as_dict().expect("checked on arrival") {
                    self.output.add_tag(at, k.clone(), v.clone());
                }
                let len = i64::try_from(len).unwrap_or(i64::MAX);
                self.output.add_tag(at, self.key.clone(), Pmt::Int(len));
            }
            self.output.produce(n);
            self.written += n;
            if self.written == len {
                self.queue.pop_front();
                self.written = 0;
            }
        }
        Ok(WorkStatus::Continue)
    }

    #[message_input]
    fn pdus(&mut self, pdu: Pmt) -> Result<(), BlockError> {
        let Some((meta, vector)) = pdu.as_pair() else {
            return Err(BlockError::msg(format!(
                "pdus: {} is not a PDU (a pair of a metadata dict and a uniform vector)",
                radioflow_runtime::echo::cut(&pdu.to_string())
            )));
        };
        if !meta.is_dict() {
            return Err(BlockError::msg("pdus: a PDU's metadata is not a dict"));
        }
        let Some(bytes) = uniform_bytes(vector) else {
            return Err(BlockError::msg(
                "pdus: a PDU's data is not a uniform vector",
            ));
        };
        // Shorter than one item: GNU Radio writes nothing for it either.
        if bytes.len() >= std::mem::size_of::<T>() {
            self.queue.push_back((meta.clone(), vector.clone()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn packets_in_pieces_carry_their_tags_on_the_first_item() {
        let meta = Pmt::dict_from([("x", 1i64), ("y", 2)]);
        let mut h = Harness::new(PduToTaggedStream::<f32>::new("len"));
        h.set_space("out", 3);
        h.post(
            "pdus",
            Pmt::pair(meta, Pmt::F32Vector(vec![1.0, 2.0, 3.0, 4.0].into())),
        )
        .unwrap();
        // Too short for one float: no packet.
        h.post("pdus", Pmt::pair(Pmt::Null, Pmt::blob(vec![1, 2, 3])))
            .unwrap();
        h.post(
            "pdus",
            Pmt::pair(Pmt::Null, Pmt::blob(1.5f32.to_ne_bytes().to_vec())),
        )
        .unwrap();
        h.work().unwrap();
        h.set_space("out", 10);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<f32>("out");
        assert_eq!(items, [1.0, 2.0, 3.0, 4.0, 1.5]);
        let tags: Vec<(u64, Pmt, Pmt)> = tags
            .into_iter()
            .map(|t| (t.offset, t.key, t.value))
            .collect();
        assert_eq!(
            tags,
            [
                (0, Pmt::symbol("y"), Pmt::Int(2)),
                (0, Pmt::symbol("x"), Pmt::Int(1)),
                (0, Pmt::symbol("len"), Pmt::Int(4)),
                (4, Pmt::symbol("len"), Pmt::Int(1)),
            ]
        );
    }

    #[test]
    fn what_is_not_a_pdu_is_refused() {
        let mut h = Harness::new(PduToTaggedStream::<u8>::new("len"));
        assert!(h.post("pdus", Pmt::Int(1)).is_err());
        assert!(h
            .post("pdus", Pmt::pair(Pmt::Int(1), Pmt::blob(vec![1])))
            .is_err());
        assert!(h.post("pdus", Pmt::pair(Pmt::Null, Pmt::Int(1))).is_err());
    }
}
