//! [`ExtendedEncoder`]: a stream of bits through an encoder object, frame by frame.

use crate::code::Encoder;
use crate::def::EncoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// A stream of bits (one per byte, in the low bit) encoded frame by frame by the encoder
/// object `encoder` (GNU Radio's `fec.extended_encoder` with the generic `fec.encoder`
/// inside). A frame left incomplete at the end of the stream makes no output, as in GNU
/// Radio. Input tags are not carried yet (GNU Radio moves them by the code's rate).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_fec::ExtendedEncoder;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 0, 1, 1]));
/// let enc = fg.add(ExtendedEncoder::new("fec.repetition_encoder_make(2, 3)".parse()?, "11")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, enc)?;
/// fg.connect(enc, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_extended_encoder",
    summary = "Bits encoded frame by frame by an FEC encoder object (GNU Radio's fec.extended_encoder).",
    make = Self::new(encoder, &puncpat).map_err(|e| Refused::param("puncpat", e))
)]
#[param(
    encoder: EncoderDef,
    example = "fec.cc_encoder_make(2048, 7, 2, [109, 79], 0, fec.CC_STREAMING, False)",
    doc = "the encoder object as GNU Radio's Python makes it: fec.dummy_encoder_make(bits), fec.repetition_encoder_make(bits, rep), fec.cc_encoder_make(bits, k, rate, polys, start_state, mode, padding), fec.ccsds_encoder_make(bits, start_state, mode)"
)]
#[param(puncpat: String = "11", doc = "puncturing pattern: 1 keeps a code bit (only patterns of 1s so far)")]
#[derive(Debug)]
pub struct ExtendedEncoder {
    /// Bits, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Code bits, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    encoder: Box<dyn Encoder>,
}

#[block]
impl ExtendedEncoder {
    /// Encodes by `encoder`, punctured by `puncpat`.
    ///
    /// # Errors
    /// `puncpat` is not a pattern of 1s.
    pub fn new(encoder: EncoderDef, puncpat: &str) -> Result<Self, String> {
        super::puncpat::check(puncpat)?;
        let encoder = encoder.build();
        Ok(Self {
            input: StreamInput::new().with_min_items(encoder.input_size()),
            output: StreamOutput::new().with_min_items(encoder.output_size()),
            encoder,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (n_in, n_out) = (self.encoder.input_size(), self.encoder.output_size());
        let x = self.input.slice();
        let y = self.output.slice();
        let frames = (x.len() / n_in).min(y.len() / n_out);
        for (i, o) in x
            .chunks_exact(n_in)
            .zip(y.chunks_exact_mut(n_out))
            .take(frames)
        {
            self.encoder.encode(i, o);
        }
        self.input.consume(frames * n_in);
        self.output.produce(frames * n_out);
        Ok(WorkStatus::Continue)
    }
}
