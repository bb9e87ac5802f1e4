//! [`Descrambler`]: descrambling of a bit stream by a shift register.

use crate::Lfsr;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The low bit of each byte through multiplicative descrambling (GNU Radio's `descrambler_bb`), the inverse of [`Scrambler`](crate::Scrambler) with the same mask and length: it synchronizes by itself after `len + 1` bits, and the bits come out `len + 1` later than they went into the scrambler. The register is GNU Radio's
/// [`Lfsr`]: `len + 1` bits starting at `seed`, fed back by the parity of its bits
/// under `mask`. Outputs are bits (0 or 1); tags kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{Descrambler, Scrambler};
/// use radioflow_runtime::Flowgraph;
///
/// let bits: Vec<u8> = (0..40).map(|i| (i * 7 % 3 == 0) as u8).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(bits.clone()));
/// let s = fg.add(Scrambler::new(0x8A, 0x7F, 7).unwrap());
/// let d = fg.add(Descrambler::new(0x8A, 0x7F, 7).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, s)?;
/// fg.connect(s, d)?;
/// fg.connect(d, sink)?;
/// fg.run()?;
/// // The scrambler delays the bits by `len + 1` and the descrambler needs as many to
/// // synchronize: the bits come back 8 late.
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data()[8..], bits[..32]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "descrambler",
    summary = "Multiplicative descrambler of bits by a shift register (GNU Radio's descrambler_bb).",
    make = Self::new(mask, seed, len).map_err(|e| Refused::param("len", e))
)]
#[param(mask: u64 = 0x8A, doc = "the register bits whose parity is fed back")]
#[param(seed: u64 = 0x7F, doc = "the register's first content")]
#[param(len: u32 = 7, doc = "the register's length less one (at most 63)")]
#[derive(Debug)]
pub struct Descrambler {
    /// Bits, one per byte (the low bit).
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Bits, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    lfsr: Lfsr,
}

#[block]
impl Descrambler {
    /// A descrambler with GNU Radio's register parameters.
    ///
    /// # Errors
    /// `len` over 63.
    pub fn new(mask: u64, seed: u64, len: u32) -> Result<Self, String> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            lfsr: Lfsr::new(mask, seed, len)?,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let lfsr = &mut self.lfsr;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (o, i) in y.iter_mut().zip(x) {
                *o = lfsr.descramble(*i);
            }
        });
        Ok(WorkStatus::Continue)
    }
}
