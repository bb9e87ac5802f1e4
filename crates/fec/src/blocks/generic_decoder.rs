//! [`GenericDecoder`]: a decoder object run on a stream frame after frame, its items handed to
//! it as they are (GNU Radio's `fec.decoder`, GRC's `fec_generic_decoder`).

use super::frame_tags::{alias_id, move_tags};
use crate::code::{Decoder, Soft, SoftInput};
use crate::def::DecoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The items a [`GenericDecoder`] takes: the soft values as its decoder reads them, floats or
/// bytes (GNU Radio's block hands the decoder its input buffer's bytes, whatever the item
/// type; radioflow takes only the type the decoder reads).
pub trait SoftItem: Item {
    /// Whether a decoder taking `soft` reads items of this type.
    fn fits(soft: SoftInput) -> bool;
    /// One frame of items as the decoder's input.
    fn soft(items: &[Self]) -> Soft<'_>;
}

impl SoftItem for f32 {
    fn fits(soft: SoftInput) -> bool {
        soft == SoftInput::Float
    }
    fn soft(items: &[Self]) -> Soft<'_> {
        Soft::Float(items)
    }
}

impl SoftItem for u8 {
    fn fits(soft: SoftInput) -> bool {
        matches!(soft, SoftInput::Uchar { .. })
    }
    fn soft(items: &[Self]) -> Soft<'_> {
        Soft::Uchar(items)
    }
}

/// Soft values decoded frame by frame by the decoder object `decoder` into bits, one per byte,
/// with nothing done to them before (GNU Radio's `fec.decoder`, GRC's `fec_generic_decoder`):
/// floats for the decoders that read floats (dummy, repetition, LDPC, polar), bytes for those
/// that read bytes (convolutional: GNU Radio's `extended_decoder` makes them of floats with
/// `x · 48 + 128`, this block does not). GNU Radio's block hands the decoder the raw memory
/// of its items, so another item type than the decoder reads decodes garbage there: it is
/// refused here, as is an output of other items than bytes (the decoder writes one byte per
/// bit, GNU Radio leaves the rest of each item unwritten).
///
/// A frame is decoded once its values and the decoder's look-ahead are in (a streaming
/// Viterbi decoder reads 12 values of the next frame). GNU Radio's scheduler asks for more
/// than that look-ahead (twice a frame's output in input), so at the end of a stream it may
/// leave a frame or two undecoded that radioflow decodes; with no look-ahead both decode every
/// whole frame.
///
/// Tags: each input tag moves to its offset times the rate (output bits per input value),
/// rounded half up, as GNU Radio's scheduler moves them; after each frame, on the first
/// item of the next, the decoder marks its end as GNU Radio's block does: key the decoder's
/// name and number (`dummy_decoder1`: the name GNU Radio's decoder has, numbered in the
/// order this process made generic decoder blocks, where GNU Radio numbers the decoder
/// objects it made), value `#t`, source id `fec_decoder`.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_fec::GenericDecoder;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, -0.5, 0.2, -1.0, -1.0, 0.3]));
/// let dec = fg.add(GenericDecoder::<f32>::new("fec.repetition_decoder.make(2, 3, 0.5)".parse()?)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_generic_decoder",
    summary = "Soft values (floats or bytes, as the decoder reads them) decoded frame by frame by an FEC decoder object (GNU Radio's fec.decoder).",
    dtypes = [Float32, Uint8],
    make = Self::new(decoder).map_err(|e| Refused::param("decoder", e))?
)]
#[param(
    decoder: DecoderDef,
    example = "fec.dummy_decoder.make(16)",
    doc = "the decoder object as GNU Radio's Python makes it (see fec_extended_decoder); the item type is the one it reads: float, or byte for fec.cc_decoder"
)]
#[derive(Debug)]
pub struct GenericDecoder<T: SoftItem> {
    /// Soft values, as the decoder reads them.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// Bits, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    decoder: Box<dyn Decoder>,
    /// The tag key marking each frame's end (`dummy_decoder1`).
    alias: Pmt,
}

#[block]
impl<T: SoftItem> GenericDecoder<T> {
    /// Decodes by `decoder`.
    ///
    /// # Errors
    /// `decoder` cannot be made, or reads other items than `T`.
    pub fn new(decoder: DecoderDef) -> Result<Self, String> {
        let name = decoder.name();
        let decoder = decoder.build().map_err(|e| e.to_string())?;
        if !T::fits(decoder.soft_input()) {
            let reads = match decoder.soft_input() {
                SoftInput::Float => "float",
                SoftInput::Uchar { .. } => "byte",
            };
            return Err(format!(
                "{name} reads {reads} items: GNU Radio's fec.decoder hands it the raw bytes of \
                 its input items, so another input type decodes garbage; set the input type \
                 to {reads}"
            ));
        }
        Ok(Self {
            input: StreamInput::new().with_min_items(decoder.input_size() + decoder.history()),
            output: StreamOutput::new().with_min_items(decoder.output_size()),
            alias: Pmt::symbol(format!("{name}{}", alias_id())),
            decoder,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (n_in, n_out) = (self.decoder.input_size(), self.decoder.output_size());
        let reads = n_in + self.decoder.history();
        let x = self.input.slice();
        let y = self.output.slice();
        let frames = (x.len().saturating_sub(reads - n_in) / n_in).min(y.len() / n_out);
        if frames == 0 {
            return Ok(WorkStatus::Continue);
        }
        for f in 0..frames {
            let values = &x[f * n_in..f * n_in + reads];
            self.decoder
                .decode(T::soft(values), &mut y[f * n_out..(f + 1) * n_out]);
        }
        let start = self.output.offset();
        for f in 1..=frames {
            let tag = Tag::new(start + (f * n_out) as u64, self.alias.clone(), true)
                .with_srcid(Pmt::symbol("fec_decoder"));
            self.output.push_tag(tag);
        }
        move_tags(&self.input, &mut self.output, frames * n_in, n_in, n_out);
        self.input.consume(frames * n_in);
        self.output.produce(frames * n_out);
        Ok(WorkStatus::Continue)
    }
}
