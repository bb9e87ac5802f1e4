//! [`TaggedDecoder`]: each packet of a tagged stream of soft values decoded by a decoder
//! object.

use super::packet::Packet;
use crate::code::{Decoder, Soft, SoftInput};
use crate::def::DecoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each packet of a tagged stream of soft values (positive: a 1 bit; packets marked by
/// length tags of key `lentagname`) decoded by the decoder object `decoder`, its frame set to
/// the packet's length times the code's rate rounded (GNU Radio's
/// `fec.extended_tagged_decoder` with a length tag name, which runs `fec.tagged_decoder`):
/// bits out, one per byte, each packet with a length tag of their number. For a decoder
/// taking bytes each value first becomes `rint(x · 48 + 128)` clamped to a byte, as GNU
/// Radio's `multiply_const_ff`, `add_const_ff` and `float_to_uchar` make it. A packet longer
/// than the decoder's frame is decoded as one frame of its first values, as GNU Radio does;
/// where the frame reads more values than the packet has, GNU Radio reads its buffer's next
/// items and radioflow reads zeros. Other tags move to their input offset times the rate
/// (1/3 for `rep` 3), rounded to the nearest item, as GNU Radio's scheduler moves them: one
/// landing before its packet's first bit is left out (GNU Radio puts it there, where its
/// reader sees it or not as it has read past that item or not yet: a matter of thread
/// timing).
///
/// An LDPC decoder needs `8 · mtu` bits to be whole codewords' data, and a packet it cannot
/// take (not whole codewords) stops the run, as GNU Radio's decoder throws.
///
/// A decoder with look-ahead (streaming convolutional) is refused: it would read the next
/// packet. A packet of more than `mtu` bytes of data (`length · rate > 8 · mtu`) stops the
/// run with an error naming the block, as GNU Radio throws; so does an item that starts no
/// packet. A packet left incomplete at the end of the stream makes no output.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamToTaggedStream, VectorSink, VectorSource};
/// use radioflow_fec::TaggedDecoder;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1.0f32, -0.5, 0.2, -1.0, -1.0, 0.3]));
/// let tag = fg.add(StreamToTaggedStream::<f32>::new(6, "packet_len"));
/// let dec = fg.add(TaggedDecoder::new("fec.repetition_decoder.make(8, 3, 0.5)".parse()?, "11", "packet_len", 1500).map_err(|(_, e)| e)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, tag)?;
/// fg.connect(tag, dec)?;
/// fg.connect(dec, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_tagged_decoder",
    summary = "Each packet of a tagged stream of soft values decoded by an FEC decoder object (GNU Radio's fec.extended_tagged_decoder with a length tag name).",
    make = Self::new(decoder, &puncpat, &lentagname, mtu).map_err(|(p, e)| Refused::param(p, e))
)]
#[param(
    decoder: DecoderDef,
    example = "fec.cc_decoder.make(2048, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)",
    doc = "the decoder object as GNU Radio's Python makes it (see fec_extended_decoder); not a streaming one"
)]
#[param(puncpat: String = "11", doc = "puncturing pattern: 1 where a code bit was kept (only patterns of 1s so far)")]
#[param(lentagname: String = "packet_len", doc = "the length tag's key")]
#[param(mtu: usize = 1500, min = 1, doc = "the largest packet of data, in bytes")]
#[derive(Debug)]
pub struct TaggedDecoder {
    /// Packets of soft values, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<f32>,
    /// Packets of bits, one per byte, each starting with a length tag.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    decoder: Box<dyn Decoder>,
    mtu: usize,
    packet: Packet<f32>,
    /// One frame's values (zeros past the packet), as floats or bytes.
    floats: Vec<f32>,
    bytes: Vec<u8>,
    /// Whether a frame the decoder cannot take stops the run (GNU Radio's LDPC decoder
    /// throws) rather than being cut to the largest (the others).
    strict: bool,
}

#[block]
impl TaggedDecoder {
    /// Decodes the packets tagged `lentagname` by `decoder`, depunctured by `puncpat`.
    ///
    /// # Errors
    /// Naming the parameter: `puncpat` is not a pattern of 1s; `decoder` cannot be made or
    /// looks ahead into the next frame; `mtu` is not whole codewords of an LDPC decoder.
    pub fn new(
        decoder: DecoderDef,
        puncpat: &str,
        lentagname: &str,
        mtu: usize,
    ) -> Result<Self, (&'static str, String)> {
        super::puncpat::check_tagged(puncpat).map_err(|e| ("puncpat", e))?;
        let strict = matches!(
            decoder,
            DecoderDef::Ldpc { .. } | DecoderDef::LdpcBitFlip { .. }
        );
        let mut decoder = decoder.build().map_err(|e| ("decoder", e.to_string()))?;
        let made_out = decoder.output_size();
        // GNU Radio sets the frame to the MTU first, which its LDPC decoder refuses unless
        // it is whole codewords; the others cut it to their largest.
        if !decoder.set_frame_size(mtu.saturating_mul(8)) && strict {
            return Err((
                "mtu",
                format!(
                    "{} bits are not whole codewords ({} data bits each): GNU Radio's LDPC \
                     decoder refuses that frame",
                    mtu.saturating_mul(8),
                    decoder.output_size()
                ),
            ));
        }
        if decoder.history() > 0 {
            return Err((
                "decoder",
                "a decoder reading into the next frame (a streaming convolutional code) would \
                 read the next packet; use fec.CC_TERMINATED, fec.CC_TRUNCATED or \
                 fec.CC_TAILBITING"
                    .into(),
            ));
        }
        Ok(Self {
            input: StreamInput::new(),
            // Room for the largest packet: the frame made, or the MTU's where it took it.
            output: StreamOutput::new().with_min_items(made_out.max(decoder.output_size())),
            decoder,
            mtu,
            packet: Packet::new(lentagname),
            floats: Vec::new(),
            bytes: Vec::new(),
            strict,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let rate = self.decoder.rate();
        loop {
            if !self.packet.gather(&mut self.input, "fec_tagged_decoder")? {
                break;
            }
            let n = self.packet.items.len();
            if n as f64 * rate > self.mtu as f64 * 8.0 {
                return Err(BlockError::msg(format!(
                    "fec_tagged_decoder in: a packet of {n} soft values holds more data than \
                     the MTU ({} bytes)",
                    self.mtu
                )));
            }
            let bits = (n as f64 * rate).round() as usize;
            if !self.decoder.set_frame_size(bits) && self.strict {
                return Err(BlockError::msg(format!(
                    "fec_tagged_decoder in: the decoder cannot take a packet of {n} values \
                     ({bits} bits; an LDPC decoder takes whole codewords)"
                )));
            }
            let (n_in, n_out) = (self.decoder.input_size(), self.decoder.output_size());
            let y = self.output.slice();
            if y.len() < n_out {
                // The frame's size is set again when there is room.
                break;
            }
            self.floats.clear();
            let take = n_in.min(n);
            self.floats.extend_from_slice(&self.packet.items[..take]);
            self.floats.resize(n_in, 0.0);
            match self.decoder.soft_input() {
                SoftInput::Float => self
                    .decoder
                    .decode(Soft::Float(&self.floats), &mut y[..n_out]),
                SoftInput::Uchar { shift } => {
                    self.bytes.clear();
                    self.bytes
                        .extend(self.floats.iter().map(|v| SoftInput::quantize(shift, *v)));
                    self.decoder
                        .decode(Soft::Uchar(&self.bytes), &mut y[..n_out]);
                }
            }
            self.packet.tag_output(&mut self.output, n_out, rate);
            self.output.produce(n_out);
            self.packet.take();
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn a_streaming_decoder_is_refused() {
        let e = TaggedDecoder::new(
            "fec.cc_decoder.make(64, 7, 2, [109, 79], 0, -1, fec.CC_STREAMING, False)"
                .parse()
                .unwrap(),
            "11",
            "len",
            1500,
        )
        .unwrap_err();
        assert_eq!(e.0, "decoder");
    }

    #[test]
    fn a_packet_over_the_mtu_or_outside_any_stops_the_run() {
        let dec = || {
            Harness::new(
                TaggedDecoder::new(
                    "fec.repetition_decoder.make(64, 3, 0.5)".parse().unwrap(),
                    "11",
                    "len",
                    1,
                )
                .unwrap(),
            )
        };
        let mut h = dec();
        h.push_tag("in", 0, "len", 27i64);
        h.push("in", &[1.0f32; 27]);
        let e = h.work().unwrap_err().to_string();
        assert!(
            e.contains("fec_tagged_decoder in: a packet of 27 soft values"),
            "{e}"
        );
        let mut h = dec();
        h.push_tag("in", 0, "len", 24i64);
        h.push("in", &[1.0f32; 24]);
        h.work().unwrap();
        h.push("in", &[1.0f32]);
        let e = h.work().unwrap_err().to_string();
        assert!(e.contains("item 24 starts no packet"), "{e}");
        assert_eq!(h.take_output::<u8>("out"), [1; 8]);
    }
}
