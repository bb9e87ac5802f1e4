//! [`PacketHeaderGenerator`]: a header of bits for each packet of a tagged stream.

use crate::header_format::HeaderFormat;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Makes a header for each packet of a tagged byte stream (a length tag on its first
/// item), like GNU Radio's `packet_headergenerator_bb` with its default formatter
/// (`packet_header_default`): the packet's length and number (12 bits each) and a CRC-8 of
/// them, the bits least significant first, `bits_per_byte` of them in each output byte
/// (first in the low bits), the rest of the `header_len` bytes 0. Each header starts with
/// a length tag of `header_len`; the packets' other tags are not passed on, as in GNU
/// Radio. The packet number counts headers made, from 0 (12 bits, wrapping). The header is
/// made as soon as the length tag is read (GNU Radio waits for the whole packet, so a
/// packet cut by the end of the stream gets no header there, and gets one here).
///
/// # Example
/// ```
/// use radioflow_digital::PacketHeaderGenerator;
/// use radioflow_runtime::{Flowgraph, Tag};
/// use radioflow_blocks::{VectorSink, VectorSource};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![7u8; 3]).tags(vec![Tag::new(0, "packet_len", 3i64)]));
/// let header = fg.add(PacketHeaderGenerator::new(32, "packet_len", 1)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, header)?;
/// fg.connect(header, sink)?;
/// fg.run()?;
/// let bits = fg.block::<VectorSink<u8>>(sink).unwrap().data().to_vec();
/// assert_eq!(&bits[..4], [1, 1, 0, 0], "the length 3, least significant bit first");
/// assert_eq!(bits.len(), 32);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "packet_header_generator",
    summary = "A header of bits (length, number, CRC-8) for each packet of a tagged byte stream (GNU Radio's packet_headergenerator_bb).",
    make = Self::new(header_len, &len_tag_key, bits_per_byte).map_err(|e| Refused::param("header_len", e))
)]
#[param(header_len: usize, min = 1, example = 32, doc = "bytes per header (the 32 header bits and zeros after them)")]
#[param(len_tag_key: String = "packet_len", doc = "the packets' length tag, and the headers'")]
#[param(bits_per_byte: usize = 1, min = 1, doc = "header bits in each output byte (1 to 8)")]
#[derive(Debug)]
pub struct PacketHeaderGenerator {
    /// Packets of bytes, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// One header of `header_len` bytes per packet.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    key: Pmt,
    header_len: usize,
    bits_per_byte: usize,
    /// Headers made (the next header's number).
    count: u64,
    /// Bytes of the current packet still to read.
    left: usize,
    /// The header made and not yet sent.
    header: Vec<u8>,
    sent: usize,
}

#[block]
impl PacketHeaderGenerator {
    /// Headers of `header_len` bytes of `bits_per_byte` bits for packets tagged
    /// `len_tag_key`.
    ///
    /// # Errors
    /// If `bits_per_byte` is not 1 to 8, or `header_len` bytes cannot hold the 32 header
    /// bits.
    pub fn new(header_len: usize, len_tag_key: &str, bits_per_byte: usize) -> Result<Self, String> {
        if !(1..=8).contains(&bits_per_byte) {
            return Err(format!("bits_per_byte {bits_per_byte} is not 1 to 8"));
        }
        if header_len.saturating_mul(bits_per_byte) < 32 {
            return Err(format!(
                "{header_len} bytes of {bits_per_byte} bits cannot hold the header's 32 bits"
            ));
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            key: Pmt::symbol(len_tag_key),
            header_len,
            bits_per_byte,
            count: 0,
            left: 0,
            header: Vec::with_capacity(header_len),
            sent: 0,
        })
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
            let avail = self.input.slice().len();
            if self.left > 0 {
                // The packet's bytes are not part of the header.
                let n = self.left.min(avail);
                if n == 0 {
                    break;
                }
                self.input.consume(n);
                self.left -= n;
                continue;
            }
            let at = self.input.offset();
            let len = self
                .input
                .tags()
                .iter()
                .rfind(|t| t.offset == at && t.key == self.key)
                .map(|t| t.value.as_i64());
            let len = match len {
                Some(Some(n)) if n >= 0 => n as usize,
                // Nothing more to read: wait (or end).
                _ if avail == 0 => break,
                _ => {
                    return Err(BlockError::msg(format!(
                        "packet_header_generator in: item {at} is in no packet: it has no \
                         length tag '{}' with a whole number >= 0",
                        self.key
                    )))
                }
            };
            // The header needs only the length: it is made without waiting for the packet,
            // which may be longer than the input buffer.
            self.make_header(len);
            self.left = len;
        }
        Ok(WorkStatus::Continue)
    }
}

impl PacketHeaderGenerator {
    /// The header of a packet of `len` bytes into `header`, tagged on the output.
    fn make_header(&mut self, len: usize) {
        let crc = HeaderFormat::Crc {
            len_key: String::new(),
            num_key: String::new(),
        };
        let bytes = crc.format(len, self.count);
        self.count += 1;
        self.header.clear();
        let mut bits = bytes.iter().flat_map(|b| (0..8).map(move |k| (b >> k) & 1));
        while self.header.len() < self.header_len {
            let mut byte = 0;
            let mut any = false;
            for k in 0..self.bits_per_byte {
                if let Some(bit) = bits.next() {
                    byte |= bit << k;
                    any = true;
                }
            }
            if !any {
                break;
            }
            self.header.push(byte);
        }
        self.header.resize(self.header_len, 0);
        let at = self.output.offset();
        let len = i64::try_from(self.header_len).unwrap_or(i64::MAX);
        self.output.add_tag(at, self.key.clone(), Pmt::Int(len));
        self.sent = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn headers_as_gnu_radio_makes_them() {
        // GNU Radio 3.10: packet_headergenerator_bb(packet_header_default(32, "len", "num",
        // 2), "len") on a packet of 3.
        let mut h = Harness::new(PacketHeaderGenerator::new(32, "len", 2).unwrap());
        h.push_tag("in", 0, "len", 3i64);
        h.push("in", &[1u8; 3]);
        h.work().unwrap();
        let (y, tags) = h.take_output_with_tags::<u8>("out");
        let mut want = vec![3u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 2, 3];
        want.resize(32, 0);
        assert_eq!(y, want);
        assert_eq!(tags.len(), 1);
        assert_eq!((tags[0].offset, tags[0].value.as_i64()), (0, Some(32)));
    }

    #[test]
    fn bad_parameters_and_untagged_input_are_refused() {
        assert!(PacketHeaderGenerator::new(31, "len", 1).is_err());
        assert!(PacketHeaderGenerator::new(32, "len", 9).is_err());
        let mut h = Harness::new(PacketHeaderGenerator::new(32, "len", 1).unwrap());
        h.push("in", &[1u8; 3]);
        assert!(h
            .work()
            .unwrap_err()
            .to_string()
            .contains("no length tag 'len'"));
    }
}
