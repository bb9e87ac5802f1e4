//! [`AsyncDecoder`]: each PDU of soft values decoded by a decoder object.

use super::bits::pack;
use crate::code::{Decoder, Soft, SoftInput};
use crate::def::DecoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each PDU of soft values (an f32 vector, positive for a 1 bit) decoded by the decoder
/// object `decoder`, its frame set to the PDU's size (GNU Radio's `fec.async_decoder`):
/// into bits, one per byte, with `iterations` (the decoder's, -1 where it does not iterate)
/// added to the metadata, or (`packed`) into
/// whole bytes packed least significant bit first (`rev_pack`), metadata unchanged. For a
/// decoder taking bytes each value becomes `x · 48 + 128` cut to an integer as GNU Radio's
/// cast does (toward zero), clamped to a byte (GNU Radio's cast wraps beyond it instead:
/// only values within ±2.66 are decided alike).
///
/// A decoder with look-ahead (streaming convolutional) is refused, as GNU Radio refuses it;
/// a PDU larger than `mtu` bytes of data or one that does not divide into frames stops the
/// flowgraph with an error naming the block, as GNU Radio throws.
#[library_block(
    id = "fec_async_decoder",
    summary = "Each PDU of soft values decoded by an FEC decoder object (GNU Radio's fec.async_decoder).",
    make = Self::new(decoder, packed, rev_pack, mtu).map_err(|e| Refused::param("decoder", e))
)]
#[param(
    decoder: DecoderDef,
    example = "fec.cc_decoder.make(8000, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)",
    doc = "the decoder object as GNU Radio's Python makes it (see fec_extended_decoder); not a streaming one"
)]
#[param(packed: bool = false, doc = "pack the decoded bits into bytes")]
#[param(rev_pack: bool = true, doc = "packed: the first bit least significant")]
#[param(mtu: usize = 1500, min = 1, doc = "the largest PDU, in bytes of data")]
#[message_input(name = "in", doc = "PDUs: (metadata . f32 vector)")]
#[derive(Debug)]
pub struct AsyncDecoder {
    /// The decoded PDUs.
    #[message_output(name = "out")]
    out: MessageOutput,
    decoder: Box<dyn Decoder>,
    packed: bool,
    rev_pack: bool,
    /// The most soft values a PDU may have (GNU Radio's `d_max_bits_in`).
    max_in: usize,
    /// The soft values of the last PDU, as floats or bytes, kept as GNU Radio keeps them: a
    /// frame longer than its PDU (a terminated code's tail cut off by packing) reads the
    /// previous PDU's values beyond it there.
    floats: Vec<f32>,
    bytes: Vec<u8>,
}

#[block]
impl AsyncDecoder {
    /// Decodes PDUs by `decoder`.
    ///
    /// # Errors
    /// The decoder cannot be made, or it looks ahead into the next frame.
    pub fn new(
        decoder: DecoderDef,
        packed: bool,
        rev_pack: bool,
        mtu: usize,
    ) -> Result<Self, String> {
        let decoder = decoder.build().map_err(|e| e.to_string())?;
        if decoder.history() > 0 {
            return Err(
                "a decoder reading into the next frame (a streaming convolutional code) \
                        has no next frame in a PDU; GNU Radio refuses it too"
                    .into(),
            );
        }
        let max_in = (mtu as f64 * 8.0 / decoder.rate()) as usize;
        let room = max_in.max(decoder.input_size());
        Ok(Self {
            out: MessageOutput::new(),
            decoder,
            packed,
            rev_pack,
            max_in,
            floats: vec![0.0; room],
            bytes: vec![0; room],
        })
    }

    /// One frame decoded from `soft` (the previous PDU's values after it) into `out`.
    fn decode_frame(&mut self, soft: &[f32], out: &mut [u8]) {
        let n_in = self.decoder.input_size();
        let mut frame = vec![0u8; self.decoder.output_size()];
        match self.decoder.soft_input() {
            SoftInput::Float => {
                self.floats[..soft.len()].copy_from_slice(soft);
                self.decoder
                    .decode(Soft::Float(&self.floats[..n_in]), &mut frame);
            }
            SoftInput::Uchar { shift } => {
                for (b, v) in self.bytes.iter_mut().zip(soft) {
                    *b = (v * 48.0 + shift).trunc() as u8;
                }
                self.decoder
                    .decode(Soft::Uchar(&self.bytes[..n_in]), &mut frame);
            }
        }
        let n = frame.len().min(out.len());
        out[..n].copy_from_slice(&frame[..n]);
    }

    #[message_input(name = "in")]
    fn input(&mut self, pdu: &Pmt) -> Result<(), BlockError> {
        let (meta, data) = match pdu.as_pair() {
            Some((meta, data)) => (meta, data),
            None => {
                return Err(BlockError::msg(
                    "in: the message is not a PDU (metadata . data)",
                ))
            }
        };
        let Pmt::F32Vector(soft) = data else {
            return Err(BlockError::msg("in: the PDU's data is not an f32 vector"));
        };
        let n = soft.len();
        if n > self.max_in {
            return Err(BlockError::msg(format!(
                "in: a PDU of {n} soft values is larger than the MTU allows ({})",
                self.max_in
            )));
        }
        let rate = self.decoder.rate();
        if self.packed {
            let n_out = (n as f64 * rate) as usize;
            self.decoder.set_frame_size(n_out);
            let mut bits = vec![0u8; n_out.max(self.decoder.output_size())];
            self.decode_frame(soft, &mut bits);
            let bytes = pack(&bits, n_out / 8, self.rev_pack);
            self.out.post(Pmt::pair(meta.clone(), Pmt::blob(bytes)));
            return Ok(());
        }
        // GNU Radio's arithmetic, in f64 truncated as its casts do: the code bits a frame has
        // beyond `input / rate` (a terminated code's tail).
        let diff =
            (rate * self.decoder.input_size() as f64 - self.decoder.output_size() as f64) as i64;
        let target = (n as f64 * rate - diff as f64).max(0.0) as usize;
        let bits = if self.decoder.set_frame_size(target) {
            let mut bits = vec![0u8; target];
            self.decode_frame(soft, &mut bits);
            bits
        } else {
            let (n_in, n_out) = (self.decoder.input_size(), self.decoder.output_size());
            if n % n_in != 0 {
                return Err(BlockError::msg(format!(
                    "in: a PDU of {n} soft values does not divide into frames of {n_in}"
                )));
            }
            let mut bits = vec![0u8; n / n_in * n_out];
            match self.decoder.soft_input() {
                SoftInput::Float => {
                    for (i, o) in soft.chunks_exact(n_in).zip(bits.chunks_exact_mut(n_out)) {
                        self.decoder.decode(Soft::Float(i), o);
                    }
                }
                // GNU Radio decodes only the first frame of bytes (the rest stay 0).
                SoftInput::Uchar { .. } => self.decode_frame(&soft[..n_in], &mut bits[..n_out]),
            }
            bits
        };
        let mut meta = if meta.is_dict() {
            meta.clone()
        } else {
            Pmt::dict_from::<&str, i64>([])
        };
        meta.dict_add(
            Pmt::symbol("iterations"),
            Pmt::Int(self.decoder.iterations()),
        );
        self.out.post(Pmt::pair(meta, Pmt::blob(bits)));
        Ok(())
    }
}
