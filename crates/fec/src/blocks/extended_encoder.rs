//! [`ExtendedEncoder`]: a stream of bits through an encoder object, frame by frame.

use super::puncpat::Puncture;
use crate::code::Encoder;
use crate::def::EncoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// A stream of bits (one per byte, in the low bit) encoded frame by frame by the encoder
/// object `encoder` (GNU Radio's `fec.extended_encoder` with the generic `fec.encoder`
/// inside), then punctured by `puncpat` where it leaves bits out (GNU Radio's
/// `fec.puncture_bb` after the encoder: of each group of `len(puncpat)` code bits, those
/// where the pattern has a 1, groups running on across frames). A frame left incomplete at
/// the end of the stream makes no output, nor does a part group, as in GNU Radio. Input tags
/// are not carried yet (GNU Radio moves them by the code's rate).
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
    doc = "the encoder object as GNU Radio's Python makes it: fec.dummy_encoder_make(bits), fec.repetition_encoder_make(bits, rep), fec.cc_encoder_make(bits, k, rate, polys, start_state, mode, padding), fec.ccsds_encoder_make(bits, start_state, mode), fec.ldpc_encoder_make(file), fec.ldpc_par_mtrx_encoder_make_H(fec.ldpc_H_matrix(file, gap)), fec.ldpc_gen_mtrx_encoder_make(fec.ldpc_G_matrix(file)), fec.polar_encoder.make(N, K, frozen, values, False), fec.polar_encoder_systematic.make(N, K, frozen)"
)]
#[param(puncpat: String = "11", doc = "puncturing pattern: of each group of code bits as long as it, those where it has a 1 are sent")]
#[derive(Debug)]
pub struct ExtendedEncoder {
    /// Bits, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Code bits, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    encoder: Box<dyn Encoder>,
    /// Where bits are left out: the pattern, the code bits of a part group, and the sent
    /// bits waiting for room.
    puncture: Option<Puncture>,
    code: Vec<u8>,
    sent: Vec<u8>,
}

#[block]
impl ExtendedEncoder {
    /// Encodes by `encoder`, punctured by `puncpat`.
    ///
    /// # Errors
    /// `puncpat` is not a pattern of 0s and 1s with a 1, of at most 32.
    pub fn new(encoder: EncoderDef, puncpat: &str) -> Result<Self, String> {
        let puncture = Puncture::parse(puncpat)?;
        let encoder = encoder.build();
        let out_min = if puncture.is_some() {
            1
        } else {
            encoder.output_size()
        };
        Ok(Self {
            input: StreamInput::new().with_min_items(encoder.input_size()),
            output: StreamOutput::new().with_min_items(out_min),
            code: Vec::with_capacity(encoder.output_size() + 32),
            sent: Vec::with_capacity(encoder.output_size()),
            encoder,
            puncture,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        if self.puncture.is_some() {
            return self.work_punctured();
        }
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

impl ExtendedEncoder {
    /// One frame at a time: encoded, punctured, sent as room allows.
    fn work_punctured(&mut self) -> Result<WorkStatus, BlockError> {
        let Some(puncture) = &self.puncture else {
            return Ok(WorkStatus::Continue);
        };
        let (n_in, n_out) = (self.encoder.input_size(), self.encoder.output_size());
        loop {
            if !self.sent.is_empty() {
                let y = self.output.slice();
                let n = y.len().min(self.sent.len());
                y[..n].copy_from_slice(&self.sent[..n]);
                self.output.produce(n);
                self.sent.drain(..n);
                if !self.sent.is_empty() {
                    break;
                }
            }
            let x = self.input.slice();
            if x.len() < n_in {
                break;
            }
            let part = self.code.len();
            self.code.resize(part + n_out, 0);
            self.encoder.encode(&x[..n_in], &mut self.code[part..]);
            self.input.consume(n_in);
            let used = puncture.puncture(&self.code, &mut self.sent);
            self.code.drain(..used);
        }
        Ok(WorkStatus::Continue)
    }
}
