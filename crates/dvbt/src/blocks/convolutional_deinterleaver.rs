//! [`DvbtConvolutionalDeinterleaver`]: gr-dtv's `dvbt_convolutional_deinterleaver`, the
//! receiver's outer deinterleaver.

use crate::error::SettingsError;
use crate::outer_interleaver::OuterInterleaver;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_convolutional_deinterleaver";
/// The tag by which the receiver's blocks mark a super-frame's first byte.
const SUPERFRAME_START: &str = "superframe_start";
/// Transport packets a vector holds (gr-dtv's `d_MUX_PKT`).
const PACKETS: usize = 8;
/// Vectors written at a time (gr-dtv's output multiple).
const PAIR: usize = 2;

/// The outer deinterleaver (ETSI EN 300 744 clause 4.3.2, figure 4: Forney's, I = 12
/// branches, M = 17) as gr-dtv's `dvbt_convolutional_deinterleaver`: bytes in, vectors of
/// `blocks · I` bytes out; byte j of each run of I goes through branch j, a FIFO of
/// (I - 1 - j) · M bytes (zeros at first), the interleaver's complement.
///
/// It writes vectors two at a time (gr-dtv's output multiple), so a stream's last odd vector
/// is not written. Before each pair, a `superframe_start` tag on one of the pair's bytes but
/// the first drops the bytes before the tag (the FIFOs keep theirs), so that a vector starts
/// where the Viterbi decoder says a super-frame does. gr-dtv looks for the tag over all the
/// vectors its scheduler hands a call of its work (two or more pairs) and drops everything
/// before the first it finds, whole vectors included: the two agree where the tags fall on
/// vector starts, or within the first pair after the previous tag. Tags move to offset /
/// (`blocks · I`), rounded half up (GNU Radio's relative rate).
///
/// gr-dtv's block writes 8 · M · I bytes a vector whatever `blocks` is (its vectors hold eight
/// packets of M · I bytes), so `blocks` must be 8 · M (136 for DVB-T): other values are
/// refused.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::{DvbtConvolutionalDeinterleaver, DvbtConvolutionalInterleaver};
///
/// // Through DVB-T's interleaver and back: every byte comes out (I - 1) · M · I = 2244
/// // bytes late.
/// let data: Vec<u8> = (0..4 * 1632).map(|k| (k * 7) as u8).collect();
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(data.clone()).with_vlen(1632)?);
/// let ci = fg.add(DvbtConvolutionalInterleaver::new(136, 12, 17)?);
/// let cd = fg.add(DvbtConvolutionalDeinterleaver::new(136, 12, 17)?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(1632));
/// fg.connect(src, ci)?;
/// fg.connect(ci, cd)?;
/// fg.connect(cd, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// assert_eq!(out[2244..], data[..4 * 1632 - 2244]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_convolutional_deinterleaver",
    summary = "DVB-T outer deinterleaver as gr-dtv's dvbt_convolutional_deinterleaver: Forney's convolutional deinterleaver of I branches, FIFO j of (I - 1 - j)·M bytes, vectors aligned on superframe_start tags.",
    make = Self::new(blocks, i, m).map_err(Refused::from)
)]
#[param(blocks: usize = 136, min = 1, doc = "runs of I bytes an output vector: 8 · M")]
#[param(i: usize = 12, min = 1, doc = "branches (shift registers)")]
#[param(m: usize = 17, min = 1, doc = "bytes a branch's delay differs from the next one's")]
pub struct DvbtConvolutionalDeinterleaver {
    /// Interleaved bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Vectors of `blocks · I` bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// Branch j of `(I - 1 - j) · M` bytes.
    kernel: OuterInterleaver,
    vector: usize,
}

impl std::fmt::Debug for DvbtConvolutionalDeinterleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtConvolutionalDeinterleaver")
            .field("branches", &self.kernel.branches())
            .field("vector", &self.vector)
            .finish()
    }
}

#[block(type_name = "dvbt_convolutional_deinterleaver")]
impl DvbtConvolutionalDeinterleaver {
    /// `i` branches of `m` bytes' difference, output vectors of `blocks · i` bytes.
    ///
    /// # Errors
    /// A parameter 0, or `blocks` not 8 · `m`.
    pub fn new(blocks: usize, i: usize, m: usize) -> Result<Self, SettingsError> {
        for (name, v) in [("blocks", blocks), ("i", i), ("m", m)] {
            if v == 0 {
                return Err(SettingsError::param(BLOCK, name, "must be at least 1"));
            }
        }
        if blocks != PACKETS * m {
            return Err(SettingsError::param(
                BLOCK,
                "blocks",
                format!(
                    "= {blocks} is not supported but 8 · M = {}: gr-dtv's block writes eight \
                     packets of M · I bytes a vector whatever blocks says, so its output is \
                     defined only there",
                    PACKETS * m
                ),
            ));
        }
        let vector = blocks * i;
        Ok(Self {
            input: StreamInput::new().with_min_items(PAIR * vector),
            output: StreamOutput::new()
                .with_vlen(vector)
                .with_min_items(PAIR * vector),
            kernel: OuterInterleaver::deinterleaver(i, m),
            vector,
        })
    }

    /// Where, before the next pair of vectors, a `superframe_start` tag other than on its
    /// first byte says a super-frame starts: the bytes to drop.
    fn bytes_before_superframe(&self) -> usize {
        let start = self.input.offset();
        let end = start + (PAIR * self.vector) as u64;
        self.input
            .tags()
            .iter()
            .filter(|t| t.key.as_symbol() == Some(SUPERFRAME_START))
            .map(|t| t.offset)
            .filter(|&o| o >= start && o < end)
            .min()
            .map_or(0, |o| (o - start) as usize)
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let v = PAIR * self.vector;
        while self.input.slice().len() >= v && self.output.slice().len() >= v {
            let skip = self.bytes_before_superframe();
            if skip > 0 {
                propagate_tags_at_rate(&self.input, &mut self.output, skip, 1, self.vector as u64);
                self.input.consume(skip);
                continue;
            }
            self.kernel
                .run(&self.input.slice()[..v], &mut self.output.slice()[..v]);
            propagate_tags_at_rate(&self.input, &mut self.output, v, 1, self.vector as u64);
            self.input.consume(v);
            self.output.produce(v);
        }
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_other_than_8_m_and_zeros_are_refused_by_name() {
        let e = DvbtConvolutionalDeinterleaver::new(135, 12, 17).unwrap_err();
        assert_eq!(e.block, BLOCK);
        assert!(
            e.message
                .starts_with("blocks = 135 is not supported but 8 · M = 136"),
            "{e}"
        );
        let e = DvbtConvolutionalDeinterleaver::new(136, 0, 17).unwrap_err();
        assert!(e.message.starts_with("i must be at least 1"), "{e}");
        assert!(DvbtConvolutionalDeinterleaver::new(16, 3, 2).is_ok());
    }
}
