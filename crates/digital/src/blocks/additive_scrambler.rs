//! [`AdditiveScrambler`]: bytes xored with a shift register's sequence.

use crate::Lfsr;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each byte xored with the next `bits_per_byte` bits of a shift register's sequence, the
/// first in the low bit (GNU Radio's `additive_scrambler_bb`; the same block descrambles).
/// The register (GNU Radio's [`Lfsr`]) goes back to `seed` every `count` bytes (0: never),
/// or, with a `reset_tag_key`, at each item tagged with that key (then `count` is not
/// used). Tags kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::AdditiveScrambler;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 4]));
/// let s = fg.add(AdditiveScrambler::new(0x8A, 0x7F, 7, 2, 1, "").unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, s)?;
/// fg.connect(s, sink)?;
/// fg.run()?;
/// // Reset every two bytes: the sequence starts again.
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap().data().to_vec();
/// assert_eq!(out[..2], out[2..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "additive_scrambler",
    summary = "Bytes xored with a shift register's sequence, reset every `count` bytes or at tags (GNU Radio's additive_scrambler_bb).",
    make = Self::new(mask, seed, len, count, bits_per_byte, &reset_tag_key).map_err(|(p, e)| Refused::param(p, e))
)]
#[param(mask: u64 = 0x8A, doc = "the register bits whose parity is fed back")]
#[param(seed: u64 = 0x7F, doc = "the register's first content")]
#[param(len: u32 = 7, doc = "the register's length less one (at most 63)")]
#[param(count: u64 = 0, doc = "bytes between resets (0: never); not used with a reset_tag_key")]
#[param(bits_per_byte: u32 = 1, min = 1, doc = "sequence bits per byte (1 to 8)")]
#[param(reset_tag_key: String = "", doc = "reset at items with a tag of this key (empty: by count)")]
#[derive(Debug)]
pub struct AdditiveScrambler {
    /// Bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The bytes xored with the sequence, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    lfsr: Lfsr,
    /// Bytes between resets; 0: never, or resets by tag.
    count: u64,
    bits_per_byte: u32,
    reset_key: Option<String>,
    /// Bytes since the last reset.
    bytes: u64,
}

#[block]
impl AdditiveScrambler {
    /// An additive scrambler with GNU Radio's parameters.
    ///
    /// # Errors
    /// `len` over 63, or `bits_per_byte` not 1 to 8, naming the parameter.
    pub fn new(
        mask: u64,
        seed: u64,
        len: u32,
        count: u64,
        bits_per_byte: u32,
        reset_tag_key: &str,
    ) -> Result<Self, (&'static str, String)> {
        if !(1..=8).contains(&bits_per_byte) {
            return Err(("bits_per_byte", format!("is {bits_per_byte}, not 1 to 8")));
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            lfsr: Lfsr::new(mask, seed, len).map_err(|e| ("len", e))?,
            count,
            bits_per_byte,
            reset_key: (!reset_tag_key.is_empty()).then(|| reset_tag_key.to_owned()),
            bytes: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.input.slice().len().min(self.output.slice().len());
        let from = self.input.offset();
        let tags = self.input.tags();
        let mut next_tag = 0;
        let x = self.input.slice();
        let y = self.output.slice();
        for i in 0..n {
            let reset = match &self.reset_key {
                Some(key) => {
                    let mut hit = false;
                    while next_tag < tags.len() && tags[next_tag].offset <= from + i as u64 {
                        hit |= tags[next_tag].offset == from + i as u64
                            && tags[next_tag].key.as_symbol() == Some(key.as_str());
                        next_tag += 1;
                    }
                    hit
                }
                None => self.count > 0 && self.bytes == self.count,
            };
            if reset {
                self.lfsr.reset();
                self.bytes = 0;
            }
            let mut s = 0u8;
            for k in 0..self.bits_per_byte {
                s ^= self.lfsr.next_bit() << k;
            }
            y[i] = x[i] ^ s;
            self.bytes += 1;
        }
        propagate_tags(&self.input, &mut self.output, n);
        self.input.consume(n);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}
