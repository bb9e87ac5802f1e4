//! [`ProtocolParser`]: packet headers found in a stream of bits, as messages.

use crate::{HeaderFormat, HeaderParser, Parsed};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Finds the headers of the [`HeaderFormat`] `format` in a stream of bits (one per byte) and
/// sends each one's info dict on `info` (GNU Radio's `digital.protocol_parser_b`; see
/// [`HeaderParser`]); a header whose checks fail sends `#f`. As GNU Radio's, each work call
/// reads up to the end of the first header (good or bad) and sends one message: the header's
/// dict, or `#f` for a bad header or where the call's bits held none (a count that depends on
/// how the scheduler cut the stream; a header/payload demux fed one header at a time gets
/// exactly one verdict per header, which it waits for).
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
        // As GNU Radio's work: up to the first header (its dict) or bad header (`#f`), or
        // through the input and `#f` where it held no header.
        let x = self.input.slice();
        if x.is_empty() {
            return Ok(WorkStatus::Continue);
        }
        let mut n = x.len();
        let mut verdict = Pmt::Bool(false);
        for (i, &bit) in x.iter().enumerate() {
            match self.parser.push(bit) {
                Some(Parsed::Header(info)) => {
                    verdict = info;
                    n = i + 1;
                    break;
                }
                Some(Parsed::Bad) => {
                    n = i + 1;
                    break;
                }
                None => {}
            }
        }
        self.info.post(verdict);
        self.input.consume(n);
        Ok(WorkStatus::Continue)
    }
}
