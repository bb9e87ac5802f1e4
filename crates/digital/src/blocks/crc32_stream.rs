//! [`Crc32Stream`]: CRC-32 appended to each packet of a tagged byte stream, or checked and
//! removed.

use super::crc32_async::crc32;
use radioflow_dsp::Crc;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// GNU Radio's `digital.crc32_bb` on a tagged stream (packets marked by length tags of key
/// `lengthtagname`): without `check`, each packet followed by its CRC-32 (zlib's); with
/// `check`, each packet whose CRC-32 holds without it, the others dropped (with their tags).
/// `packed`: the CRC covers the bytes and takes four bytes (least significant first, as GNU
/// Radio writes it on a little-endian machine); unpacked: each byte is one bit (GNU Radio ORs
/// `byte << (k % 8)` into byte `k / 8`), and the CRC takes 32 bytes, one bit each, least
/// significant first. The length tag of each packet out is the new length (last, after the
/// packet's other tags, as GNU Radio adds it); the other tags keep their place in the packet,
/// except in `check` mode a tag beyond item `length` of the shortened packet moves to its
/// last item, as GNU Radio moves it (one at item `length` stays, on the next packet's first).
///
/// # Errors
/// An item outside any packet (the stream does not start with a length tag) stops the run.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamToTaggedStream, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_digital::Crc32Stream;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(b"123456789".to_vec()));
/// let tag = fg.add(StreamToTaggedStream::<u8>::new(9, "packet_len"));
/// let crc = fg.add(Crc32Stream::new(false, "packet_len", true));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, tag)?;
/// fg.connect(tag, crc)?;
/// fg.connect(crc, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data()[9..], [0x26, 0x39, 0xF4, 0xCB]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "crc32_stream",
    summary = "CRC-32 appended to each packet of a tagged byte stream, or with `check` checked and removed (bad packets dropped) (GNU Radio's crc32_bb)."
)]
#[param(check: bool = false, doc = "check and remove the CRC (drop packets where it fails) instead of appending it")]
#[param(lengthtagname: String = "packet_len", doc = "the length tag's key")]
#[param(packed: bool = true, doc = "bytes (true) or one bit per byte (false)")]
#[derive(Debug)]
pub struct Crc32Stream {
    /// Packets, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The packets with their CRC, or checked without it.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    check: bool,
    packed: bool,
    key: Pmt,
    crc: Crc,
    /// The packet being gathered, its tags (offsets within it, length tags left out), and
    /// the items it still lacks (0: between packets).
    packet: Vec<u8>,
    tags: Vec<Tag>,
    left: usize,
    /// The packet going out, and how much of it has.
    out: Vec<u8>,
    sent: usize,
    /// Bits packed into bytes (unpacked mode).
    scratch: Vec<u8>,
}

#[block]
impl Crc32Stream {
    /// GNU Radio's `crc32_bb(check, lengthtagname, packed)`.
    pub fn new(check: bool, lengthtagname: impl AsRef<str>, packed: bool) -> Self {
        Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            check,
            packed,
            key: Pmt::symbol(lengthtagname.as_ref()),
            crc: crc32(),
            packet: Vec::new(),
            tags: Vec::new(),
            left: 0,
            out: Vec::new(),
            sent: 0,
            scratch: Vec::new(),
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            if self.sent < self.out.len() {
                let room = self.output.slice();
                let n = room.len().min(self.out.len() - self.sent);
                if n == 0 {
                    break;
                }
                room[..n].copy_from_slice(&self.out[self.sent..self.sent + n]);
                self.output.produce(n);
                self.sent += n;
                continue;
            }
            if !self.gather()? {
                break;
            }
            self.finish_packet();
        }
        Ok(WorkStatus::Continue)
    }
}

impl Crc32Stream {
    /// Reads input into the packet; true once it is whole.
    fn gather(&mut self) -> Result<bool, BlockError> {
        let avail = self.input.slice().len();
        let start = self.input.offset();
        let mut used = 0;
        let mut whole = false;
        while used < avail && !whole {
            let at = start + used as u64;
            if self.left == 0 {
                let len = self
                    .input
                    .tags()
                    .iter()
                    .rfind(|t| t.offset == at && t.key == self.key)
                    .map(|t| t.value.as_i64());
                self.left = match len {
                    Some(Some(n)) if n >= 0 => n as usize,
                    _ => {
                        return Err(BlockError::msg(format!(
                            "crc32_stream in: item {at} is in no packet: it has no length tag \
                             '{}' with a whole number >= 0",
                            self.key
                        )))
                    }
                };
                self.packet.clear();
                self.tags.clear();
                if self.left == 0 {
                    whole = true;
                    break;
                }
            }
            let n = self.left.min(avail - used);
            let first = at - self.packet.len() as u64;
            for t in self.input.tags() {
                if (at..at + n as u64).contains(&t.offset) && t.key != self.key {
                    self.tags
                        .push(Tag::new(t.offset - first, t.key.clone(), t.value.clone()));
                }
            }
            self.packet
                .extend_from_slice(&self.input.slice()[used..used + n]);
            used += n;
            self.left -= n;
            whole = self.left == 0;
        }
        self.input.consume(used);
        Ok(whole)
    }

    /// The CRC-32 of `data` (bytes, or one bit per byte).
    fn crc_of(&mut self, data: &[u8]) -> u32 {
        if self.packed {
            return self.crc.compute(data) as u32;
        }
        self.scratch.clear();
        self.scratch.resize(data.len().div_ceil(8), 0);
        for (k, &bit) in data.iter().enumerate() {
            self.scratch[k / 8] |= bit << (k % 8);
        }
        self.crc.compute(&self.scratch) as u32
    }

    /// Turns the whole packet into the packet out (empty where it is dropped) and tags it.
    fn finish_packet(&mut self) {
        let packet = std::mem::take(&mut self.packet);
        let crc_len = if self.packed { 4 } else { 32 };
        self.out.clear();
        self.sent = 0;
        if self.check {
            if packet.len() <= crc_len {
                self.packet = packet;
                return;
            }
            let (body, tail) = packet.split_at(packet.len() - crc_len);
            let crc = self.crc_of(body);
            let held = if self.packed {
                u32::from_le_bytes(tail.try_into().expect("4 bytes")) == crc
            } else {
                (0..32).all(|i| u32::from(tail[i]) == (crc >> i) & 1)
            };
            if !held {
                self.packet = packet;
                return;
            }
            self.out.extend_from_slice(body);
        } else {
            let crc = self.crc_of(&packet);
            self.out.extend_from_slice(&packet);
            if self.packed {
                self.out.extend_from_slice(&crc.to_le_bytes());
            } else {
                self.out.extend((0..32).map(|i| ((crc >> i) & 1) as u8));
            }
        }
        let at = self.output.offset();
        let new_len = self.out.len() as u64;
        for t in self.tags.drain(..) {
            let mut offset = t.offset;
            if self.check && offset > new_len {
                offset = new_len - 1;
            }
            self.output.push_tag(Tag {
                offset: at + offset,
                ..t
            });
        }
        let len = i64::try_from(new_len).unwrap_or(i64::MAX);
        self.output.add_tag(at, self.key.clone(), Pmt::Int(len));
        self.packet = packet;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn packets_in_pieces_through_little_room() {
        let mut h = Harness::new(Crc32Stream::new(false, "len", true));
        h.set_space("out", 3);
        h.push_tag("in", 0, "len", 2i64);
        h.push_tag("in", 1, "x", 5i64);
        h.push("in", &[7u8]);
        h.work().unwrap();
        h.push("in", &[8u8]);
        for _ in 0..3 {
            h.work().unwrap();
        }
        let (items, tags) = h.take_output_with_tags::<u8>("out");
        let crc = crc32().compute(&[7, 8]) as u32;
        let mut want = vec![7, 8];
        want.extend(crc.to_le_bytes());
        assert_eq!(items, want);
        let tags: Vec<(u64, Pmt)> = tags.into_iter().map(|t| (t.offset, t.value)).collect();
        assert_eq!(tags, [(0, Pmt::Int(6)), (1, Pmt::Int(5))]);
    }

    #[test]
    fn a_stream_without_length_tag_stops_the_run() {
        let mut h = Harness::new(Crc32Stream::new(true, "len", true));
        h.push("in", &[1u8]);
        let e = h.work().unwrap_err().to_string();
        assert!(e.contains("crc32_stream in: item 0"), "{e}");
    }
}
