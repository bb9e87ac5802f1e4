//! [`pdu_bytes`]: a byte PDU's metadata and bytes, as GNU Radio's byte-PDU blocks read them.

use radioflow_runtime::{BlockError, Pmt};

/// The metadata (whatever it is: GNU Radio passes `car` on untouched) and the bytes of a PDU
/// whose data is a `u8vector`, or an error naming `block` and its port `in` (GNU Radio's
/// `u8vector_elements` throws on anything else, which stops its block).
pub(crate) fn pdu_bytes<'a>(block: &str, pdu: &'a Pmt) -> Result<(&'a Pmt, &'a [u8]), BlockError> {
    match pdu.as_pair() {
        Some((meta, Pmt::U8Vector(bytes))) => Ok((meta, &bytes[..])),
        _ => Err(BlockError::msg(format!(
            "{block} in: {} is not a byte PDU (a pair of metadata and a u8vector)",
            radioflow_runtime::echo::cut(&pdu.to_string())
        ))),
    }
}
