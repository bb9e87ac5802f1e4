//! [`AsyncEncoder`]: each PDU encoded by an encoder object.

use super::bits::{pack, unpack};
use crate::code::{Conversion, Encoder};
use crate::def::EncoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each PDU's data encoded by the encoder object `encoder`, its frame set to the PDU's size
/// (GNU Radio's `fec.async_encoder`). Unpacked (`packed` false), the data are bits, one per
/// byte, and so is the output; a PDU larger than the encoder's frame is coded as whole
/// frames. Packed, the data are bytes, unpacked least significant bit first
/// (`rev_unpack`; the CCSDS encoder takes them most significant first whatever it says) and
/// the code bits packed into whole bytes, least significant first (`rev_pack`). The
/// metadata pass unchanged.
///
/// A PDU of more than `mtu` bytes (bits, unpacked), or one that does not divide into frames,
/// stops the flowgraph with an error naming the block, as GNU Radio throws.
#[library_block(
    id = "fec_async_encoder",
    summary = "Each PDU encoded by an FEC encoder object (GNU Radio's fec.async_encoder).",
    make = Self::new(encoder, packed, rev_unpack, rev_pack, mtu)
)]
#[param(
    encoder: EncoderDef,
    example = "fec.cc_encoder_make(8000, 7, 2, [109, 79], 0, fec.CC_TERMINATED, False)",
    doc = "the encoder object as GNU Radio's Python makes it (see fec_extended_encoder)"
)]
#[param(packed: bool = false, doc = "PDUs of bytes (true) or of bits, one per byte (false)")]
#[param(rev_unpack: bool = true, doc = "packed: unpack the least significant bit first")]
#[param(rev_pack: bool = true, doc = "packed: pack the code bits least significant first")]
#[param(mtu: usize = 1500, min = 1, doc = "the largest PDU in bytes")]
#[message_input(name = "in", doc = "PDUs: (metadata . u8 vector)")]
#[derive(Debug)]
pub struct AsyncEncoder {
    /// The encoded PDUs.
    #[message_output(name = "out")]
    out: MessageOutput,
    encoder: Box<dyn Encoder>,
    packed: bool,
    rev_unpack: bool,
    rev_pack: bool,
    mtu: usize,
    /// Set apart for the CCSDS encoder (GNU Radio's "pack" input conversion).
    takes_packed: bool,
    bits: Vec<u8>,
}

#[block]
impl AsyncEncoder {
    /// Encodes PDUs by `encoder`.
    pub fn new(
        encoder: EncoderDef,
        packed: bool,
        rev_unpack: bool,
        rev_pack: bool,
        mtu: usize,
    ) -> Self {
        let takes_packed = matches!(encoder, EncoderDef::Ccsds(_));
        let encoder = encoder.build();
        debug_assert_eq!(encoder.input_conversion(), Conversion::None);
        Self {
            out: MessageOutput::new(),
            encoder,
            packed,
            rev_unpack,
            rev_pack,
            mtu,
            takes_packed,
            bits: Vec::new(),
        }
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
        let Some(data) = data.as_blob() else {
            return Err(BlockError::msg("in: the PDU's data is not a u8 vector"));
        };
        let limit = if self.packed { self.mtu } else { 8 * self.mtu };
        if data.len() > limit {
            return Err(BlockError::msg(format!(
                "in: a PDU of {} {} is larger than the MTU ({} bytes)",
                data.len(),
                if self.packed { "bytes" } else { "bits" },
                self.mtu
            )));
        }
        let code = if self.packed {
            unpack(data, self.rev_unpack && !self.takes_packed, &mut self.bits);
            self.encoder.set_frame_size(self.bits.len());
            let n_out = self.encoder.output_size();
            let mut code = vec![0; n_out];
            self.bits.resize(self.encoder.input_size(), 0);
            self.encoder.encode(&self.bits, &mut code);
            Pmt::blob(pack(&code, n_out / 8, self.rev_pack))
        } else {
            let n = data.len();
            let mut code;
            if self.encoder.set_frame_size(n) {
                code = vec![0; self.encoder.output_size()];
                self.encoder.encode(data, &mut code);
            } else {
                let (n_in, n_out) = (self.encoder.input_size(), self.encoder.output_size());
                if n % n_in != 0 {
                    return Err(BlockError::msg(format!(
                        "in: a PDU of {n} bits does not divide into frames of {n_in} bits"
                    )));
                }
                code = vec![0; n / n_in * n_out];
                for (i, o) in data.chunks_exact(n_in).zip(code.chunks_exact_mut(n_out)) {
                    self.encoder.encode(i, o);
                }
            }
            Pmt::blob(code)
        };
        self.out.post(Pmt::pair(meta.clone(), code));
        Ok(())
    }
}
