//! [`UnpackedToPacked`]: chunks of `bits_per_chunk` bits, one per item, packed into whole items.

use crate::bit_word::BitWord;
use crate::rate_work::rate_work;
use crate::repack_bits::BitOrder;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The low `bits_per_chunk` bits of each item of a stream of bytes, shorts or ints packed
/// into whole output items (all their 8, 16 or 32 bits; GNU Radio's
/// `unpacked_to_packed_bb/ss/ii`). Each chunk is read from its most significant bit down,
/// whatever the `endianness` (as GNU Radio's block does); `endianness` says where the first
/// bit goes in the output item: MSB in its most significant place, LSB in its least. A
/// chunk's bits left over when an item is full start the next one, across work calls; at
/// the end of the stream, bits fewer than an item make no output. Tags go to output
/// `offset · bits_per_chunk / bits` (rounded half up), as GNU Radio's scheduler moves them
/// through the block's rate.
///
/// # Example
/// ```
/// use radioflow_blocks::{BitOrder, UnpackedToPacked, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0b11u8, 0b01, 0b00, 0b10]));
/// let pack = fg.add(UnpackedToPacked::<u8>::new(2, BitOrder::MsbFirst)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, pack)?;
/// fg.connect(pack, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0b1101_0010]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "unpacked_to_packed",
    summary = "The low `bits_per_chunk` bits of each item packed into whole items (GNU Radio's unpacked_to_packed_bb/ss/ii).",
    dtypes = [Int32, Int16, Uint8],
    make = Self::new(bits_per_chunk, endianness).map_err(|e| Refused::param("bits_per_chunk", e))
)]
#[param(bits_per_chunk: usize, min = 1, doc = "bits per input item (1 to the item's bits)")]
#[param(endianness: BitOrder = "msb", words = ["msb", "lsb"], doc = "where the first bit goes in an output item")]
#[derive(Debug)]
pub struct UnpackedToPacked<T: BitWord> {
    /// One chunk per item, in its low bits.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Items whose every bit is data.
    #[output(name = "out")]
    output: StreamOutput<T>,
    chunk: u32,
    order: BitOrder,
    /// Bits of the first input item not consumed already read.
    index: u32,
}

#[block]
impl<T: BitWord> UnpackedToPacked<T> {
    /// Packs chunks of `bits_per_chunk` bits (1 to the item's bits), the first bit placed as
    /// `endianness` says.
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
            u64::from(chunk),
            u64::from(T::BITS),
            |x, y| {
                let c = u64::from(chunk);
                let total = x.len() as u64 * c;
                let mut at = u64::from(*index);
                let mut written = 0;
                while written < y.len() && at + u64::from(T::BITS) <= total {
                    let mut v = 0u32;
                    for j in 0..T::BITS {
                        let pos = (at % c) as u32;
                        let bit = (x[(at / c) as usize].bits() >> (chunk - 1 - pos)) & 1;
                        v |= match order {
                            BitOrder::MsbFirst => bit << (T::BITS - 1 - j),
                            BitOrder::LsbFirst => bit << j,
                        };
                        at += 1;
                    }
                    y[written] = T::from_bits(v);
                    written += 1;
                }
                *index = (at % c) as u32;
                ((at / c) as usize, written)
            },
        );
        Ok(WorkStatus::Continue)
    }
}
