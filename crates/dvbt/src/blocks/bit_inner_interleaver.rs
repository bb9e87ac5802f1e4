//! [`DvbtBitInnerInterleaver`]: gr-dtv's `dvbt_bit_inner_interleaver`.

use crate::bit_interleaver::{interleave_block, BLOCK as INTERLEAVER_BLOCK};
use crate::error::SettingsError;
use crate::params::{Constellation, Hierarchy, Mode};
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_bit_inner_interleaver";

/// The bit-wise inner interleaver (ETSI EN 300 744 clause 4.3.4.1) as gr-dtv's
/// `dvbt_bit_inner_interleaver`, non-hierarchical: vectors of a symbol's data carriers (1512
/// in 2K, 6048 in 8K) of `v` bits a byte in and out, interleaved 126 symbols at a time. Tags
/// keep their offsets.
///
/// Hierarchical modes are refused: gr-dtv's block divides by zero for QPSK and, for 16QAM
/// and 64QAM, reads bits it never wrote and writes past its arrays (its output is not
/// defined).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtBitInnerInterleaver;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![3u8; 1512]).with_vlen(1512)?);
/// let bi = fg.add(DvbtBitInnerInterleaver::new("qpsk", "nh", "2k")?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(1512));
/// fg.connect(src, bi)?;
/// fg.connect(bi, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), vec![3u8; 1512]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_bit_inner_interleaver",
    summary = "DVB-T bit-wise inner interleaver as gr-dtv's dvbt_bit_inner_interleaver (non-hierarchical): each of a symbol's v bits through its own permutation of 126.",
    make = Self::new(&constellation, &hierarchy, &transmission_mode).map_err(Refused::from)
)]
#[param(constellation: String = "64qam", words = ["qpsk", "16qam", "64qam"], doc = "the constellation (v bits a byte)")]
#[param(hierarchy: String = "nh", words = ["nh"], doc = "hierarchy: non-hierarchical only (gr-dtv's hierarchical modes are not defined, see the block's docs)")]
#[param(transmission_mode: String = "2k", words = ["2k", "8k"], doc = "transmission mode: the vectors' length (1512, 6048)")]
pub struct DvbtBitInnerInterleaver {
    /// Vectors of a symbol's data carriers, `v` bits each.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The same, interleaved.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    v: usize,
    payload: usize,
}

impl std::fmt::Debug for DvbtBitInnerInterleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtBitInnerInterleaver")
            .field("v", &self.v)
            .field("payload", &self.payload)
            .finish()
    }
}

#[block(type_name = "dvbt_bit_inner_interleaver")]
impl DvbtBitInnerInterleaver {
    /// The interleaver of `constellation` in `transmission_mode` (the parameters' words).
    ///
    /// # Errors
    /// A hierarchy other than `nh`, a word not one of a parameter's.
    pub fn new(
        constellation: &str,
        hierarchy: &str,
        transmission_mode: &str,
    ) -> Result<Self, SettingsError> {
        let c = Constellation::parse(BLOCK, "constellation", constellation)?;
        let h = Hierarchy::parse(BLOCK, "hierarchy", hierarchy)?;
        if h != Hierarchy::Nh {
            return Err(SettingsError::param(
                BLOCK,
                "hierarchy",
                format!(
                    "= {hierarchy} is not supported: gr-dtv's hierarchical bit interleaver divides \
                     by zero (QPSK) or reads bits it never wrote and writes past its arrays \
                     (16QAM, 64QAM), so its output is not defined"
                ),
            ));
        }
        let payload = Mode::parse(BLOCK, "transmission_mode", transmission_mode)?.payload();
        Ok(Self {
            input: StreamInput::new().with_vlen(payload),
            output: StreamOutput::new().with_vlen(payload),
            v: c.bits(),
            payload,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let p = self.payload;
        let n = (self.input.slice().len() / p).min(self.output.slice().len() / p);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        let input = &self.input.slice()[..n * p];
        let output = &mut self.output.slice()[..n * p];
        for (i, o) in input
            .chunks_exact(INTERLEAVER_BLOCK)
            .zip(output.chunks_exact_mut(INTERLEAVER_BLOCK))
        {
            interleave_block(self.v, i, o);
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n * p);
        self.output.produce(n * p);
        Ok(WorkStatus::Continue)
    }
}
