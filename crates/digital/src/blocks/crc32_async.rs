//! [`Crc32Async`]: CRC-32 appended to byte PDUs, or checked and removed.

use super::pdu_bytes::pdu_bytes;
use radioflow_dsp::Crc;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// GNU Radio's `digital.crc32_async_bb`: without `check`, appends to each byte PDU arriving
/// on `in` its CRC-32 (zlib's, least significant byte first, as GNU Radio writes it on a
/// little-endian machine) and sends it on `out`; with `check`, sends on `out` each PDU whose
/// last four bytes are the CRC-32 of the others, without them, and drops the others, counting
/// both ([`passed`](Self::passed), [`failed`](Self::failed)). The metadata passes unchanged.
/// A PDU shorter than four bytes fails the check (GNU Radio reads before its start).
///
/// # Errors
/// A message that is not a pair with a `u8vector` second stops the run.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
/// use radioflow_digital::Crc32Async;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::pair(Pmt::Null, Pmt::blob(b"123456789".to_vec()))]));
/// let add = fg.add(Crc32Async::new(false));
/// let check = fg.add(Crc32Async::new(true));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (add, "in"))?;
/// fg.connect_message((add, "out"), (check, "in"))?;
/// fg.connect_message((check, "out"), (dbg, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [Pmt::pair(Pmt::Null, Pmt::blob(b"123456789".to_vec()))]);
/// assert_eq!(fg.block::<Crc32Async>(check).unwrap().passed(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "crc32_async",
    summary = "CRC-32 appended to each byte PDU arriving on `in`, or with `check` checked and removed (bad PDUs dropped), on `out` (GNU Radio's crc32_async_bb)."
)]
#[param(check: bool = false, doc = "check and remove the CRC (drop PDUs where it fails) instead of appending it")]
#[message_input(name = "in", doc = "byte PDUs: (metadata . u8vector)")]
#[derive(Debug)]
pub struct Crc32Async {
    /// The PDUs with their CRC, or checked without it.
    #[message_output(name = "out")]
    out: MessageOutput,
    check: bool,
    crc: Crc,
    passed: u64,
    failed: u64,
}

#[block]
impl Crc32Async {
    /// Appends CRC-32s, or with `check` checks and removes them.
    pub fn new(check: bool) -> Self {
        Self {
            out: MessageOutput::new(),
            check,
            crc: crc32(),
            passed: 0,
            failed: 0,
        }
    }

    /// PDUs whose CRC held (check mode).
    pub fn passed(&self) -> u64 {
        self.passed
    }

    /// PDUs dropped because their CRC did not hold (check mode).
    pub fn failed(&self) -> u64 {
        self.failed
    }

    #[message_input(name = "in")]
    fn receive(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let (meta, bytes) = pdu_bytes("crc32_async", pdu)?;
        if !self.check {
            let mut out = Vec::with_capacity(bytes.len() + 4);
            out.extend_from_slice(bytes);
            out.extend_from_slice(&(self.crc.compute(bytes) as u32).to_le_bytes());
            self.out.post(Pmt::pair(meta.clone(), Pmt::blob(out)));
            return Ok(());
        }
        let held = bytes.len() >= 4 && {
            let (body, tail) = bytes.split_at(bytes.len() - 4);
            self.crc.compute(body) as u32 == u32::from_le_bytes(tail.try_into().expect("4 bytes"))
        };
        if held {
            self.passed += 1;
            let body = bytes[..bytes.len() - 4].to_vec();
            self.out.post(Pmt::pair(meta.clone(), Pmt::blob(body)));
        } else {
            self.failed += 1;
        }
        Ok(())
    }
}

/// GNU Radio's CRC-32 (Ethernet's, zlib's).
pub(crate) fn crc32() -> Crc {
    Crc::new(32, 0x04C1_1DB7, 0xFFFF_FFFF, 0xFFFF_FFFF, true, true).expect("32 bits")
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn check_drops_and_counts_bad_and_short_pdus() {
        let mut h = Harness::new(Crc32Async::new(true));
        let meta = Pmt::dict_from([("m", 2i64)]);
        let good = vec![7, 0x2E, 0x7A, 0x66, 0x4C]; // zlib.crc32(b"\x07") = 0x4C667A2E
        let mut bad = good.clone();
        bad[0] = 8;
        for bytes in [good, bad, vec![1, 2, 3], vec![]] {
            h.post("in", Pmt::pair(meta.clone(), Pmt::blob(bytes)))
                .unwrap();
        }
        assert_eq!(
            h.take_messages("out"),
            [Pmt::pair(meta, Pmt::blob(vec![7]))]
        );
        assert_eq!((h.block().passed(), h.block().failed()), (1, 3));
    }
}
