//! [`DiffEncoder`]: differential encoding of symbols.

use super::diff_coding::{check_modulus, DiffCoding};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Differential encoding (GNU Radio's `diff_encoder_bb`): `out = (in + previous out) mod
/// modulus`, starting from 0; with `coding = nrzi` (modulus 2), NRZI: `out = !(in ⊕ previous
/// out)`, a 0 toggling the level. Tags kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{DiffCoding, DiffEncoder};
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3]));
/// let enc = fg.add(DiffEncoder::new(4, DiffCoding::Differential).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, enc)?;
/// fg.connect(enc, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 3, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "diff_encoder",
    summary = "Differential encoding: out = (in + previous out) mod modulus, or NRZI (GNU Radio's diff_encoder_bb).",
    make = Self::new(modulus, coding).map_err(|e| Refused::param("modulus", e))
)]
#[param(modulus: u32, min = 1, example = 2, doc = "the symbol alphabet's size (2 for NRZI)")]
#[param(coding: DiffCoding = "differential", words = ["differential", "nrzi"], doc = "modular sum, or NRZI")]
#[derive(Debug)]
pub struct DiffEncoder {
    /// Symbols.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Encoded symbols, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    modulus: u32,
    coding: DiffCoding,
    last: u8,
}

#[block]
impl DiffEncoder {
    /// An encoder over `modulus` symbols.
    ///
    /// # Errors
    /// A modulus of 0, or NRZI with a modulus other than 2.
    pub fn new(modulus: u32, coding: DiffCoding) -> Result<Self, String> {
        check_modulus(modulus, coding)?;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            modulus,
            coding,
            last: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (modulus, coding) = (self.modulus, self.coding);
        let mut last = self.last;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (o, &i) in y.iter_mut().zip(x) {
                *o = match coding {
                    DiffCoding::Nrzi => !(i ^ last) & 1,
                    DiffCoding::Differential if modulus == 2 => (i ^ last) & 1,
                    // GNU Radio's unsigned sum, kept in a byte.
                    DiffCoding::Differential => ((u32::from(i) + u32::from(last)) % modulus) as u8,
                };
                last = *o;
            }
        });
        self.last = last;
        Ok(WorkStatus::Continue)
    }
}
