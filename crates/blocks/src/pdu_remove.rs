//! [`PduRemove`]: each PDU with one metadata entry removed.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes each PDU on with the metadata entry of key `k` removed, if it has one (GNU Radio's
/// `pdu.pdu_remove`). The PDU's data passes as it is, whatever it is. A message that is not a
/// pair with a dict (or nil) first is an error that stops the run (GNU Radio's block stops
/// handling messages).
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug, PduRemove};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let meta = Pmt::dict_from([("snr", 9.5)]);
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::pair(meta, Pmt::blob(vec![1]))]));
/// let remove = fg.add(PduRemove::new(Pmt::symbol("snr")));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (remove, "pdus"))?;
/// fg.connect_message((remove, "pdus"), (dbg, "store"))?;
/// fg.run()?;
/// let empty = Pmt::dict_from::<Pmt, Pmt>([]);
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [Pmt::pair(empty, Pmt::blob(vec![1]))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_remove",
    summary = "Each PDU arriving on `pdus` passed on without its metadata entry of key `k` (GNU Radio's pdu_remove)."
)]
#[param(k: Pmt, doc = "the key")]
#[message_input(name = "pdus", doc = "PDUs: (metadata dict . data)")]
#[derive(Debug)]
pub struct PduRemove {
    /// The PDUs without the entry.
    #[message_output(name = "pdus")]
    out: MessageOutput,
    k: Pmt,
}

#[block]
impl PduRemove {
    /// Removes key `k`.
    pub fn new(k: Pmt) -> Self {
        Self {
            out: MessageOutput::new(),
            k,
        }
    }

    /// Sets the key from the next PDU on (GNU Radio's `set_key`).
    pub fn set_key(&mut self, k: Pmt) {
        self.k = k;
    }

    #[message_input]
    fn pdus(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let (meta, data) = crate::pdu_item::pdu_parts(pdu)?;
        let entries = meta.as_dict().expect("checked by pdu_parts");
        let meta = if entries.iter().any(|(k, _)| *k == self.k) {
            // GNU Radio's `dict_delete` of the last entry leaves nil, its empty dict.
            Pmt::dict_from(
                entries
                    .iter()
                    .rev()
                    .filter(|(k, _)| *k != self.k)
                    .map(|(k, v)| (k.clone(), v.clone())),
            )
        } else {
            meta.clone()
        };
        self.out.post(Pmt::pair(meta, data.clone()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn removes_the_entry_and_keeps_the_order_of_the_others() {
        let mut h = Harness::new(PduRemove::new(Pmt::symbol("a")));
        let meta = Pmt::dict_from([("x", 1i64), ("a", 2), ("y", 3)]);
        h.post("pdus", Pmt::pair(meta, Pmt::Int(4))).unwrap();
        h.post("pdus", Pmt::pair(Pmt::Null, Pmt::blob(vec![1])))
            .unwrap();
        assert_eq!(
            h.take_messages("pdus"),
            [
                Pmt::pair(Pmt::dict_from([("x", 1i64), ("y", 3)]), Pmt::Int(4)),
                Pmt::pair(Pmt::Null, Pmt::blob(vec![1])),
            ]
        );
    }

    #[test]
    fn what_is_not_a_pdu_is_refused() {
        let mut h = Harness::new(PduRemove::new(Pmt::symbol("a")));
        assert!(h.post("pdus", Pmt::Int(3)).is_err());
        assert!(h
            .post("pdus", Pmt::pair(Pmt::Int(1), Pmt::blob(vec![1])))
            .is_err());
    }
}
