//! [`PackKBits`]: `k` bytes of one bit each as one byte.

use crate::rate_work::rate_work;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each `k` input bytes' low bits, the first most significant, as one output byte (GNU
/// Radio's `pack_k_bits_bb`). A last group of fewer than `k` bytes makes no output.
///
/// # Example
/// ```
/// use radioflow_blocks::{PackKBits, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 0, 1, 0, 1, 1]));
/// let pack = fg.add(PackKBits::new(3).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, pack)?;
/// fg.connect(pack, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0b101, 0b011]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "pack_k_bits",
    summary = "Each `k` bytes' low bits, the first most significant, as one byte (GNU Radio's pack_k_bits_bb).",
    make = Self::new(k).map_err(|e| Refused::param("k", e))
)]
#[param(k: usize, min = 1, doc = "input bytes per output byte (1 to 8)")]
#[derive(Debug)]
pub struct PackKBits {
    /// One bit per byte, in its low bit.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// `k` bits per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    k: usize,
}

#[block]
impl PackKBits {
    /// Packs `k` (1 to 8) one-bit bytes per byte.
    ///
    /// # Errors
    /// If `k` is not in 1..=8.
    pub fn new(k: usize) -> Result<Self, String> {
        if !(1..=8).contains(&k) {
            return Err(format!("{k} bits do not fit a byte (1 to 8)"));
        }
        Ok(Self {
            input: StreamInput::new().with_min_items(k),
            output: StreamOutput::new(),
            k,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let k = self.k;
        rate_work(&mut self.input, &mut self.output, 1, k as u64, |x, y| {
            let n = (x.len() / k).min(y.len());
            for (bits, byte) in x.chunks_exact(k).zip(&mut y[..n]) {
                *byte = bits.iter().fold(0, |acc, b| (acc << 1) | (b & 1));
            }
            (n * k, n)
        });
        Ok(WorkStatus::Continue)
    }
}
