//! [`CrcCheck`]: byte PDUs sorted by whether their CRC holds.

use super::crc_append::{crc_of, read_crc};
use super::pdu_bytes::pdu_bytes;
use radioflow_dsp::{Crc, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Checks the CRC that ends each byte PDU arriving on `in` (as [`CrcAppend`](crate::CrcAppend)
/// with the same parameters writes it) and sends the PDU with its metadata on `ok` where it
/// holds, on `fail` where not, without the CRC with `discard_crc` (GNU Radio 3.10's
/// `digital.crc_check`). A PDU no longer than its header and CRC is dropped with a warning,
/// as GNU Radio drops it. [`ok`](Self::ok) and [`failed`](Self::failed) count the PDUs.
///
/// # Errors
/// A message that is not a pair with a `u8vector` second stops the run.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
/// use radioflow_digital::CrcCheck;
///
/// let good = Pmt::pair(Pmt::Null, Pmt::blob(vec![0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0xCB, 0xF4, 0x39, 0x26]));
/// let bad = Pmt::pair(Pmt::Null, Pmt::blob(vec![0x30, 0xCB, 0xF4, 0x39, 0x26]));
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![good, bad.clone()]));
/// let check = fg.add(CrcCheck::new(32, 0x04C1_1DB7, 0xFFFF_FFFF, 0xFFFF_FFFF, true, true, false, true, 0)?);
/// let ok = fg.add(MessageDebug::new());
/// let fail = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (check, "in"))?;
/// fg.connect_message((check, "ok"), (ok, "store"))?;
/// fg.connect_message((check, "fail"), (fail, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(ok).unwrap().messages(), [Pmt::pair(Pmt::Null, Pmt::blob(b"123456789".to_vec()))]);
/// assert_eq!(fg.block::<MessageDebug>(fail).unwrap().messages(), [Pmt::pair(Pmt::Null, Pmt::blob(vec![0x30]))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "crc_check",
    summary = "Byte PDUs arriving on `in` sent on `ok` where the CRC that ends them holds, on `fail` where not (GNU Radio's crc_check).",
    make = Self::new(num_bits, poly, initial_value, final_xor, input_reflected, result_reflected, swap_endianness, discard_crc, skip_header_bytes).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(num_bits: u32 = 32, doc = "the CRC's width: 8 to 64, a whole number of bytes")]
#[param(poly: u64 = 0x04C1_1DB7, doc = "the polynomial, without its top bit")]
#[param(initial_value: u64 = 0xFFFF_FFFF, doc = "the register's first value")]
#[param(final_xor: u64 = 0xFFFF_FFFF, doc = "XORed into the result")]
#[param(input_reflected: bool = true, doc = "bytes least significant bit first")]
#[param(result_reflected: bool = true, doc = "the result reflected")]
#[param(swap_endianness: bool = false, doc = "the CRC's least significant byte first")]
#[param(discard_crc: bool = false, doc = "send the PDUs without their CRC")]
#[param(skip_header_bytes: u64 = 0, doc = "leading bytes left out of the CRC")]
#[message_input(name = "in", doc = "byte PDUs ending with their CRC")]
#[derive(Debug)]
pub struct CrcCheck {
    /// The PDUs whose CRC holds.
    #[message_output(name = "ok")]
    ok_out: MessageOutput,
    /// The PDUs whose CRC does not hold.
    #[message_output(name = "fail")]
    fail_out: MessageOutput,
    crc: Crc,
    swap_endianness: bool,
    discard_crc: bool,
    skip_header_bytes: usize,
    ok: u64,
    failed: u64,
}

#[block]
impl CrcCheck {
    /// GNU Radio's `crc_check` with its parameters.
    ///
    /// # Errors
    /// `num_bits` not 8 to 64 or not a whole number of bytes, naming the parameter.
    #[allow(clippy::too_many_arguments)] // GNU Radio's parameters, in its order
    pub fn new(
        num_bits: u32,
        poly: u64,
        initial_value: u64,
        final_xor: u64,
        input_reflected: bool,
        result_reflected: bool,
        swap_endianness: bool,
        discard_crc: bool,
        skip_header_bytes: u64,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            ok_out: MessageOutput::new(),
            fail_out: MessageOutput::new(),
            crc: crc_of(
                num_bits,
                poly,
                initial_value,
                final_xor,
                input_reflected,
                result_reflected,
            )?,
            swap_endianness,
            discard_crc,
            skip_header_bytes: usize::try_from(skip_header_bytes).unwrap_or(usize::MAX),
            ok: 0,
            failed: 0,
        })
    }

    /// PDUs whose CRC held.
    pub fn ok(&self) -> u64 {
        self.ok
    }

    /// PDUs whose CRC did not hold (those too short not counted).
    pub fn failed(&self) -> u64 {
        self.failed
    }

    #[message_input(name = "in")]
    fn receive(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let (meta, bytes) = pdu_bytes("crc_check", pdu)?;
        let crc_bytes = (self.crc.bits() / 8) as usize;
        if bytes.len() <= self.skip_header_bytes.saturating_add(crc_bytes) {
            tracing::warn!("crc_check: PDU too short; dropping");
            return Ok(());
        }
        let body = &bytes[..bytes.len() - crc_bytes];
        let held = self.crc.compute(&body[self.skip_header_bytes..])
            == read_crc(bytes, self.crc.bits(), self.swap_endianness);
        let kept = if self.discard_crc { body } else { bytes };
        let out = Pmt::pair(meta.clone(), Pmt::blob(kept.to_vec()));
        if held {
            self.ok += 1;
            self.ok_out.post(out);
        } else {
            self.failed += 1;
            self.fail_out.post(out);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn sorts_counts_and_drops_what_is_too_short() {
        // CRC-8, header of one byte, CRC kept.
        let mut h =
            Harness::new(CrcCheck::new(8, 0x07, 0, 0, false, false, false, false, 1).unwrap());
        let crc = Crc::new(8, 0x07, 0, 0, false, false).unwrap();
        let good = vec![0xAA, 1, 2, 3, crc.compute(&[1, 2, 3]) as u8];
        let mut bad = good.clone();
        bad[0] ^= 1; // the header is not covered
        bad[2] ^= 1;
        let meta = Pmt::dict_from([("x", 1i64)]);
        for bytes in [good.clone(), bad.clone(), vec![0xAA, 0x00]] {
            h.post("in", Pmt::pair(meta.clone(), Pmt::blob(bytes)))
                .unwrap();
        }
        assert_eq!(
            h.take_messages("ok"),
            [Pmt::pair(meta.clone(), Pmt::blob(good))]
        );
        assert_eq!(h.take_messages("fail"), [Pmt::pair(meta, Pmt::blob(bad))]);
        assert_eq!((h.block().ok(), h.block().failed()), (1, 1));
    }
}
