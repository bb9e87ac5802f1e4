//! [`GenericDecoder`] and [`GenericByteDecoder`]: a decoder object run on a stream frame after
//! frame, its items handed to it as they are (GNU Radio's `fec.decoder`, GRC's
//! `fec_generic_decoder`), floats or bytes as the decoder reads them.

use super::frame_tags::alias_id;
use crate::code::{Decoder, Soft, SoftInput};
use crate::def::DecoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// The items the generic decoders take: the soft values as the decoder reads them, floats or
/// bytes (GNU Radio's block hands the decoder its input buffer's bytes, whatever the item
/// type; radioflow takes only the type the decoder reads).
trait SoftItem: Item {
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
/// floats here, for the decoders that read floats (dummy, repetition, LDPC, polar);
/// [`GenericByteDecoder`] takes bytes, for those that read bytes (convolutional: GNU Radio's
/// `extended_decoder` makes them of floats with `x · 48 + 128`, these blocks do not). GNU Radio's block hands the decoder the raw memory
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
/// let dec = fg.add(GenericDecoder::new("fec.repetition_decoder.make(2, 3, 0.5)".parse()?)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_generic_decoder",
    summary = "Soft values (floats) decoded frame by frame by an FEC decoder object (GNU Radio's fec.decoder; fec_generic_decoder_b for decoders that read bytes).",
    make = Self::new(decoder).map_err(|e| Refused::param("decoder", e))?
)]
#[param(
    decoder: DecoderDef,
    example = "fec.dummy_decoder.make(16)",
    doc = "the decoder object as GNU Radio's Python makes it (see fec_extended_decoder), one that reads floats (not fec.cc_decoder)"
)]
#[derive(Debug)]
pub struct GenericDecoder {
    /// Soft values.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// Bits, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    frames: Frames,
}

#[block]
impl GenericDecoder {
    /// Decodes by `decoder`.
    ///
    /// # Errors
    /// `decoder` cannot be made, or reads bytes.
    pub fn new(decoder: DecoderDef) -> Result<Self, String> {
        let frames = Frames::new::<f32>(decoder)?;
        Ok(Self {
            input: StreamInput::new().with_min_items(frames.reads()),
            output: StreamOutput::new().with_min_items(frames.decoder.output_size()),
            frames,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        self.frames.work(&mut self.input, &mut self.output);
        Ok(WorkStatus::Continue)
    }
}

/// [`GenericDecoder`] for the decoders that read bytes (`fec.cc_decoder`): soft values as
/// bytes, `rint(x · 48 + 128)` clamped (GNU Radio's `fec.decoder` with an input type of byte,
/// `fec_generic_decoder_b` in radioflow's library, which the GRC table picks by the input
/// type).
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_fec::GenericByteDecoder;
/// use radioflow_runtime::Flowgraph;
///
/// // A terminated rate 1/2 code of 8 data bits (and 6 tail bits): all zeros, as clean soft
/// // bytes (80 is -1).
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![80u8; 28]));
/// let dec = fg.add(GenericByteDecoder::new("fec.cc_decoder.make(8, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)".parse()?)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0; 8]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_generic_decoder_b",
    summary = "Soft values as bytes decoded frame by frame by an FEC decoder object that reads bytes (GNU Radio's fec.decoder with byte items in).",
    make = Self::new(decoder).map_err(|e| Refused::param("decoder", e))?
)]
#[param(
    decoder: DecoderDef,
    example = "fec.cc_decoder.make(16, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)",
    doc = "the decoder object as GNU Radio's Python makes it, one that reads bytes (fec.cc_decoder)"
)]
#[derive(Debug)]
pub struct GenericByteDecoder {
    /// Soft values as bytes (128 is 0).
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Bits, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    frames: Frames,
}

#[block]
impl GenericByteDecoder {
    /// Decodes by `decoder`.
    ///
    /// # Errors
    /// `decoder` cannot be made, or reads floats.
    pub fn new(decoder: DecoderDef) -> Result<Self, String> {
        let frames = Frames::new::<u8>(decoder)?;
        Ok(Self {
            input: StreamInput::new().with_min_items(frames.reads()),
            output: StreamOutput::new().with_min_items(frames.decoder.output_size()),
            frames,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        self.frames.work(&mut self.input, &mut self.output);
        Ok(WorkStatus::Continue)
    }
}

/// What both generic decoders do: the decoder, and the key of its frame marks.
#[derive(Debug)]
struct Frames {
    decoder: Box<dyn Decoder>,
    /// The tag key marking each frame's end (`dummy_decoder1`).
    alias: Pmt,
}

impl Frames {
    /// The decoder `decoder` makes, which must read `T`.
    fn new<T: SoftItem>(decoder: DecoderDef) -> Result<Self, String> {
        let name = decoder.name();
        let decoder = decoder.build().map_err(|e| e.to_string())?;
        if !T::fits(decoder.soft_input()) {
            let (reads, block) = match decoder.soft_input() {
                SoftInput::Float => ("float", "fec_generic_decoder"),
                SoftInput::Uchar { .. } => ("byte", "fec_generic_decoder_b"),
            };
            return Err(format!(
                "{name} reads {reads} items: GNU Radio's fec.decoder hands it the raw bytes of \
                 its input items, so another input type decodes garbage; set the input type \
                 to {reads} ({block})"
            ));
        }
        Ok(Self {
            alias: Pmt::symbol(format!("{name}{}", alias_id())),
            decoder,
        })
    }

    /// Input items one frame's decoding reads.
    fn reads(&self) -> usize {
        self.decoder.input_size() + self.decoder.history()
    }

    /// Decodes every whole frame (with its look-ahead) that fits the output, marks each
    /// frame's end and moves the input's tags.
    fn work<T: SoftItem>(&mut self, input: &mut StreamInput<T>, output: &mut StreamOutput<u8>) {
        let (n_in, n_out) = (self.decoder.input_size(), self.decoder.output_size());
        let reads = self.reads();
        let x = input.slice();
        let y = output.slice();
        let frames = (x.len().saturating_sub(reads - n_in) / n_in).min(y.len() / n_out);
        if frames == 0 {
            return;
        }
        for f in 0..frames {
            let values = &x[f * n_in..f * n_in + reads];
            self.decoder
                .decode(T::soft(values), &mut y[f * n_out..(f + 1) * n_out]);
        }
        let start = output.offset();
        for f in 1..=frames {
            let tag = Tag::new(start + (f * n_out) as u64, self.alias.clone(), true)
                .with_srcid(Pmt::symbol("fec_decoder"));
            output.push_tag(tag);
        }
        propagate_tags_at_rate(input, output, frames * n_in, n_out as u64, n_in as u64);
        input.consume(frames * n_in);
        output.produce(frames * n_out);
    }
}
