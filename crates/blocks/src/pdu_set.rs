//! [`PduSet`]: each PDU with one metadata entry set.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes each PDU on with metadata key `k` set to `v` (GNU Radio's `pdu.pdu_set`): the
/// entry goes first in the dict, replacing an entry of the same key, as GNU Radio's
/// `dict_add`. The PDU's data passes as it is, whatever it is. A message that is not a pair
/// with a dict (or nil) first is an error that stops the run (GNU Radio's block stops handling
/// messages).
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug, PduSet};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::pair(Pmt::Null, Pmt::blob(vec![1]))]));
/// let set = fg.add(PduSet::new(Pmt::symbol("snr"), Pmt::Double(9.5)));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (set, "pdus"))?;
/// fg.connect_message((set, "pdus"), (dbg, "store"))?;
/// fg.run()?;
/// let meta = Pmt::dict_from([("snr", 9.5)]);
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [Pmt::pair(meta, Pmt::blob(vec![1]))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_set",
    summary = "Each PDU arriving on `pdus` passed on with metadata key `k` set to `v` (GNU Radio's pdu_set)."
)]
#[param(k: Pmt, doc = "the key")]
#[param(v: Pmt, doc = "the value")]
#[message_input(name = "pdus", doc = "PDUs: (metadata dict . data)")]
#[derive(Debug)]
pub struct PduSet {
    /// The PDUs with the entry set.
    #[message_output(name = "pdus")]
    out: MessageOutput,
    k: Pmt,
    v: Pmt,
}

#[block]
impl PduSet {
    /// Sets key `k` to `v`.
    pub fn new(k: Pmt, v: Pmt) -> Self {
        Self {
            out: MessageOutput::new(),
            k,
            v,
        }
    }

    /// Sets the key from the next PDU on (GNU Radio's `set_key`).
    pub fn set_key(&mut self, k: Pmt) {
        self.k = k;
    }

    /// Sets the value from the next PDU on (GNU Radio's `set_val`).
    pub fn set_val(&mut self, v: Pmt) {
        self.v = v;
    }

    #[message_input]
    fn pdus(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let (meta, data) = crate::pdu_item::pdu_parts(pdu)?;
        let mut meta = meta.clone();
        meta.dict_add(self.k.clone(), self.v.clone());
        self.out.post(Pmt::pair(meta, data.clone()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn sets_the_entry_first_and_passes_the_data() {
        let mut h = Harness::new(PduSet::new(Pmt::symbol("k"), Pmt::Int(5)));
        let old = Pmt::dict_from([("k", 1i64), ("a", 2)]);
        h.post("pdus", Pmt::pair(old, Pmt::Int(4))).unwrap();
        h.block_mut().set_val(Pmt::Int(6));
        h.post("pdus", Pmt::pair(Pmt::Null, Pmt::blob(vec![1])))
            .unwrap();
        assert_eq!(
            h.take_messages("pdus"),
            [
                Pmt::pair(Pmt::dict_from([("a", 2i64), ("k", 5)]), Pmt::Int(4)),
                Pmt::pair(Pmt::dict_from([("k", 6i64)]), Pmt::blob(vec![1])),
            ]
        );
    }

    #[test]
    fn what_is_not_a_pdu_is_refused() {
        let mut h = Harness::new(PduSet::new(Pmt::symbol("k"), Pmt::Int(5)));
        assert!(h.post("pdus", Pmt::Int(3)).is_err());
        assert!(h
            .post("pdus", Pmt::pair(Pmt::Int(1), Pmt::blob(vec![1])))
            .is_err());
    }
}
