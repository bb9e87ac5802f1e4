//! [`RepackBits`]: a stream of `k`-bit bytes as a stream of `l`-bit bytes.

use crate::rate_work::rate_work;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::str::FromStr;

/// Which bit of a byte goes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOrder {
    /// The most significant of the byte's bits first (GNU Radio's `GR_MSB_FIRST`).
    MsbFirst,
    /// The least significant first (`GR_LSB_FIRST`, GNU Radio's default).
    LsbFirst,
}

impl FromStr for BitOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "msb" => Ok(BitOrder::MsbFirst),
            "lsb" => Ok(BitOrder::LsbFirst),
            other => Err(format!("'{other}' is not a bit order (msb or lsb)")),
        }
    }
}

/// The bits of a stream of bytes carrying `k` bits each (in their low bits) regrouped into
/// bytes carrying `l` bits each, in the order `endianness` says for both (GNU Radio's
/// `repack_bits_bb`): `k` = 8, `l` = 1 unpacks bytes into bits, `k` = 1, `l` = 8 packs them,
/// `k` = 8, `l` = 2 makes QPSK symbols. On a continuous stream, bits left over at the end
/// (fewer than `l`) make no output.
///
/// With a `len_tag_key`, the stream is packets (GNU Radio's tagged stream: a length tag of
/// that key on each packet's first item) and each packet is repacked on its own, its length
/// tag on the first byte out giving the new length: `n` bytes in make `n·k/l` bytes out,
/// rounded up (the last one padded with zero bits) unless `align_output`, which rounds down
/// (the bits left over are dropped). As GNU Radio 3.10's block, with `align_output` a packet
/// whose bits left over are dropped leaves the next packet read from the same bit of its first
/// byte (GNU Radio keeps its bit index across packets): bit-exact with GNU Radio, also there.
/// A packet that makes no byte has no length tag out. Other tags go to the byte at their
/// offset times `k/l` (rounded half up), as GNU Radio places them.
///
/// # Errors
/// In packet mode, an item that no length tag puts in a packet stops the run, naming it.
///
/// # Example
/// ```
/// use radioflow_blocks::{BitOrder, RepackBits, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0b1101_0010u8]));
/// let repack = fg.add(RepackBits::new(8, 2, BitOrder::MsbFirst).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, repack)?;
/// fg.connect(repack, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0b11, 0b01, 0b00, 0b10]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "repack_bits",
    summary = "Bytes carrying `k` bits each regrouped into bytes carrying `l` bits each, on a stream or packet by packet (GNU Radio's repack_bits_bb).",
    make = Self::new(k, l, endianness)
        .map(|b| b.packets(&len_tag_key, align_output))
        .map_err(|(name, e)| Refused::param(name, e))
)]
#[param(k: usize, min = 1, doc = "bits per input byte (1 to 8)")]
#[param(l: usize, min = 1, doc = "bits per output byte (1 to 8)")]
#[param(endianness: BitOrder = "lsb", words = ["msb", "lsb"], doc = "which bit of a byte goes first")]
#[param(len_tag_key: String = "", doc = "the packets' length tag key (empty: a continuous stream)")]
#[param(align_output: bool = false, doc = "packets: round the bytes out down (drop the bits left over) instead of up")]
#[derive(Debug)]
pub struct RepackBits {
    /// Bytes carrying `k` bits each.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Bytes carrying `l` bits each.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    bits: Bits,
    /// The length tag key, in packet mode.
    key: Option<Pmt>,
    align_output: bool,
    /// Of the current packet: input bytes not yet taken, output bytes not yet made (both 0
    /// between packets).
    items_left: usize,
    out_left: usize,
}

/// The bit-moving state, kept across calls (and, as GNU Radio does, across packets).
#[derive(Debug)]
struct Bits {
    k: u32,
    l: u32,
    order: BitOrder,
    /// Bits of the input byte being read already taken.
    in_index: u32,
    /// The output byte being filled, and how many of its bits are in.
    partial: u8,
    out_index: u32,
}

impl Bits {
    /// Moves bits from `x` into `y` until one of them is used up; returns the bytes read
    /// (whole) and written.
    fn run(&mut self, x: &[u8], y: &mut [u8]) -> (usize, usize) {
        let (k, l, order) = (self.k, self.l, self.order);
        let (mut read, mut written) = (0, 0);
        while read < x.len() && written < y.len() {
            let bit = match order {
                BitOrder::LsbFirst => (x[read] >> self.in_index) & 1,
                BitOrder::MsbFirst => (x[read] >> (k - 1 - self.in_index)) & 1,
            };
            self.partial |= match order {
                BitOrder::LsbFirst => bit << self.out_index,
                BitOrder::MsbFirst => bit << (l - 1 - self.out_index),
            };
            self.in_index += 1;
            self.out_index += 1;
            if self.in_index == k {
                self.in_index = 0;
                read += 1;
            }
            if self.out_index == l {
                y[written] = self.partial;
                written += 1;
                self.partial = 0;
                self.out_index = 0;
            }
        }
        (read, written)
    }
}

#[block]
impl RepackBits {
    /// Regroups `k`-bit bytes into `l`-bit bytes (each 1 to 8), on a continuous stream.
    ///
    /// # Errors
    /// If `k` or `l` is not in 1..=8, naming it.
    pub fn new(k: usize, l: usize, endianness: BitOrder) -> Result<Self, (&'static str, String)> {
        for (name, v) in [("k", k), ("l", l)] {
            if !(1..=8).contains(&v) {
                return Err((name, format!("{v} bits do not fit a byte (1 to 8)")));
            }
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            bits: Bits {
                k: k as u32,
                l: l as u32,
                order: endianness,
                in_index: 0,
                partial: 0,
                out_index: 0,
            },
            key: None,
            align_output: false,
            items_left: 0,
            out_left: 0,
        })
    }

    /// Works packet by packet, packets marked by length tags of key `len_tag_key` (an empty
    /// key keeps the continuous stream); `align_output` rounds each packet's bytes out down
    /// instead of up.
    pub fn packets(mut self, len_tag_key: &str, align_output: bool) -> Self {
        self.key = (!len_tag_key.is_empty()).then(|| Pmt::symbol(len_tag_key));
        self.align_output = align_output;
        self
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.key.is_some() {
            return self.packet_work();
        }
        let bits = &mut self.bits;
        rate_work(
            &mut self.input,
            &mut self.output,
            u64::from(bits.l),
            u64::from(bits.k),
            |x, y| bits.run(x, y),
        );
        Ok(WorkStatus::Continue)
    }
}

impl RepackBits {
    /// Starts the packet whose length tag is on item `at`: its length out tagged (where it
    /// makes a byte). An error where the item has no length tag.
    fn start_packet(&mut self, at: u64, key: &Pmt) -> Result<(), BlockError> {
        // Two length tags on one item: an empty packet, then this one.
        let n = self
            .input
            .tags()
            .iter()
            .filter(|t| t.offset == at && t.key == *key)
            .filter_map(|t| t.value.as_i64())
            .rfind(|&n| n > 0);
        let Some(n) = n else {
            return Err(BlockError::msg(format!(
                "repack_bits in: item {at} is in no packet: it has no length tag '{key}' with \
                 a whole number above 0"
            )));
        };
        let (k, l) = (u64::from(self.bits.k), u64::from(self.bits.l));
        let n = n as u64;
        // GNU Radio's count: the packet's bits over l, rounded up unless align_output; then
        // as many as the bits from its bit index on make (the last padded).
        let bits_in = n * k;
        let asked = bits_in / l + u64::from(!self.align_output && !bits_in.is_multiple_of(l));
        let have = (bits_in - u64::from(self.bits.in_index)).div_ceil(l);
        self.items_left = n as usize;
        self.out_left = asked.min(have) as usize;
        if self.out_left > 0 {
            let at = self.output.offset();
            self.output
                .add_tag(at, key.clone(), Pmt::Int(self.out_left as i64));
        }
        Ok(())
    }

    fn packet_work(&mut self) -> Result<WorkStatus, BlockError> {
        let key = self.key.clone().expect("packet mode");
        let (k, l) = (u64::from(self.bits.k), u64::from(self.bits.l));
        loop {
            if self.items_left == 0 && self.out_left > 0 {
                // The packet's last bits, padded with zeros, once there is room.
                let room = self.output.slice();
                if room.is_empty() {
                    break;
                }
                room[0] = std::mem::take(&mut self.bits.partial);
                self.bits.out_index = 0;
                self.output.produce(1);
                self.out_left = 0;
                continue;
            }
            let avail = self.input.slice().len();
            if self.items_left == 0 {
                if avail == 0 {
                    break;
                }
                let at = self.input.offset();
                self.start_packet(at, &key)?;
            }
            let (from, to) = (self.input.offset(), self.output.offset());
            let take = self.items_left.min(avail);
            let (read, written) = if self.out_left == 0 {
                // The packet's bytes out are made: the rest of it is dropped, the bit index
                // kept (GNU Radio's).
                (take, 0)
            } else {
                let room = self.output.slice().len().min(self.out_left);
                let x = &self.input.slice()[..take];
                self.bits.run(x, &mut self.output.slice()[..room])
            };
            if read == 0 && written == 0 {
                break;
            }
            for t in self.input.tags() {
                if t.offset >= from + read as u64 {
                    break;
                }
                if t.key == key {
                    continue;
                }
                let at = (2 * u128::from(t.offset) * u128::from(k) + u128::from(l))
                    / (2 * u128::from(l));
                self.output.push_tag(Tag {
                    offset: (at as u64).max(to),
                    ..t.clone()
                });
            }
            self.input.consume(read);
            self.output.produce(written);
            self.items_left -= read;
            self.out_left -= written;
        }
        Ok(WorkStatus::Continue)
    }
}
