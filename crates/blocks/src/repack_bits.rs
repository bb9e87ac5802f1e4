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
/// `repack_bits_bb` on a continuous stream): `k` = 8, `l` = 1 unpacks bytes into bits, `k` =
/// 1, `l` = 8 packs them, `k` = 8, `l` = 2 makes QPSK symbols. Bits left over at the end of
/// the stream (fewer than `l`) make no output.
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
    summary = "Bytes carrying `k` bits each regrouped into bytes carrying `l` bits each (GNU Radio's repack_bits_bb).",
    make = Self::new(k, l, endianness).map_err(|(name, e)| Refused::param(name, e))
)]
#[param(k: usize, min = 1, doc = "bits per input byte (1 to 8)")]
#[param(l: usize, min = 1, doc = "bits per output byte (1 to 8)")]
#[param(endianness: BitOrder = "lsb", words = ["msb", "lsb"], doc = "which bit of a byte goes first")]
#[derive(Debug)]
pub struct RepackBits {
    /// Bytes carrying `k` bits each.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Bytes carrying `l` bits each.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    k: u32,
    l: u32,
    order: BitOrder,
    /// Bits of the input byte being read already taken.
    in_index: u32,
    /// The output byte being filled, and how many of its bits are in.
    partial: u8,
    out_index: u32,
}

#[block]
impl RepackBits {
    /// Regroups `k`-bit bytes into `l`-bit bytes (each 1 to 8).
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
            k: k as u32,
            l: l as u32,
            order: endianness,
            in_index: 0,
            partial: 0,
            out_index: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (k, l, order) = (self.k, self.l, self.order);
        let (mut in_index, mut partial, mut out_index) =
            (self.in_index, self.partial, self.out_index);
        rate_work(
            &mut self.input,
            &mut self.output,
            u64::from(l),
            u64::from(k),
            |x, y| {
                let (mut read, mut written) = (0, 0);
                while read < x.len() && written < y.len() {
                    let bit = match order {
                        BitOrder::LsbFirst => (x[read] >> in_index) & 1,
                        BitOrder::MsbFirst => (x[read] >> (k - 1 - in_index)) & 1,
                    };
                    partial |= match order {
                        BitOrder::LsbFirst => bit << out_index,
                        BitOrder::MsbFirst => bit << (l - 1 - out_index),
                    };
                    in_index += 1;
                    out_index += 1;
                    if in_index == k {
                        in_index = 0;
                        read += 1;
                    }
                    if out_index == l {
                        y[written] = partial;
                        written += 1;
                        partial = 0;
                        out_index = 0;
                    }
                }
                (read, written)
            },
        );
        (self.in_index, self.partial, self.out_index) = (in_index, partial, out_index);
        Ok(WorkStatus::Continue)
    }
}
