//! [`ConstellationDecoder`]: samples to the symbols a constellation decides.

use crate::Constellation;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each symbol's samples (the constellation's dimensionality) as the index of the point the
/// constellation decides for (GNU Radio's `constellation_decoder_cb`): the nearest point, the
/// sector's point, or the named kinds' slicers, exactly as [`Constellation::decision`].
/// A tag on sample `i` goes to symbol `⌊i / dimensionality + 1/2⌋`, as GNU Radio rounds it.
/// Samples left at the end (fewer than the dimensionality) make no symbol.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{Constellation, ConstellationDecoder};
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(0.9, 0.8), Complex32::new(-0.7, -1.1)]));
/// let dec = fg.add(ConstellationDecoder::new(Constellation::qpsk()));
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[3, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "constellation_decoder",
    summary = "Samples to the index of the constellation point decided for (GNU Radio's constellation_decoder_cb).",
    make = Self::new(constellation)
)]
#[param(
    constellation: Constellation,
    example = "qpsk",
    doc = "the constellation: bpsk, qpsk, dqpsk, 8psk, 16qam, or `calcdist ...`/`rect ...` (see radioflow_digital::Constellation)"
)]
#[derive(Debug)]
pub struct ConstellationDecoder {
    /// Samples, `dimensionality` per symbol.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Point indices, one per symbol.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    constellation: Constellation,
}

#[block]
impl ConstellationDecoder {
    /// A decoder deciding by `constellation`.
    pub fn new(constellation: Constellation) -> Self {
        Self {
            input: StreamInput::new().with_min_items(constellation.dimensionality()),
            output: StreamOutput::new(),
            constellation,
        }
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let d = self.constellation.dimensionality();
        let x = self.input.slice();
        let y = self.output.slice();
        let n = (x.len() / d).min(y.len());
        for (s, out) in x.chunks_exact(d).zip(&mut y[..n]) {
            // Point indices of a byte stream, as GNU Radio's unsigned char keeps them.
            *out = self.constellation.decision(s) as u8;
        }
        let from = self.input.offset();
        let d64 = d as u64;
        for t in self.input.tags() {
            if t.offset >= from + n as u64 * d64 {
                break;
            }
            // GNU Radio's rounding of offset / dimensionality, half up: a tag on the second
            // sample of a 2-sample symbol goes to the next symbol.
            let at = (2 * t.offset + d64) / (2 * d64);
            self.output.add_tag_at(at, t);
        }
        self.input.consume(n * d);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}
