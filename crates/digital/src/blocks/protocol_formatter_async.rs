//! [`ProtocolFormatterAsync`]: a header PDU and the payload PDU for each byte PDU.

use super::pdu_bytes::pdu_bytes;
use crate::HeaderFormat;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// For each byte PDU arriving on `in`, sends its header (of the [`HeaderFormat`] `format`,
/// for the payload's length) on `header` and then the PDU unchanged on `payload`, both with
/// the PDU's metadata (GNU Radio's `digital.protocol_formatter_async`). The `counter` and
/// `crc` formats number the headers from 0 (each block its own count: GNU Radio counts per
/// format object, which blocks may share).
///
/// # Errors
/// A message that is not a pair with a `u8vector` second stops the run.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageBurstSource, MessageDebug};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
/// use radioflow_digital::ProtocolFormatterAsync;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(MessageBurstSource::new(vec![Pmt::pair(Pmt::Null, Pmt::blob(vec![7; 3]))]));
/// let fmt = fg.add(ProtocolFormatterAsync::new("default access_code=10101010 threshold=0 bps=1".parse()?));
/// let hdr = fg.add(MessageDebug::new());
/// fg.connect_message((src, "out"), (fmt, "in"))?;
/// fg.connect_message((fmt, "header"), (hdr, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(hdr).unwrap().messages(), [Pmt::pair(Pmt::Null, Pmt::blob(vec![0xAA, 0, 3, 0, 3]))]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "protocol_formatter_async",
    summary = "For each byte PDU arriving on `in`, its header (of a header format) on `header` and the PDU on `payload` (GNU Radio's protocol_formatter_async).",
    make = Self::new(format.parse().map_err(|e: crate::HeaderFormatError| Refused::param("format", e.to_string()))?)
)]
#[param(format: String, example = "default access_code=1010 threshold=0 bps=1", doc = "the header format: `default access_code=BITS threshold=N bps=N`, `counter …`, or `crc len_key=KEY num_key=KEY`")]
#[message_input(name = "in", doc = "byte PDUs: (metadata . u8vector)")]
#[derive(Debug)]
pub struct ProtocolFormatterAsync {
    /// Each PDU's header: (metadata . u8vector).
    #[message_output(name = "header")]
    header: MessageOutput,
    /// Each PDU, as it came.
    #[message_output(name = "payload")]
    payload: MessageOutput,
    format: HeaderFormat,
    count: u64,
}

#[block]
impl ProtocolFormatterAsync {
    /// Headers of `format`.
    pub fn new(format: HeaderFormat) -> Self {
        Self {
            header: MessageOutput::new(),
            payload: MessageOutput::new(),
            format,
            count: 0,
        }
    }

    #[message_input(name = "in")]
    fn receive(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let (meta, bytes) = pdu_bytes("protocol_formatter_async", pdu)?;
        let header = self.format.format(bytes.len(), self.count);
        self.count = self.count.wrapping_add(1);
        self.header.post(Pmt::pair(meta.clone(), Pmt::blob(header)));
        self.payload.post(pdu.clone());
        Ok(())
    }
}
