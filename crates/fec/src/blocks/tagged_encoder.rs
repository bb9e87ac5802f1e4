//! [`TaggedEncoder`]: each packet of a tagged bit stream encoded by an encoder object.

use super::packet::Packet;
use crate::code::Encoder;
use crate::def::EncoderDef;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Each packet of a tagged stream of bits (one per byte, in the low bit; packets marked by
/// length tags of key `lentagname`) encoded by the encoder object `encoder`, its frame set
/// to the packet's length (GNU Radio's `fec.extended_tagged_encoder` with a length tag name,
/// which runs `fec.tagged_encoder`). Each packet out carries a length tag with its code bits'
/// number; a packet longer than the encoder's frame is coded as one frame of its first bits,
/// as GNU Radio codes it. Other tags move to their input offset times the code's rate
/// (GNU Radio's `rate()`: 3 for `rep` 3), rounded to the nearest item, as GNU Radio's
/// scheduler moves them: one landing before its packet's first code bit is left out (GNU
/// Radio puts it there, where its reader sees it or not as it has read past that item or
/// not yet: a matter of thread timing).
///
/// A CCSDS encoder (`fec.ccsds_encoder_make`) runs as in GNU Radio, which packs the bits
/// into bytes before it (eight a byte, most significant first; tags to a bit's offset / 8
/// rounded down) but leaves the length tags counting bits: a packet of `L` bits takes the `L`
/// bytes from its tag on (eight packets of bits), codes the first `L` bits of them, and
/// the length tags within move with the other tags (offsets in bytes times 1/2, GNU Radio's
/// `rate()` of that encoder). Such a packet whose frame is not a whole number of bytes stops
/// the run.
///
/// An LDPC encoder's rate here is GNU Radio's `rate()` of it, `k / n`, and its frame stays
/// one codeword's data (the first `k` bits of a longer packet), as GNU Radio's stays. An LDPC
/// matrix encoder's (`fec.ldpc_par_mtrx_encoder_make_H`, `fec.ldpc_gen_mtrx_encoder_make`)
/// is `n / k`, and its frame whole codewords' data: a packet of other length stops the run,
/// as GNU Radio's encoder throws.
///
/// A packet of more than `mtu` bytes of code (`length · rate > 8 · mtu`) stops the run with
/// an error naming the block, as GNU Radio throws; so does an item that starts no packet. A
/// packet left incomplete at the end of the stream makes no output.
///
/// # Example
/// ```
/// use radioflow_blocks::{StreamToTaggedStream, VectorSink, VectorSource};
/// use radioflow_fec::TaggedEncoder;
/// use radioflow_runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![1u8, 0, 1, 1]));
/// let tag = fg.add(StreamToTaggedStream::<u8>::new(2, "packet_len"));
/// let enc = fg.add(TaggedEncoder::new("fec.repetition_encoder_make(8, 3)".parse()?, "11", "packet_len", 1500).map_err(|(_, e)| e)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, tag)?;
/// fg.connect(tag, enc)?;
/// fg.connect(enc, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fec_tagged_encoder",
    summary = "Each packet of a tagged bit stream encoded by an FEC encoder object (GNU Radio's fec.extended_tagged_encoder with a length tag name).",
    make = Self::new(encoder, &puncpat, &lentagname, mtu).map_err(|(p, e)| Refused::param(p, e))
)]
#[param(
    encoder: EncoderDef,
    example = "fec.cc_encoder_make(2048, 7, 2, [109, 79], 0, fec.CC_TERMINATED, False)",
    doc = "the encoder object as GNU Radio's Python makes it (see fec_extended_encoder); not fec.ccsds_encoder_make"
)]
#[param(puncpat: String = "11", doc = "puncturing pattern: 1 keeps a code bit (only patterns of 1s so far)")]
#[param(lentagname: String = "packet_len", doc = "the length tag's key")]
#[param(mtu: usize = 1500, min = 1, doc = "the largest packet of code, in bytes")]
#[derive(Debug)]
pub struct TaggedEncoder {
    /// Packets of bits, one per byte, each starting with a length tag.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Packets of code bits, one per byte, each starting with a length tag.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    encoder: Box<dyn Encoder>,
    /// Code bits per data bit (GNU Radio's `rate()` of the encoder).
    rate: f64,
    /// Whether a packet the encoder cannot take as its frame stops the run (GNU Radio's
    /// LDPC matrix encoders throw on a frame of other than whole codewords' data).
    strict: bool,
    mtu: usize,
    packet: Packet<u8>,
    /// The bytes a CCSDS encoder's packets are gathered from.
    packing: Option<Packing>,
    /// A CCSDS frame's bits.
    bits: Vec<u8>,
}

/// Bits packed into bytes ahead of a CCSDS encoder, as GNU Radio's `pack_k_bits_bb(8)`
/// packs them: the bytes not yet in a packet, the offset of the first, and the tags moved
/// onto them (absolute byte offsets).
#[derive(Debug, Default)]
struct Packing {
    bytes: Vec<u8>,
    start: u64,
    tags: Vec<Tag>,
}

#[block]
impl TaggedEncoder {
    /// Encodes the packets tagged `lentagname` by `encoder`, punctured by `puncpat`.
    ///
    /// # Errors
    /// Naming the parameter: `puncpat` is not a pattern of 1s.
    pub fn new(
        encoder: EncoderDef,
        puncpat: &str,
        lentagname: &str,
        mtu: usize,
    ) -> Result<Self, (&'static str, String)> {
        super::puncpat::check_tagged(puncpat).map_err(|e| ("puncpat", e))?;
        let rate = match &encoder {
            EncoderDef::Dummy { .. } => 1.0,
            EncoderDef::Repetition { rep, .. } => *rep as f64,
            EncoderDef::Cc(code) => code.rate() as f64,
            // GNU Radio's rate() of its CCSDS encoder, which counts its input in bytes.
            EncoderDef::Ccsds(_) => 0.5,
            // GNU Radio's rate() of its LDPC encoder: data bits per code bit.
            EncoderDef::Ldpc { code, .. } => code.k() as f64 / code.n() as f64,
            // GNU Radio's rate() of its LDPC matrix encoders: code bits per data bit.
            EncoderDef::LdpcMatrix(m) => m.n() as f64 / m.k() as f64,
            // GNU Radio's rate() of its polar encoders: data bits per code bit.
            EncoderDef::Polar { code, .. } => code.k() as f64 / code.n() as f64,
        };
        let strict = matches!(encoder, EncoderDef::LdpcMatrix(_));
        let packing = matches!(encoder, EncoderDef::Ccsds(_)).then(Packing::default);
        let encoder = encoder.build();
        Ok(Self {
            input: StreamInput::new().with_min_items(if packing.is_some() { 8 } else { 1 }),
            output: StreamOutput::new().with_min_items(encoder.output_size()),
            encoder,
            rate,
            strict,
            mtu,
            packet: Packet::new(lentagname),
            packing,
            bits: Vec::new(),
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            if !self.gather()? {
                break;
            }
            let n = self.packet.items.len();
            if n as f64 * self.rate > self.mtu as f64 * 8.0 {
                return Err(BlockError::msg(format!(
                    "fec_tagged_encoder in: a packet of {n} bits makes more code than the MTU \
                     ({} bytes)",
                    self.mtu
                )));
            }
            if !self.encoder.set_frame_size(n) && self.strict {
                return Err(BlockError::msg(format!(
                    "fec_tagged_encoder in: a packet of {n} bits is not whole codewords' data \
                     ({} bits each): GNU Radio's LDPC matrix encoder refuses that frame",
                    self.encoder.input_size()
                )));
            }
            let (n_in, n_out) = (self.encoder.input_size(), self.encoder.output_size());
            if n_in > n {
                return Err(BlockError::msg(format!(
                    "fec_tagged_encoder in: a packet of {n} bits is too short for the encoder \
                     (a frame of {n_in}; GNU Radio would code the items after the packet too)"
                )));
            }
            let y = self.output.slice();
            if y.len() < n_out {
                // The frame's size is set again when there is room.
                break;
            }
            if self.packing.is_some() {
                if n_in % 8 != 0 {
                    return Err(BlockError::msg(format!(
                        "fec_tagged_encoder in: a CCSDS frame of {n_in} bits (a packet's length \
                         tag) is not a whole number of bytes"
                    )));
                }
                self.bits.clear();
                for b in &self.packet.items[..n_in / 8] {
                    self.bits.extend((0..8).rev().map(|j| (b >> j) & 1));
                }
                self.encoder.encode(&self.bits, &mut y[..n_out]);
            } else {
                self.encoder
                    .encode(&self.packet.items[..n_in], &mut y[..n_out]);
            }
            self.packet.tag_output(&mut self.output, n_out, self.rate);
            self.output.produce(n_out);
            self.packet.take();
        }
        Ok(WorkStatus::Continue)
    }
}

impl TaggedEncoder {
    /// Reads input into the packet, through the packing for a CCSDS encoder; true once it is
    /// whole.
    fn gather(&mut self) -> Result<bool, BlockError> {
        const NAME: &str = "fec_tagged_encoder";
        let Some(p) = &mut self.packing else {
            return self.packet.gather(&mut self.input, NAME);
        };
        let x = self.input.slice();
        let n = x.len() / 8 * 8;
        let first_bit = self.input.offset();
        p.bytes.extend(
            x[..n]
                .chunks_exact(8)
                .map(|c| c.iter().fold(0u8, |byte, bit| byte << 1 | (bit & 1))),
        );
        for t in self.input.tags() {
            if t.offset < first_bit + n as u64 {
                // pack_k_bits_bb is a decimator: GNU Radio's scheduler divides by its integer
                // rate, down.
                p.tags
                    .push(Tag::new(t.offset / 8, t.key.clone(), t.value.clone()));
            }
        }
        self.input.consume(n);
        let used = self.packet.gather_from(&p.bytes, p.start, &p.tags, NAME)?;
        p.bytes.drain(..used);
        p.start += used as u64;
        let start = p.start;
        p.tags.retain(|t| t.offset >= start);
        Ok(self.packet.is_whole())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn encoder(def: &str, mtu: usize) -> Harness<TaggedEncoder> {
        Harness::new(TaggedEncoder::new(def.parse().unwrap(), "11", "len", mtu).unwrap())
    }

    #[test]
    fn a_packet_in_pieces_and_a_tag_before_its_code_left_out() {
        let mut h = encoder(
            "fec.cc_encoder_make(8, 7, 2, [109, 79], 0, fec.CC_TERMINATED, False)",
            1500,
        );
        h.push_tag("in", 0, "len", 2i64);
        h.push_tag("in", 1, "x", 1i64);
        h.push_tag("in", 2, "len", 3i64);
        // Item 3 of the stream would be code bit 6, before the second packet's 16.
        h.push_tag("in", 3, "x", 3i64);
        h.push("in", &[1u8, 0, 1]);
        h.work().unwrap();
        h.push("in", &[1u8, 1]);
        h.work().unwrap();
        let (items, tags) = h.take_output_with_tags::<u8>("out");
        assert_eq!(items.len(), 2 * (2 + 6) + 2 * (3 + 6));
        let tags: Vec<(u64, String)> = tags
            .iter()
            .map(|t| (t.offset, format!("{}={}", t.key, t.value)))
            .collect();
        assert_eq!(
            tags,
            [
                (0, "len=16".into()),
                (2, "x=1".into()),
                (16, "len=18".into())
            ]
        );
    }

    #[test]
    fn errors_name_the_block_and_what_is_wrong() {
        let mut h = encoder("fec.repetition_encoder_make(64, 3)", 1);
        h.push("in", &[1u8]);
        let e = h.work().unwrap_err().to_string();
        assert!(
            e.contains("fec_tagged_encoder in: item 0 starts no packet"),
            "{e}"
        );
        let mut h = encoder("fec.repetition_encoder_make(64, 3)", 1);
        h.push_tag("in", 0, "len", 3i64);
        h.push("in", &[1u8, 0, 1]);
        // 9 code bits, over an MTU of one byte.
        let e = h.work().unwrap_err().to_string();
        assert!(
            e.contains("fec_tagged_encoder in: a packet of 3 bits"),
            "{e}"
        );
        assert!(e.contains("MTU (1 bytes)"), "{e}");
    }

    #[test]
    fn punctures_are_refused_by_parameter() {
        let e = TaggedEncoder::new(
            "fec.dummy_encoder_make(8)".parse().unwrap(),
            "110",
            "len",
            1500,
        )
        .unwrap_err();
        assert_eq!(e.0, "puncpat");
    }

    #[test]
    fn a_ccsds_frame_not_of_whole_bytes_stops_the_run() {
        let mut h = encoder("fec.ccsds_encoder_make(64, 0, fec.CC_STREAMING)", 1500);
        h.push_tag("in", 0, "len", 12i64);
        h.push("in", &[1u8; 96]);
        let e = h.work().unwrap_err().to_string();
        assert!(e.contains("a CCSDS frame of 12 bits"), "{e}");
    }
}
