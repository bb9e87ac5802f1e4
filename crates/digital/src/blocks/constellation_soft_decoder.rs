//! [`ConstellationSoftDecoder`]: samples to soft bits.

use crate::Constellation;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each sample as the constellation's soft decisions, `bits_per_symbol` floats, the most
/// significant bit first, positive for a 1 (GNU Radio's `constellation_soft_decoder_cf`):
/// from the constellation's soft-decision table where it has one (`lut=P`), else computed
/// ([`Constellation::soft_decision`]). Tags go to the first value made from their sample.
///
/// GNU Radio leaves constellations of more than one dimension undefined here (its decoder
/// reads one sample per symbol but writes a symbol's bits): radioflow refuses them.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{Constellation, ConstellationSoftDecoder};
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(-0.9, 0.8)]));
/// let dec = fg.add(ConstellationSoftDecoder::new(Constellation::qpsk()).unwrap());
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// let bits = fg.block::<VectorSink<f32>>(sink).unwrap().data().to_vec();
/// assert!(bits[0] > 0.0 && bits[1] < 0.0); // point 2: bits 1, 0
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "constellation_soft_decoder",
    summary = "Samples to the constellation's soft bits, bits_per_symbol floats each (GNU Radio's constellation_soft_decoder_cf).",
    make = Self::new(constellation).map_err(|e| Refused::param("constellation", e))
)]
#[param(
    constellation: Constellation,
    example = "qpsk",
    doc = "the constellation (of dimensionality 1): bpsk, qpsk, dqpsk, 8psk, 16qam, `calcdist ...`, `rect ...`, with ` lut=P` for a table"
)]
#[derive(Debug)]
pub struct ConstellationSoftDecoder {
    /// Samples, one per symbol.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// `bits_per_symbol` log-likelihood ratios per sample.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    constellation: Constellation,
    bits: usize,
}

#[block]
impl ConstellationSoftDecoder {
    /// A soft decoder for `constellation`.
    ///
    /// # Errors
    /// A constellation of more than one dimension, or of fewer than two points.
    pub fn new(constellation: Constellation) -> Result<Self, String> {
        if constellation.dimensionality() != 1 {
            return Err(format!(
                "has dimensionality {}: soft decisions take one sample per symbol",
                constellation.dimensionality()
            ));
        }
        let bits = constellation.bits_per_symbol();
        if bits == 0 {
            return Err("has one point: no bits to decide".into());
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(bits),
            constellation,
            bits,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let k = self.bits;
        let x = self.input.slice();
        let y = self.output.slice();
        let n = x.len().min(y.len() / k);
        for (s, out) in x[..n].iter().zip(y.chunks_exact_mut(k)) {
            self.constellation.soft_decision(*s, out);
        }
        let (from, to) = (self.input.offset(), self.output.offset());
        for t in self.input.tags() {
            if t.offset >= from + n as u64 {
                break;
            }
            self.output.add_tag_at(to + (t.offset - from) * k as u64, t);
        }
        self.input.consume(n);
        self.output.produce(n * k);
        Ok(WorkStatus::Continue)
    }
}
