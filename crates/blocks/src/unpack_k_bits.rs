//! [`UnpackKBits`]: each byte's `k` low bits as `k` bytes of one bit each.

use crate::rate_work::rate_work;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each input byte's `k` low bits, most significant first, as `k` output bytes of 0 or 1
/// (GNU Radio's `unpack_k_bits_bb`). Tags move to the first of their byte's outputs.
///
/// # Example
/// ```
/// use radioflow_blocks::{UnpackKBits, VectorSink, VectorSource};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0b101u8, 0b011]));
/// let unpack = fg.add(UnpackKBits::new(3).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, unpack)?;
/// fg.connect(unpack, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 0, 1, 0, 1, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "unpack_k_bits",
    summary = "Each byte's `k` low bits, most significant first, as `k` bytes of 0 or 1 (GNU Radio's unpack_k_bits_bb).",
    make = Self::new(k).map_err(|e| Refused::param("k", e))
)]
#[param(k: usize, min = 1, doc = "bits per input byte (1 to 8)")]
#[derive(Debug)]
pub struct UnpackKBits {
    /// Bytes carrying `k` bits each, in their low bits.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// One bit per byte, `k` per input byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    k: usize,
}

#[block]
impl UnpackKBits {
    /// Unpacks `k` bits (1 to 8) per byte.
    ///
    /// # Errors
    /// If `k` is not in 1..=8.
    pub fn new(k: usize) -> Result<Self, String> {
        if !(1..=8).contains(&k) {
            return Err(format!("{k} bits do not fit a byte (1 to 8)"));
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(k),
            k,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let k = self.k;
        rate_work(&mut self.input, &mut self.output, k as u64, 1, |x, y| {
            let n = x.len().min(y.len() / k);
            for (byte, bits) in x[..n].iter().zip(y.chunks_exact_mut(k)) {
                for (j, bit) in bits.iter_mut().enumerate() {
                    *bit = (byte >> (k - 1 - j)) & 1;
                }
            }
            (n, n * k)
        });
        Ok(WorkStatus::Continue)
    }
}
