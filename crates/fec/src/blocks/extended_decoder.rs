//! [`ExtendedDecoder`]: a stream of soft values through a decoder object, frame by frame.

use crate::code::{Decoder, Soft, SoftInput};
use crate::def::DecoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// A stream of soft values (positive: a 1 bit; ±1 for clean BPSK) decoded frame by frame by
/// the decoder object `decoder` into bits, one per byte (GNU Radio's `fec.extended_decoder`:
/// for a decoder taking bytes, each value is first made `rint(x · 48 + 128)` clamped to a
/// byte, as its `multiply_const_ff`, `add_const_ff` and `float_to_uchar` do). A frame is
/// decoded once its values and the decoder's look-ahead (a streaming Viterbi decoder reads
/// 12 values of the next frame) are in; a frame left incomplete at the end of the stream
/// makes no output, as in GNU Radio. Input tags are not carried yet, nor the tag GNU Radio's
/// decoder block adds after each frame.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_fec::ExtendedDecoder;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, -0.5, 0.2, -1.0, -1.0, 0.3]));
/// let dec = fg.add(ExtendedDecoder::new("fec.repetition_decoder.make(2, 3, 0.5)".parse()?, "11").map_err(|(_, e)| e)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_extended_decoder",
    summary = "Soft values decoded frame by frame by an FEC decoder object (GNU Radio's fec.extended_decoder).",
    make = Self::new(decoder, &puncpat).map_err(|(p, e)| Refused::param(p, e))
)]
#[param(
    decoder: DecoderDef,
    example = "fec.cc_decoder.make(2048, 7, 2, [109, 79], 0, -1, fec.CC_STREAMING, False)",
    doc = "the decoder object as GNU Radio's Python makes it: fec.dummy_decoder.make(bits), fec.repetition_decoder.make(bits, rep, prob), fec.cc_decoder.make(bits, k, rate, polys, start_state, end_state, mode, padding)"
)]
#[param(puncpat: String = "11", doc = "puncturing pattern: 1 where a code bit was kept (only patterns of 1s so far)")]
#[derive(Debug)]
pub struct ExtendedDecoder {
    /// Soft values, positive for a 1 bit.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// Bits, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    decoder: Box<dyn Decoder>,
    /// One frame's soft values as bytes, for a decoder that takes bytes.
    bytes: Vec<u8>,
}

#[block]
impl ExtendedDecoder {
    /// Decodes by `decoder`, depunctured by `puncpat`.
    ///
    /// # Errors
    /// Naming the parameter: `puncpat` is not a pattern of 1s, `decoder` cannot be made.
    pub fn new(decoder: DecoderDef, puncpat: &str) -> Result<Self, (&'static str, String)> {
        super::puncpat::check(puncpat).map_err(|e| ("puncpat", e))?;
        let decoder = decoder.build().map_err(|e| ("decoder", e.to_string()))?;
        let reads = decoder.input_size() + decoder.history();
        let bytes = match decoder.soft_input() {
            SoftInput::Uchar { .. } => vec![0; reads],
            SoftInput::Float => Vec::new(),
        };
        Ok(Self {
            input: StreamInput::new().with_min_items(reads),
            output: StreamOutput::new().with_min_items(decoder.output_size()),
            decoder,
            bytes,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (n_in, n_out) = (self.decoder.input_size(), self.decoder.output_size());
        let reads = n_in + self.decoder.history();
        let x = self.input.slice();
        let y = self.output.slice();
        let frames = (x.len().saturating_sub(reads - n_in) / n_in).min(y.len() / n_out);
        for f in 0..frames {
            let values = &x[f * n_in..f * n_in + reads];
            let out = &mut y[f * n_out..(f + 1) * n_out];
            match self.decoder.soft_input() {
                SoftInput::Float => self.decoder.decode(Soft::Float(values), out),
                SoftInput::Uchar { shift } => {
                    for (b, v) in self.bytes.iter_mut().zip(values) {
                        *b = SoftInput::quantize(shift, *v);
                    }
                    self.decoder.decode(Soft::Uchar(&self.bytes), out);
                }
            }
        }
        self.input.consume(frames * n_in);
        self.output.produce(frames * n_out);
        Ok(WorkStatus::Continue)
    }
}
