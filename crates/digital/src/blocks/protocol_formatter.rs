//! [`ProtocolFormatter`]: a header packet for each packet of a tagged byte stream.

use crate::HeaderFormat;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// For each packet of a tagged byte stream (packets marked by length tags of key
/// `len_tag_key`), writes its header (of the [`HeaderFormat`] `format`, for the packet's
/// length) as a packet of its own, tagged with its length; the payload itself is not written
/// and the input's other tags are not passed (GNU Radio's `digital.protocol_formatter_bb`,
/// whose output a tagged stream mux puts before the payload). A header is written once its
/// packet is whole: a packet the stream ends inside has none.
///
/// # Errors
/// An item outside any packet (the stream does not start with a length tag) stops the run.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamToTaggedStream, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_digital::ProtocolFormatter;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![7u8; 6]));
/// let tag = fg.add(StreamToTaggedStream::<u8>::new(3, "packet_len"));
/// let fmt = fg.add(ProtocolFormatter::new("default access_code=10101010 threshold=0 bps=1".parse()?, "packet_len"));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, tag)?;
/// fg.connect(tag, fmt)?;
/// fg.connect(fmt, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), [0xAA, 0, 3, 0, 3, 0xAA, 0, 3, 0, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "protocol_formatter",
    summary = "For each packet of a tagged byte stream, its header (of a header format) as a tagged packet (GNU Radio's protocol_formatter_bb).",
    make = Self::new(format.parse().map_err(|e: crate::HeaderFormatError| Refused::param("format", e.to_string()))?, &len_tag_key)
)]
#[param(format: String, example = "default access_code=1010 threshold=0 bps=1", doc = "the header format: `default access_code=BITS threshold=N bps=N`, `counter …`, or `crc len_key=KEY num_key=KEY`")]
#[param(len_tag_key: String = "packet_len", doc = "the length tag's key, in and out")]
#[derive(Debug)]
pub struct ProtocolFormatter {
    /// Packets, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// A header per packet, each tagged with its length.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    format: HeaderFormat,
    key: Pmt,
    count: u64,
    /// The packet being read: its length and the items it still lacks (`None`: between
    /// packets).
    packet: Option<(usize, usize)>,
    /// The header going out, and how much of it has.
    header: Vec<u8>,
    sent: usize,
}

#[block]
impl ProtocolFormatter {
    /// Headers of `format` for packets tagged `len_tag_key`.
    pub fn new(format: HeaderFormat, len_tag_key: impl AsRef<str>) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            format,
            key: Pmt::symbol(len_tag_key.as_ref()),
            count: 0,
            packet: None,
            header: Vec::new(),
            sent: 0,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            if self.sent < self.header.len() {
                let room = self.output.slice();
                let n = room.len().min(self.header.len() - self.sent);
                if n == 0 {
                    break;
                }
                room[..n].copy_from_slice(&self.header[self.sent..self.sent + n]);
                self.output.produce(n);
                self.sent += n;
                continue;
            }
            let Some(len) = self.skip_packet()? else {
                break;
            };
            self.header = self.format.format(len, self.count);
            self.count = self.count.wrapping_add(1);
            self.sent = 0;
            let at = self.output.offset();
            let n = i64::try_from(self.header.len()).unwrap_or(i64::MAX);
            self.output.add_tag(at, self.key.clone(), Pmt::Int(n));
        }
        Ok(WorkStatus::Continue)
    }
}

impl ProtocolFormatter {
    /// Consumes input up to the end of the current packet; its length once it is whole.
    fn skip_packet(&mut self) -> Result<Option<usize>, BlockError> {
        let avail = self.input.slice().len();
        let (len, left) = match self.packet {
            Some(p) => p,
            None => {
                if avail == 0 {
                    return Ok(None);
                }
                let at = self.input.offset();
                let len = self
                    .input
                    .tags()
                    .iter()
                    .rfind(|t| t.offset == at && t.key == self.key)
                    .and_then(|t| t.value.as_i64())
                    .and_then(|n| usize::try_from(n).ok());
                let Some(len) = len else {
                    return Err(BlockError::msg(format!(
                        "protocol_formatter in: item {at} is in no packet: it has no length \
                         tag '{}' with a whole number >= 0",
                        self.key
                    )));
                };
                (len, len)
            }
        };
        let n = left.min(avail);
        self.input.consume(n);
        if n == left {
            self.packet = None;
            Ok(Some(len))
        } else {
            self.packet = Some((len, left - n));
            Ok(None)
        }
    }
}
