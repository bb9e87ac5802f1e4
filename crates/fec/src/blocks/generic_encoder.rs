//! [`GenericEncoder`]: an encoder object run on a stream of bits frame after frame (GNU
//! Radio's `fec.encoder`, GRC's `fec_generic_encoder`).

use crate::code::{Conversion, Encoder};
use crate::def::EncoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// A stream of bits (one per byte, in the low bit) encoded frame by frame by the encoder
/// object `encoder` into code bits, one per byte, with nothing done before or after (GNU
/// Radio's `fec.encoder`, GRC's `fec_generic_encoder`). Every encoder of GNU Radio's FEC API
/// reads and writes bytes, and its block hands them the raw memory of its items: only byte
/// items in and out are taken (GRC's other item types are refused), and an encoder that
/// wants packed bytes (`fec.ccsds_encoder_make`) is refused as GNU Radio's `extended_encoder`
/// would pack them for it and this block does not. A frame left incomplete at the end of the
/// stream makes no output, as in GNU Radio. Each input tag moves to its offset times the rate
/// (code bits per data bit), rounded half up, as GNU Radio's scheduler moves them.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_fec::GenericEncoder;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 0, 1]));
/// let enc = fg.add(GenericEncoder::new("fec.repetition_encoder_make(2, 3)".parse()?)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, enc)?;
/// fg.connect(enc, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 1, 1, 0, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_generic_encoder",
    summary = "Bits encoded frame by frame by an FEC encoder object (GNU Radio's fec.encoder).",
    make = Self::new(encoder).map_err(|e| Refused::param("encoder", e))?
)]
#[param(
    encoder: EncoderDef,
    example = "fec.repetition_encoder_make(8, 3)",
    doc = "the encoder object as GNU Radio's Python makes it (see fec_extended_encoder); not fec.ccsds_encoder_make"
)]
#[derive(Debug)]
pub struct GenericEncoder {
    /// Bits, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Code bits, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    encoder: Box<dyn Encoder>,
}

#[block]
impl GenericEncoder {
    /// Encodes by `encoder`.
    ///
    /// # Errors
    /// `encoder` wants packed bytes in or makes them.
    pub fn new(encoder: EncoderDef) -> Result<Self, String> {
        let encoder = encoder.build();
        if encoder.input_conversion() != Conversion::None
            || encoder.output_conversion() != Conversion::None
        {
            return Err(
                "this encoder takes packed bytes (GNU Radio's extended_encoder packs \
                        them for it, fec.encoder hands it the bits as they are): use \
                        fec_extended_encoder"
                    .to_string(),
            );
        }
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
        propagate_tags_at_rate(
            &self.input,
            &mut self.output,
            frames * n_in,
            n_out as u64,
            n_in as u64,
        );
        self.input.consume(frames * n_in);
        self.output.produce(frames * n_out);
        Ok(WorkStatus::Continue)
    }
}
