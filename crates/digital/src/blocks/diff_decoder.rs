//! [`DiffDecoder`]: differential decoding of symbols.

use super::diff_coding::{check_modulus, DiffCoding};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Differential decoding (GNU Radio's `diff_decoder_bb`), the inverse of
/// [`DiffEncoder`](crate::DiffEncoder): `out = (in - previous in) mod modulus`, the input
/// before the first taken as 0; with `coding = nrzi`, `out = !(in ⊕ previous in)`. As in GNU
/// Radio, the difference is taken as an unsigned 32-bit number before the modulus (a
/// modulus that is not a power of two gives GNU Radio's values, not the mathematical
/// remainder, where the input falls). Tags kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{DiffCoding, DiffDecoder};
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 3, 2]));
/// let dec = fg.add(DiffDecoder::new(4, DiffCoding::Differential).unwrap());
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 2, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "diff_decoder",
    summary = "Differential decoding: out = (in - previous in) mod modulus, or NRZI (GNU Radio's diff_decoder_bb).",
    make = Self::new(modulus, coding).map_err(|e| Refused::param("modulus", e))
)]
#[param(modulus: u32, min = 1, example = 2, doc = "the symbol alphabet's size (2 for NRZI)")]
#[param(coding: DiffCoding = "differential", words = ["differential", "nrzi"], doc = "modular difference, or NRZI")]
#[derive(Debug)]
pub struct DiffDecoder {
    /// Encoded symbols.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Decoded symbols, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    modulus: u32,
    coding: DiffCoding,
    previous: u8,
}

#[block]
impl DiffDecoder {
    /// A decoder over `modulus` symbols.
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
            previous: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (modulus, coding) = (self.modulus, self.coding);
        let mut previous = self.previous;
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (o, &i) in y.iter_mut().zip(x) {
                *o = match coding {
                    DiffCoding::Nrzi => !(i ^ previous) & 1,
                    DiffCoding::Differential if modulus == 2 => (i ^ previous) & 1,
                    DiffCoding::Differential => {
                        let d = (i32::from(i) - i32::from(previous)) as u32;
                        (d % modulus) as u8
                    }
                };
                previous = i;
            }
        });
        self.previous = previous;
        Ok(WorkStatus::Continue)
    }
}
