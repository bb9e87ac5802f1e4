//! [`DvbtViterbiDecoder`]: gr-dtv's `dvbt_viterbi_decoder`, the inner code's decoder.

use crate::error::SettingsError;
use crate::params::{CodeRate, Constellation, Hierarchy};
use crate::viterbi::Viterbi;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_viterbi_decoder";
/// The tag by which the receiver's blocks mark a super-frame's first item.
const SUPERFRAME_START: &str = "superframe_start";

/// The inner code's decoder (ETSI EN 300 744 clause 4.3.3) as gr-dtv's
/// `dvbt_viterbi_decoder`: bytes of m received bits in (the bit deinterleaver's output, m the
/// constellation's bits), depunctured per the code rate (table 2) and decoded by a
/// hard-decision Viterbi decoder, bytes out; gr-dtv's decisions exactly (8-bit wrapping
/// metrics, the survivors traced back 5, 9, 10, 15 or 24 bytes for rates 1/2 to 7/8, as its
/// SSE2 code computes them).
///
/// It decodes blocks of `block_size · n / m` bytes into `block_size · k / 8` bytes (`k/n` the
/// rate), the puncturing pattern restarting each block. After its start and after each
/// reset, the first traceback's bytes are not written, and the next byte written carries a
/// `superframe_start` tag. A `superframe_start` tag in the bytes of the next block resets the
/// decoder (metrics and survivors zero), the bytes before the tag dropped. gr-dtv looks for
/// the tag over all the blocks its scheduler hands a call of its work and drops everything
/// before the first it finds, whole blocks included: the two agree where the tags fall on
/// block starts, or within the first block after the previous tag. Other tags keep their
/// offsets (GNU Radio's relative rate 1).
///
/// gr-dtv's `hierarchy` changes nothing here (its decoder reads the constellation's m bits a
/// byte whatever the hierarchy). `block_size` must make whole bytes: `block_size · n` a
/// multiple of m and `block_size · k` of 8 (gr-dtv's output is not defined otherwise). gr-dtv
/// keeps its decoder's state in static variables, shared by all its decoders in a process;
/// here each block has its own.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::{CodeRate, DvbtViterbiDecoder, InnerCoder};
///
/// // Rate 1/2, QPSK: what the inner coder sends comes back, the first 5 bytes (the
/// // traceback) not written.
/// let data: Vec<u8> = (0..960u32).map(|k| (k * 37 % 251) as u8).collect();
/// let mut coder = InnerCoder::new(CodeRate::R1_2, 2);
/// let mut coded = vec![0u8; 8 * data.len()];
/// for (i, o) in data.chunks(1).zip(coded.chunks_mut(8)) {
///     coder.encode_group(i, o);
/// }
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(coded));
/// let viterbi = fg.add(DvbtViterbiDecoder::new("qpsk", "nh", "1/2", 768)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, viterbi)?;
/// fg.connect(viterbi, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// assert_eq!(out.len(), 960 - 5);
/// assert_eq!(out, &data[..out.len()]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_viterbi_decoder",
    summary = "DVB-T inner decoder as gr-dtv's dvbt_viterbi_decoder: depuncturing and hard-decision Viterbi decoding of the 171/133 code, m received bits a byte in, bytes out, reset by superframe_start tags.",
    dtypes = [Uint8],
    make = Self::new(&constellation, &hierarchy, &code_rate, block_size).map_err(Refused::from)
)]
#[param(constellation: String = "64qam", words = ["qpsk", "16qam", "64qam"], doc = "the constellation: its bits a carrier are the received bits a byte")]
#[param(hierarchy: String = "nh", words = ["nh", "alpha1", "alpha2", "alpha4"], doc = "hierarchy (no effect, as in gr-dtv)")]
#[param(code_rate: String = "2/3", words = ["1/2", "2/3", "3/4", "5/6", "7/8"], doc = "the code rate")]
#[param(block_size: usize = 768, min = 1, doc = "decoded bits a block / k: block_size · k / 8 bytes out a block")]
pub struct DvbtViterbiDecoder {
    /// Bytes of m received bits.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Decoded bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    viterbi: Viterbi,
    /// A block's decoded bytes, before the ones to drop are.
    decoded: Vec<u8>,
    /// Decoded bytes still to drop after a reset.
    dropping: usize,
    /// The next byte written carries a `superframe_start` tag.
    announce: bool,
}

impl std::fmt::Debug for DvbtViterbiDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtViterbiDecoder")
            .field("block_in", &self.viterbi.block_in())
            .field("block_out", &self.viterbi.block_out())
            .finish()
    }
}

#[block(type_name = "dvbt_viterbi_decoder")]
impl DvbtViterbiDecoder {
    /// The decoder of `code_rate` for `constellation` (the parameters' words), blocks of
    /// `block_size · k / 8` decoded bytes.
    ///
    /// # Errors
    /// A word not one of a parameter's; `block_size · n` not a multiple of m or
    /// `block_size · k` not of 8.
    pub fn new(
        constellation: &str,
        hierarchy: &str,
        code_rate: &str,
        block_size: usize,
    ) -> Result<Self, SettingsError> {
        let m = Constellation::parse(BLOCK, "constellation", constellation)?.bits();
        Hierarchy::parse(BLOCK, "hierarchy", hierarchy)?;
        let rate = CodeRate::parse(BLOCK, "code_rate", code_rate)?;
        let (k, n) = rate.k_n();
        if block_size == 0
            || !(block_size * n).is_multiple_of(m)
            || !(block_size * k).is_multiple_of(8)
        {
            return Err(SettingsError::param(
                BLOCK,
                "block_size",
                format!(
                    "= {block_size} is not supported: block_size · {n} must be a multiple of \
                     {m} (the {constellation} bits a byte) and block_size · {k} of 8 (whole \
                     bytes out); gr-dtv's output is not defined otherwise"
                ),
            ));
        }
        let viterbi = Viterbi::new(rate, m, block_size);
        let (block_in, block_out) = (viterbi.block_in(), viterbi.block_out());
        Ok(Self {
            input: StreamInput::new().with_min_items(block_in),
            output: StreamOutput::new().with_min_items(block_out),
            dropping: viterbi.traceback(),
            decoded: vec![0; block_out],
            viterbi,
            announce: true,
        })
    }

    /// Where a `superframe_start` tag lies among the next block's bytes: its distance.
    fn superframe_start(&self) -> Option<usize> {
        let start = self.input.offset();
        let end = start + self.viterbi.block_in() as u64;
        self.input
            .tags()
            .iter()
            .filter(|t| t.key.as_symbol() == Some(SUPERFRAME_START))
            .map(|t| t.offset)
            .filter(|&o| o >= start && o < end)
            .min()
            .map(|o| (o - start) as usize)
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (block_in, block_out) = (self.viterbi.block_in(), self.viterbi.block_out());
        while self.input.slice().len() >= block_in && self.output.slice().len() >= block_out {
            if let Some(at) = self.superframe_start() {
                self.viterbi.reset();
                self.dropping = self.viterbi.traceback();
                self.announce = true;
                if at > 0 {
                    propagate_tags_at_rate(&self.input, &mut self.output, at, 1, 1);
                    self.input.consume(at);
                    continue;
                }
            }
            self.viterbi
                .decode_block(&self.input.slice()[..block_in], &mut self.decoded);
            let dropped = self.dropping.min(block_out);
            self.dropping -= dropped;
            let kept = &self.decoded[dropped..];
            self.output.slice()[..kept.len()].copy_from_slice(kept);
            if self.announce && !kept.is_empty() {
                let at = self.output.offset();
                self.output.push_tag(Tag::new(at, SUPERFRAME_START, 1i64));
                self.announce = false;
            }
            propagate_tags_at_rate(&self.input, &mut self.output, block_in, 1, 1);
            self.input.consume(block_in);
            self.output.produce(kept.len());
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes_that_do_not_make_whole_bytes_are_refused_by_name() {
        // 64QAM 2/3: block_size · 3 must be a multiple of 6, block_size · 2 of 8.
        for bad in [0, 2, 6, 10] {
            let e = DvbtViterbiDecoder::new("64qam", "nh", "2/3", bad).unwrap_err();
            assert_eq!(e.block, BLOCK);
            assert!(
                e.message
                    .starts_with(&format!("block_size = {bad} is not supported")),
                "{e}"
            );
        }
        assert!(DvbtViterbiDecoder::new("64qam", "nh", "2/3", 4).is_ok());
        let e = DvbtViterbiDecoder::new("32qam", "nh", "2/3", 768).unwrap_err();
        assert!(e.message.starts_with("constellation"), "{e}");
    }
}
