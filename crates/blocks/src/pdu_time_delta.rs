//! [`PduTimeDelta`]: how long each PDU took since it was stamped.

use crate::pdu_time::{gnu_radio_pdu, system_time};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Passes each PDU on with metadata key `delta_key` set to the milliseconds since the system
/// time under `time_key` (as [`PduAddSystemTime`] stamps it), a double (GNU Radio's
/// `pdu.time_delta`), and keeps their mean and variance (Welford's running method, as GNU
/// Radio), logged when the graph stops and read with [`mean_ms`](Self::mean_ms) and
/// [`variance_ms`](Self::variance_ms). A PDU without a double under `time_key` is dropped with
/// a note, as GNU Radio drops it; a message that is not a PDU, with a warning.
///
/// It finishes when every sender has finished and its inbox is empty.
///
/// [`PduAddSystemTime`]: crate::PduAddSystemTime
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug, PduAddSystemTime, PduTimeDelta};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::pair(Pmt::Null, Pmt::blob(vec![1]))]));
/// let stamp = fg.add(PduAddSystemTime::new("system_time"));
/// let delta = fg.add(PduTimeDelta::new("time_delta_ms", "system_time"));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (stamp, "pdu"))?;
/// fg.connect_message((stamp, "pdu"), (delta, "pdu"))?;
/// fg.connect_message((delta, "pdu"), (dbg, "store"))?;
/// fg.run()?;
/// let pdu = &fg.block::<MessageDebug>(dbg).unwrap().messages()[0];
/// let ms = pdu.as_pair().unwrap().0.dict_get("time_delta_ms").and_then(Pmt::as_f64).unwrap();
/// assert!(ms >= 0.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pdu_time_delta",
    summary = "Each PDU arriving on `pdu` passed on with the milliseconds since its `time_key` \
               stamp under `delta_key`; their mean and variance logged at the stop (GNU Radio's \
               pdu.time_delta)."
)]
#[param(delta_key: String = "time_delta_ms", doc = "the metadata key of the delay it adds")]
#[param(time_key: String = "system_time", doc = "the metadata key of the stamp it reads")]
#[message_input(name = "pdu", doc = "PDUs: (metadata dict . uniform vector)")]
#[derive(Debug)]
pub struct PduTimeDelta {
    /// The PDUs with their delay.
    #[message_output(name = "pdu")]
    out: MessageOutput,
    delta_key: Pmt,
    time_key: Pmt,
    /// Delays measured.
    n: u64,
    mean: f64,
    /// Welford's sum of squared differences.
    squares: f64,
}

#[block]
impl PduTimeDelta {
    /// Measures from the stamp under `time_key` into `delta_key`.
    pub fn new(delta_key: impl AsRef<str>, time_key: impl AsRef<str>) -> Self {
        Self {
            out: MessageOutput::new(),
            delta_key: Pmt::symbol(delta_key.as_ref()),
            time_key: Pmt::symbol(time_key.as_ref()),
            n: 0,
            mean: 0.0,
            squares: 0.0,
        }
    }

    /// The mean delay in milliseconds so far (0 before the first).
    pub fn mean_ms(&self) -> f64 {
        self.mean
    }

    /// The delays' sample variance in ms² so far (GNU Radio's: 0 before the second, whose
    /// divisor `n - 1` GNU Radio's running variance uses).
    pub fn variance_ms(&self) -> f64 {
        if self.n > 1 {
            self.squares / (self.n - 1) as f64
        } else {
            0.0
        }
    }

    fn stop(&mut self) -> Result<(), BlockError> {
        tracing::info!(
            "Statistics for {}: Mean = {:.6} ms, Var = {:.6} ms",
            self.delta_key,
            self.mean_ms(),
            self.variance_ms()
        );
        Ok(())
    }

    #[message_input]
    fn pdu(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let now = system_time();
        let Some((meta, data)) = gnu_radio_pdu(pdu, "pdu_time_delta") else {
            return Ok(());
        };
        let Some(Pmt::Double(stamp)) = meta.dict_get(&self.time_key) else {
            tracing::info!("pdu_time_delta: PDU received with no system time at {now:.6}");
            return Ok(());
        };
        let ms = (now - stamp) * 1000.0;
        let previous = self.mean;
        self.n += 1;
        self.mean += (ms - self.mean) / self.n as f64;
        self.squares += (ms - self.mean) * (ms - previous);
        let mut meta = meta.clone();
        meta.dict_add(self.delta_key.clone(), Pmt::Double(ms));
        self.out.post(Pmt::pair(meta, data.clone()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn the_delay_since_the_stamp_and_its_statistics() {
        let mut h = Harness::new(PduTimeDelta::new("d", "t"));
        let stamp = |t: f64| Pmt::pair(Pmt::dict_from([("t", t)]), Pmt::U8Vector(vec![1].into()));
        // Stamps 2 s and 1 s before the post: delays between what the clock read around it.
        let mut bounds = Vec::new();
        for ago in [2.0, 1.0] {
            let before = system_time();
            h.post("pdu", stamp(before - ago)).unwrap();
            let after = system_time();
            bounds.push((ago * 1000.0, (after - before + ago) * 1000.0));
        }
        // Dropped: no stamp, a stamp that is not a double, not a PDU.
        h.post("pdu", Pmt::pair(Pmt::Null, Pmt::blob(vec![1])))
            .unwrap();
        h.post(
            "pdu",
            Pmt::pair(Pmt::dict_from([("t", 5i64)]), Pmt::blob(vec![1])),
        )
        .unwrap();
        h.post("pdu", Pmt::Int(1)).unwrap();
        let out = h.take_messages("pdu");
        assert_eq!(out.len(), 2);
        let delays: Vec<f64> = out
            .iter()
            .map(|p| {
                p.as_pair()
                    .unwrap()
                    .0
                    .dict_get("d")
                    .and_then(Pmt::as_f64)
                    .unwrap()
            })
            .collect();
        for (d, (lo, hi)) in delays.iter().zip(&bounds) {
            assert!((lo - 1e-3..=hi + 1e-3).contains(d), "{lo} <= {d} <= {hi}");
        }
        let b = h.block();
        let mean = (delays[0] + delays[1]) / 2.0;
        assert!((b.mean_ms() - mean).abs() < 1e-9);
        let var = (delays[0] - mean).powi(2) + (delays[1] - mean).powi(2);
        assert!(
            (b.variance_ms() - var).abs() < 1e-6,
            "{} {var}",
            b.variance_ms()
        );
    }
}
