//! [`ProtocolParser`]: packet headers found in a stream of bits, as messages.

use crate::{HeaderFormat, HeaderParser, Parsed};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Finds the headers of the [`HeaderFormat`] `format` in a stream of bits (one per byte) and
/// sends each one's info dict on `info` (GNU Radio's `digital.protocol_parser_b`; see
/// [`HeaderParser`]); a header whose checks fail sends `#f`. GNU Radio also sends `#f` after
/// every work call of the `default` and `counter` formats that found no header, a count that
/// depends on how its scheduler cut the stream: radioflow sends none of those.
///
/// # Example
/// ```
/// use radioflow_blocks::{MessageDebug, VectorSource};
/// use radioflow_blocks::runtime::{Flowgraph, Pmt};
/// use radioflow_digital::ProtocolParser;
///
/// // Access code 1010, then the length 3 twice (16 bits each).
/// let mut bits = vec![0u8, 1, 0, 1, 0];
/// for half in [3u16, 3] {
///     bits.extend((0..16).rev().map(|k| ((half >> k) & 1) as u8));
/// }
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(bits));
/// let parse = fg.add(ProtocolParser::new("default access_code=1010 threshold=0 bps=1".parse()?));
/// let dbg = fg.add(MessageDebug::new());
/// fg.connect(src, parse)?;
/// fg.connect_message((parse, "info"), (dbg, "store"))?;
/// fg.run()?;
/// assert_eq!(fg.block::<MessageDebug>(dbg).unwrap().messages(), [Pmt::dict_from([("payload symbols", 24i64)])]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "protocol_parser",
    summary = "Packet headers (of a header format) found in a stream of bits, their info dicts on `info` (GNU Radio's protocol_parser_b).",
    make = Self::new(format.parse().map_err(|e: crate::HeaderFormatError| Refused::param("format", e.to_string()))?)
)]
#[param(format: String, example = "default access_code=1010 threshold=0 bps=1", doc = "the header format: `default access_code=BITS threshold=N bps=N`, `counter …`, or `crc len_key=KEY num_key=KEY`")]
#[derive(Debug)]
pub struct ProtocolParser {
    /// Bits, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Each header's info dict, or `#f` for a bad header.
    #[message_output(name = "info")]
    info: MessageOutput,
    parser: HeaderParser,
}

#[block]
impl ProtocolParser {
    /// Finds headers of `format`.
    pub fn new(format: HeaderFormat) -> Self {
        Self {
            input: StreamInput::new(),
            info: MessageOutput::new(),
            parser: format.parser(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len();
        for &bit in self.input.slice() {
            match self.parser.push(bit) {
                Some(Parsed::Header(info)) => self.info.post(info),
                Some(Parsed::Bad) => self.info.post(Pmt::Bool(false)),
                None => {}
            }
        }
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}
