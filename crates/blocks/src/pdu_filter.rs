//! [`PduFilter`]: the PDUs whose metadata holds one entry.

use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes on the PDUs whose metadata maps key `k` to `v`, or with `invert` the others (GNU
/// Radio's `pdu.pdu_filter`). Values compare as GNU Radio's `eqv`: numbers of the same kind
/// by value, symbols and booleans by name; a container (vector, list, dict) never matches,
/// since GNU Radio compares containers by identity and `v` is never the PDU's own. A pair
/// whose metadata is not a dict has no entry; a message that is not a pair is an error that
/// stops the run (GNU Radio's block stops handling messages).
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug, PduFilter};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let good = Pmt::pair(Pmt::dict_from([("crc_ok", true)]), Pmt::blob(vec![1]));
/// let bad = Pmt::pair(Pmt::dict_from([("crc_ok", false)]), Pmt::blob(vec![2]));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![good.clone(), bad]));
/// let filter = fg.add(PduFilter::new(Pmt::symbol("crc_ok"), Pmt::Bool(true), false));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (filter, "pdus"))?;
/// fg.connect_message((filter, "pdus"), (dbg, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [good]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_filter",
    summary = "The PDUs arriving on `pdus` whose metadata maps `k` to `v` (with `invert`, the others), passed on (GNU Radio's pdu_filter)."
)]
#[param(k: Pmt, doc = "the key")]
#[param(v: Pmt, doc = "the value")]
#[param(invert: bool = false, doc = "pass the PDUs that do not match instead")]
#[message_input(name = "pdus", doc = "PDUs: (metadata dict . data)")]
#[derive(Debug)]
pub struct PduFilter {
    /// The PDUs that pass.
    #[message_output(name = "pdus")]
    out: MessageOutput,
    k: Pmt,
    v: Pmt,
    invert: bool,
}

/// GNU Radio's `pmt::eqv` for two values that are not the same object.
fn eqv(a: &Pmt, b: &Pmt) -> bool {
    match (a, b) {
        (Pmt::Null, Pmt::Null) => true,
        (Pmt::Bool(x), Pmt::Bool(y)) => x == y,
        (Pmt::Symbol(x), Pmt::Symbol(y)) => x == y,
        (Pmt::Int(x), Pmt::Int(y)) => x == y,
        (Pmt::Uint64(x), Pmt::Uint64(y)) => x == y,
        (Pmt::Double(x), Pmt::Double(y)) => x == y,
        (Pmt::Complex(x), Pmt::Complex(y)) => x == y,
        _ => false,
    }
}

#[block]
impl PduFilter {
    /// Passes the PDUs with `k` mapped to `v` (the others with `invert`).
    pub fn new(k: Pmt, v: Pmt, invert: bool) -> Self {
        Self {
            out: MessageOutput::new(),
            k,
            v,
            invert,
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

    /// Passes the PDUs that do not match from the next one on (GNU Radio's `set_inversion`).
    pub fn set_inversion(&mut self, invert: bool) {
        self.invert = invert;
    }

    #[message_input]
    fn pdus(&mut self, pdu: Pmt) -> Result<(), BlockError> {
        let Some((meta, _)) = pdu.as_pair() else {
            return Err(BlockError::msg(format!(
                "pdus: {} is not a PDU (a pair of a metadata dict and data)",
                radioflow_runtime::echo::cut(&pdu.to_string())
            )));
        };
        let matches = meta.dict_get(&self.k).is_some_and(|v| eqv(v, &self.v));
        if matches != self.invert {
            self.out.post(pdu);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn passed(invert: bool, v: Pmt, pdus: &[Pmt]) -> Vec<Pmt> {
        let mut h = Harness::new(PduFilter::new(Pmt::symbol("a"), v, invert));
        for p in pdus {
            h.post("pdus", p.clone()).unwrap();
        }
        h.take_messages("pdus")
    }

    #[test]
    fn passes_the_matching_pdus_or_with_invert_the_others() {
        let data = Pmt::blob(vec![1, 2]);
        let one = Pmt::pair(Pmt::dict_from([("a", 1i64)]), data.clone());
        let none = Pmt::pair(Pmt::Null, data.clone());
        let not_dict = Pmt::pair(Pmt::Int(1), data.clone());
        let double = Pmt::pair(Pmt::dict_from([("a", 1.0f64)]), data.clone());
        let pdus = [one.clone(), none.clone(), not_dict.clone(), double.clone()];
        assert_eq!(passed(false, Pmt::Int(1), &pdus), [one]);
        assert_eq!(passed(true, Pmt::Int(1), &pdus), [none, not_dict, double]);
        // Containers never match (GNU Radio compares them by identity).
        let vector = Pmt::pair(Pmt::dict_from([("a", Pmt::blob(vec![1]))]), data);
        assert!(passed(false, Pmt::blob(vec![1]), &[vector]).is_empty());
    }

    #[test]
    fn what_is_not_a_pair_is_refused() {
        let mut h = Harness::new(PduFilter::new(Pmt::symbol("a"), Pmt::Int(1), false));
        assert!(h.post("pdus", Pmt::Int(3)).is_err());
    }
}
