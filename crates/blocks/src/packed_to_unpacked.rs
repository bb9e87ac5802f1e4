//! [`PackedToUnpacked`]: each item's bits cut into chunks of `bits_per_chunk`, one per item.

use crate::bit_word::BitWord;
use crate::rate_work::rate_work;
use crate::repack_bits::BitOrder;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The bits of a stream of bytes, shorts or ints (all of each item's 8, 16 or 32 bits) cut
/// into chunks of `bits_per_chunk` bits, each chunk the low bits of one output item (GNU
/// Radio's `packed_to_unpacked_bb/ss/ii`). `endianness` MSB reads each item's bits from the
/// most significant down, LSB from the least significant up; either way the first bit read
/// goes in a chunk's most significant place (as GNU Radio's block does). A chunk may take bits from two items: the bits left of an item wait for the next
/// one, across work calls (GNU Radio's bit index); at the end of the stream, bits fewer than
/// a chunk make no output. Tags go to output `offset · bits / bits_per_chunk` (rounded half
/// up), as GNU Radio's scheduler moves them through the block's rate.
///
/// # Example
/// ```
/// use radioflow_blocks::{BitOrder, PackedToUnpacked, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0b1101_0010u8, 0b0111_0000]));
/// let cut = fg.add(PackedToUnpacked::<u8>::new(3, BitOrder::MsbFirst)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, cut)?;
/// fg.connect(cut, sink)?;
/// fg.run()?;
/// // 110 100 100 111 000 (and one bit left over)
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[6, 4, 4, 7, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "packed_to_unpacked",
    summary = "Each item's bits cut into chunks of `bits_per_chunk`, one chunk per output item (GNU Radio's packed_to_unpacked_bb/ss/ii).",
    dtypes = [Int32, Int16, Uint8],
    make = Self::new(bits_per_chunk, endianness).map_err(|e| Refused::param("bits_per_chunk", e))
)]
#[param(bits_per_chunk: usize, min = 1, doc = "bits per output item (1 to the item's bits)")]
#[param(endianness: BitOrder = "msb", words = ["msb", "lsb"], doc = "which bit of an item goes first")]
#[derive(Debug)]
pub struct PackedToUnpacked<T: BitWord> {
    /// Items whose every bit is data.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// One chunk per item, in its low bits.
    #[output(name = "out")]
    output: StreamOutput<T>,
    chunk: u32,
    order: BitOrder,
    /// Bits of the first input item not consumed already read.
    index: u32,
}

#[block]
impl<T: BitWord> PackedToUnpacked<T> {
    /// Chunks of `bits_per_chunk` bits (1 to the item's bits), bits read in `endianness`.
    ///
    /// # Errors
    /// If `bits_per_chunk` is 0 or more than the item's bits.
    pub fn new(bits_per_chunk: usize, endianness: BitOrder) -> Result<Self, String> {
        if !(1..=T::BITS as usize).contains(&bits_per_chunk) {
            return Err(format!(
                "chunks of {bits_per_chunk} bits do not fit items of {} bits (1 to {})",
                T::BITS,
                T::BITS
            ));
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            chunk: bits_per_chunk as u32,
            order: endianness,
            index: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (chunk, order, index) = (self.chunk, self.order, &mut self.index);
        rate_work(
            &mut self.input,
            &mut self.output,
            u64::from(T::BITS),
            u64::from(chunk),
            |x, y| {
                let total = x.len() as u64 * u64::from(T::BITS);
                let mut at = u64::from(*index);
                let mut written = 0;
                while written < y.len() && at + u64::from(chunk) <= total {
                    let mut v = 0u32;
                    for j in 0..chunk {
                        let item = x[(at / u64::from(T::BITS)) as usize].bits();
                        let pos = (at % u64::from(T::BITS)) as u32;
                        let bit = match order {
                            BitOrder::MsbFirst => (item >> (T::BITS - 1 - pos)) & 1,
                            BitOrder::LsbFirst => (item >> pos) & 1,
                        };
                        v |= bit << (chunk - 1 - j);
                        at += 1;
                    }
                    y[written] = T::from_bits(v);
                    written += 1;
                }
                *index = (at % u64::from(T::BITS)) as u32;
                ((at / u64::from(T::BITS)) as usize, written)
            },
        );
        Ok(WorkStatus::Continue)
    }
}
