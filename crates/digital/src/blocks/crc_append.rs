//! [`CrcAppend`]: each byte PDU with its CRC appended.

use super::pdu_bytes::pdu_bytes;
use radioflow_dsp::{Crc, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Appends to each byte PDU arriving on `in` the CRC of its bytes after the first
/// `skip_header_bytes`, most significant byte first (least significant first with
/// `swap_endianness`), and sends it on `out` with its metadata (GNU Radio 3.10's
/// `digital.crc_append`). The CRC is any of 8 to 64 bits (a whole number of bytes) with
/// GNU Radio's parameters ([`Crc`]). A PDU no longer than its header is dropped with a
/// warning, as GNU Radio drops it.
///
/// # Errors
/// A message that is not a pair with a `u8vector` second stops the run.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
/// use radioflow_digital::CrcAppend;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::pair(Pmt::Null, Pmt::blob(b"123456789".to_vec()))]));
/// // CRC-32 (zlib's).
/// let crc = fg.add(CrcAppend::new(32, 0x04C1_1DB7, 0xFFFF_FFFF, 0xFFFF_FFFF, true, true, false, 0)?);
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (crc, "in"))?;
/// fg.connect_message((crc, "out"), (dbg, "store"))?;
/// fg.run()?;
/// let mut want = b"123456789".to_vec();
/// want.extend([0xCB, 0xF4, 0x39, 0x26]);
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [Pmt::pair(Pmt::Null, Pmt::blob(want))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "crc_append",
    summary = "Each byte PDU arriving on `in` with the CRC of its bytes (after a header) appended, on `out` (GNU Radio's crc_append).",
    make = Self::new(num_bits, poly, initial_value, final_xor, input_reflected, result_reflected, swap_endianness, skip_header_bytes).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(num_bits: u32 = 32, doc = "the CRC's width: 8 to 64, a whole number of bytes")]
#[param(poly: u64 = 0x04C1_1DB7, doc = "the polynomial, without its top bit")]
#[param(initial_value: u64 = 0xFFFF_FFFF, doc = "the register's first value")]
#[param(final_xor: u64 = 0xFFFF_FFFF, doc = "XORed into the result")]
#[param(input_reflected: bool = true, doc = "bytes least significant bit first")]
#[param(result_reflected: bool = true, doc = "the result reflected")]
#[param(swap_endianness: bool = false, doc = "the CRC's least significant byte first")]
#[param(skip_header_bytes: u64 = 0, doc = "leading bytes left out of the CRC")]
#[message_input(name = "in", doc = "byte PDUs: (metadata . u8vector)")]
#[derive(Debug)]
pub struct CrcAppend {
    /// The PDUs with their CRC.
    #[message_output(name = "out")]
    out: MessageOutput,
    crc: Crc,
    swap_endianness: bool,
    skip_header_bytes: usize,
}

#[block]
impl CrcAppend {
    /// GNU Radio's `crc_append` with its parameters.
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
        skip_header_bytes: u64,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            out: MessageOutput::new(),
            crc: crc_of(
                num_bits,
                poly,
                initial_value,
                final_xor,
                input_reflected,
                result_reflected,
            )?,
            swap_endianness,
            skip_header_bytes: usize::try_from(skip_header_bytes).unwrap_or(usize::MAX),
        })
    }

    #[message_input(name = "in")]
    fn receive(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let (meta, bytes) = pdu_bytes("crc_append", pdu)?;
        if bytes.len() <= self.skip_header_bytes {
            tracing::warn!("crc_append: PDU too short; dropping");
            return Ok(());
        }
        let crc = self.crc.compute(&bytes[self.skip_header_bytes..]);
        let mut out = Vec::with_capacity(bytes.len() + 8);
        out.extend_from_slice(bytes);
        put_crc(&mut out, crc, self.crc.bits(), self.swap_endianness);
        self.out.post(Pmt::pair(meta.clone(), Pmt::blob(out)));
        Ok(())
    }
}

/// GNU Radio's CRC parameters checked as its blocks check them (whole bytes).
pub(crate) fn crc_of(
    num_bits: u32,
    poly: u64,
    initial_value: u64,
    final_xor: u64,
    input_reflected: bool,
    result_reflected: bool,
) -> Result<Crc, ParamError> {
    if !num_bits.is_multiple_of(8) {
        return Err(ParamError::new(
            "num_bits",
            format!("{num_bits} is not a whole number of bytes"),
        ));
    }
    Crc::new(
        num_bits,
        poly,
        initial_value,
        final_xor,
        input_reflected,
        result_reflected,
    )
}

/// Appends the `bits / 8` bytes of `crc`, most significant first unless `swap`.
pub(crate) fn put_crc(out: &mut Vec<u8>, crc: u64, bits: u32, swap: bool) {
    let n = bits / 8;
    if swap {
        out.extend((0..n).map(|i| (crc >> (8 * i)) as u8));
    } else {
        out.extend((1..=n).map(|i| (crc >> (bits - 8 * i)) as u8));
    }
}

/// The CRC the last `bits / 8` bytes of `bytes` hold, written as [`put_crc`] writes it.
pub(crate) fn read_crc(bytes: &[u8], bits: u32, swap: bool) -> u64 {
    let tail = &bytes[bytes.len() - (bits / 8) as usize..];
    let fold = |acc: u64, &b: &u8| (acc << 8) | u64::from(b);
    if swap {
        tail.iter().rev().fold(0, fold)
    } else {
        tail.iter().fold(0, fold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn header_skipped_crc_either_order_short_pdus_dropped() {
        let crc16 = |swap, skip| CrcAppend::new(16, 0x1021, 0xFFFF, 0, false, false, swap, skip);
        let mut h = Harness::new(crc16(false, 2).unwrap());
        let meta = Pmt::dict_from([("a", 1i64)]);
        let mut pdu = vec![9u8, 9];
        pdu.extend(b"123456789");
        h.post("in", Pmt::pair(meta.clone(), Pmt::blob(pdu.clone())))
            .unwrap();
        h.post("in", Pmt::pair(Pmt::Null, Pmt::blob(vec![1, 2])))
            .unwrap();
        let mut want = pdu.clone();
        want.extend([0x29, 0xB1]);
        assert_eq!(
            h.take_messages("out"),
            [Pmt::pair(meta.clone(), Pmt::blob(want.clone()))]
        );
        let mut h = Harness::new(crc16(true, 2).unwrap());
        h.post("in", Pmt::pair(meta.clone(), Pmt::blob(pdu)))
            .unwrap();
        want[11..].reverse();
        assert_eq!(h.take_messages("out"), [Pmt::pair(meta, Pmt::blob(want))]);
        assert_eq!(read_crc(&[1, 0x29, 0xB1], 16, false), 0x29B1);
        assert_eq!(read_crc(&[1, 0xB1, 0x29], 16, true), 0x29B1);
    }

    #[test]
    fn bad_widths_and_messages_are_refused() {
        for bits in [12, 72, 0] {
            let e = CrcAppend::new(bits, 7, 0, 0, false, false, false, 0).unwrap_err();
            assert_eq!(e.name, "num_bits", "{bits}");
        }
        let mut h = Harness::new(CrcAppend::new(8, 7, 0, 0, false, false, false, 0).unwrap());
        let e = h.post("in", Pmt::pair(Pmt::Null, Pmt::F32Vector(vec![1.0].into())));
        assert!(e.unwrap_err().to_string().contains("crc_append in"));
    }
}
