//! [`PduSplit`]: each PDU's metadata and data sent on two outputs.

use crate::pdu_time::gnu_radio_pdu;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Sends each PDU's metadata dict on `dict` and its uniform vector on `vec` (GNU Radio's
/// `pdu.pdu_split`). An empty dict (nil) and an empty vector are not sent unless `pass_empty`;
/// a message that is not a PDU is dropped with a warning, as GNU Radio drops it.
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug, PduSplit};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let pdu = Pmt::pair(Pmt::dict_from([("snr", 9.5)]), Pmt::blob(vec![1, 2]));
/// let src = fg.add(MessageBurstSource::new(vec![pdu]));
/// let split = fg.add(PduSplit::new(false));
/// let (dicts, vecs) = (fg.add(MessageDebug::new()), fg.add(MessageDebug::new()));
/// fg.connect_message((src, "out"), (split, "pdu"))?;
/// fg.connect_message((split, "dict"), (dicts, "store"))?;
/// fg.connect_message((split, "vec"), (vecs, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(dicts).unwrap().messages(), [Pmt::dict_from([("snr", 9.5)])]);
/// assert_eq!(fg.block::<MessageDebug>(vecs).unwrap().messages(), [Pmt::blob(vec![1, 2])]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_split",
    summary = "Each PDU arriving on `pdu` split: its metadata dict sent on `dict`, its vector on \
               `vec` (GNU Radio's pdu.pdu_split)."
)]
#[param(pass_empty: bool = false, doc = "send empty dicts and vectors too")]
#[message_input(name = "pdu", doc = "PDUs: (metadata dict . uniform vector)")]
#[derive(Debug)]
pub struct PduSplit {
    /// The metadata dicts.
    #[message_output(name = "dict")]
    dict: MessageOutput,
    /// The data vectors.
    #[message_output(name = "vec")]
    vec: MessageOutput,
    pass_empty: bool,
}

#[block]
impl PduSplit {
    /// A split that sends empty parts too if `pass_empty`.
    pub fn new(pass_empty: bool) -> Self {
        Self {
            dict: MessageOutput::new(),
            vec: MessageOutput::new(),
            pass_empty,
        }
    }

    #[message_input]
    fn pdu(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let Some((meta, data)) = gnu_radio_pdu(pdu, "pdu_split") else {
            return Ok(());
        };
        // GNU Radio's empty dict is nil: an empty one is not sent either.
        if self.pass_empty || meta.as_dict().is_some_and(|d| !d.is_empty()) {
            self.dict.post(meta.clone());
        }
        let bytes = crate::pdu_item::uniform_bytes(data).map_or(0, <[u8]>::len);
        if self.pass_empty || bytes > 0 {
            self.vec.post(data.clone());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn empty_parts_are_sent_only_when_asked() {
        for pass_empty in [false, true] {
            let mut h = Harness::new(PduSplit::new(pass_empty));
            let full = Pmt::pair(Pmt::dict_from([("a", 1i64)]), Pmt::blob(vec![7]));
            let empty = Pmt::pair(Pmt::Null, Pmt::F32Vector(Vec::new().into()));
            h.post("pdu", full).unwrap();
            h.post("pdu", empty).unwrap();
            h.post("pdu", Pmt::Int(1)).unwrap();
            let (dicts, vecs) = (h.take_messages("dict"), h.take_messages("vec"));
            let mut want_dicts = vec![Pmt::dict_from([("a", 1i64)])];
            let mut want_vecs = vec![Pmt::blob(vec![7])];
            if pass_empty {
                want_dicts.push(Pmt::Null);
                want_vecs.push(Pmt::F32Vector(Vec::new().into()));
            }
            assert_eq!((dicts, vecs), (want_dicts, want_vecs), "{pass_empty}");
        }
    }
}
