//! [`PduAddSystemTime`]: each PDU stamped with the time it passed.

use crate::pdu_time::{gnu_radio_pdu, system_time};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes each PDU on with metadata key `key` set to the system time it passed, in seconds
/// since 1970 as a double (GNU Radio's `pdu.add_system_time`; [`PduTimeDelta`] downstream
/// measures from it). The entry replaces one of the same key and goes first, as GNU Radio's
/// `dict_add`. A message that is not a PDU (a pair of a metadata dict and a uniform vector) is
/// dropped with a warning, as GNU Radio drops it.
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// [`PduTimeDelta`]: crate::PduTimeDelta
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug, PduAddSystemTime};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::pair(Pmt::Null, Pmt::blob(vec![1]))]));
/// let stamp = fg.add(PduAddSystemTime::new("system_time"));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (stamp, "pdu"))?;
/// fg.connect_message((stamp, "pdu"), (dbg, "store"))?;
/// fg.run()?;
/// let pdu = &fg.block::<MessageDebug>(dbg).unwrap().messages()[0];
/// let (meta, _) = pdu.as_pair().unwrap();
/// assert!(meta.dict_get("system_time").and_then(Pmt::as_f64).unwrap() > 1.7e9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_add_system_time",
    summary = "Each PDU arriving on `pdu` passed on with the system time (seconds since 1970) \
               under metadata key `key` (GNU Radio's pdu.add_system_time)."
)]
#[param(key: String = "system_time", doc = "the metadata key")]
#[message_input(name = "pdu", doc = "PDUs: (metadata dict . uniform vector)")]
#[derive(Debug)]
pub struct PduAddSystemTime {
    /// The PDUs with their time.
    #[message_output(name = "pdu")]
    out: MessageOutput,
    key: Pmt,
}

#[block]
impl PduAddSystemTime {
    /// Stamps each PDU under `key`.
    pub fn new(key: impl AsRef<str>) -> Self {
        Self {
            out: MessageOutput::new(),
            key: Pmt::symbol(key.as_ref()),
        }
    }

    #[message_input]
    fn pdu(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let Some((meta, data)) = gnu_radio_pdu(pdu, "pdu_add_system_time") else {
            return Ok(());
        };
        let mut meta = meta.clone();
        meta.dict_add(self.key.clone(), Pmt::Double(system_time()));
        self.out.post(Pmt::pair(meta, data.clone()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn stamps_the_time_it_passed_and_drops_what_is_not_a_pdu() {
        let mut h = Harness::new(PduAddSystemTime::new("t"));
        let before = system_time();
        let meta = Pmt::dict_from([("t", 1.0), ("a", 2.0)]);
        h.post("pdu", Pmt::pair(meta, Pmt::F32Vector(vec![1.0].into())))
            .unwrap();
        let after = system_time();
        // Not PDUs: no dict first, or no uniform vector second.
        h.post("pdu", Pmt::Int(3)).unwrap();
        h.post("pdu", Pmt::pair(Pmt::Null, Pmt::Int(4))).unwrap();
        let out = h.take_messages("pdu");
        assert_eq!(out.len(), 1);
        let (meta, data) = out[0].as_pair().unwrap();
        assert_eq!(data, &Pmt::F32Vector(vec![1.0].into()));
        let t = meta.dict_get("t").and_then(Pmt::as_f64).unwrap();
        assert!((before..=after).contains(&t), "{before} {t} {after}");
        assert_eq!(meta.as_dict().unwrap().len(), 2);
        assert_eq!(meta.dict_get("a"), Some(&Pmt::Double(2.0)));
    }
}
