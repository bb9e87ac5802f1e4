//! [`ExtendedDecoder`]: a stream of soft values through a decoder object, frame by frame.

use super::puncpat::Puncture;
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
/// makes no output, as in GNU Radio. Where `puncpat` leaves bits out, each group of the
/// values sent becomes a group of `len(puncpat)` bytes with 127 where a bit was left out
/// (GNU Radio's `fec.depuncture_bb`, on the bytes: a decoder taking floats is refused, as
/// GNU Radio cannot connect it; a part group at the end makes no output). Input tags are not
/// carried yet, nor the tag GNU Radio's decoder block adds after each frame.
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
    doc = "the decoder object as GNU Radio's Python makes it: fec.dummy_decoder.make(bits), fec.repetition_decoder.make(bits, rep, prob), fec.cc_decoder.make(bits, k, rate, polys, start_state, end_state, mode, padding), fec.ldpc_decoder.make(file, sigma, max_iter), fec.ldpc_bit_flip_decoder.make(matrix, max_iter) of fec.ldpc_H_matrix(file, gap) or fec.ldpc_G_matrix(file), fec.polar_decoder_sc.make(N, K, frozen, values), fec.polar_decoder_sc_systematic.make(N, K, frozen), fec.polar_decoder_sc_list.make(L, N, K, frozen, values)"
)]
#[param(puncpat: String = "11", doc = "puncturing pattern: of each group of code bits as long as it, those where it has a 1 were sent (only for decoders taking bytes)")]
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
    /// Where bits were left out: the pattern, and the depunctured bytes not yet decoded.
    puncture: Option<Puncture>,
    depunctured: Vec<u8>,
}

#[block]
impl ExtendedDecoder {
    /// Decodes by `decoder`, depunctured by `puncpat`.
    ///
    /// # Errors
    /// Naming the parameter: `puncpat` is not a pattern of 0s and 1s with a 1 (of at most
    /// 32), or leaves bits out before a decoder taking floats; `decoder` cannot be made.
    pub fn new(decoder: DecoderDef, puncpat: &str) -> Result<Self, (&'static str, String)> {
        let puncture = Puncture::parse(puncpat).map_err(|e| ("puncpat", e))?;
        let decoder = decoder.build().map_err(|e| ("decoder", e.to_string()))?;
        if puncture.is_some() && decoder.soft_input() == SoftInput::Float {
            return Err((
                "puncpat",
                format!(
                    "'{puncpat}' leaves code bits out, and GNU Radio depunctures bytes: its \
                     depuncture_bb cannot feed a decoder of floats (dummy, repetition)"
                ),
            ));
        }
        let reads = decoder.input_size() + decoder.history();
        let bytes = match decoder.soft_input() {
            SoftInput::Uchar { .. } => vec![0; reads],
            SoftInput::Float => Vec::new(),
        };
        let in_min = match &puncture {
            Some(p) => p.kept(),
            None => reads,
        };
        Ok(Self {
            input: StreamInput::new().with_min_items(in_min),
            output: StreamOutput::new().with_min_items(decoder.output_size()),
            depunctured: Vec::with_capacity(if puncture.is_some() {
                2 * reads + 64
            } else {
                0
            }),
            decoder,
            bytes,
            puncture,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.puncture.is_some() {
            return self.work_punctured();
        }
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

impl ExtendedDecoder {
    /// Values quantized to bytes and depunctured, then decoded a frame at a time.
    fn work_punctured(&mut self) -> Result<WorkStatus, BlockError> {
        let (Some(puncture), SoftInput::Uchar { shift }) =
            (&self.puncture, self.decoder.soft_input())
        else {
            return Ok(WorkStatus::Continue);
        };
        let (n_in, n_out) = (self.decoder.input_size(), self.decoder.output_size());
        let reads = n_in + self.decoder.history();
        loop {
            let y = self.output.slice();
            if self.depunctured.len() >= reads {
                if y.len() < n_out {
                    break;
                }
                self.decoder
                    .decode(Soft::Uchar(&self.depunctured[..reads]), &mut y[..n_out]);
                self.output.produce(n_out);
                self.depunctured.drain(..n_in);
                continue;
            }
            // Enough groups for the frame, at most.
            let x = self.input.slice();
            let need = (reads - self.depunctured.len()).div_ceil(puncture.size());
            let groups = (x.len() / puncture.kept()).min(need);
            if groups == 0 {
                break;
            }
            let take = groups * puncture.kept();
            self.bytes.clear();
            self.bytes
                .extend(x[..take].iter().map(|v| SoftInput::quantize(shift, *v)));
            puncture.depuncture(&self.bytes, &mut self.depunctured);
            self.input.consume(take);
        }
        Ok(WorkStatus::Continue)
    }
}
