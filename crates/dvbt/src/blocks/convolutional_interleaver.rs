//! [`DvbtConvolutionalInterleaver`]: gr-dtv's `dvbt_convolutional_interleaver`, the outer
//! interleaver.

use crate::error::SettingsError;
use crate::outer_interleaver::OuterInterleaver;
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_convolutional_interleaver";

/// The outer interleaver (ETSI EN 300 744 clause 4.3.2, figure 4; Forney's, I = 12 branches,
/// M = 17) as gr-dtv's `dvbt_convolutional_interleaver`: vectors of `blocks · I` bytes in,
/// bytes out; byte j of each run of I goes through branch j, a FIFO of j · M bytes (zeros at
/// first). Tags move to their vector's first byte (offset · `blocks · I`, GNU Radio's rate).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtConvolutionalInterleaver;
///
/// let mut fg = Flowgraph::new();
/// // Two branches of depth 1: the second byte of each pair comes out a pair late.
/// let src = fg.add(VectorSource::new(vec![1u8, 2, 3, 4, 5, 6]).with_vlen(2)?);
/// let ci = fg.add(DvbtConvolutionalInterleaver::new(1, 2, 1)?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, ci)?;
/// fg.connect(ci, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), [1, 0, 3, 2, 5, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_convolutional_interleaver",
    summary = "DVB-T outer interleaver as gr-dtv's dvbt_convolutional_interleaver: Forney's convolutional interleaver of I branches, FIFO j of j·M bytes.",
    make = Self::new(blocks, i, m).map_err(Refused::from)
)]
#[param(blocks: usize = 136, min = 1, doc = "runs of I bytes an input vector")]
#[param(i: usize = 12, min = 1, doc = "branches (shift registers)")]
#[param(m: usize = 17, min = 1, doc = "bytes a branch adds to the previous one's delay")]
pub struct DvbtConvolutionalInterleaver {
    /// Vectors of `blocks · I` bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Interleaved bytes.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// Branch j of `j · M` bytes.
    kernel: OuterInterleaver,
    vector: usize,
}

impl std::fmt::Debug for DvbtConvolutionalInterleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtConvolutionalInterleaver")
            .field("branches", &self.kernel.branches())
            .field("vector", &self.vector)
            .finish()
    }
}

#[block(type_name = "dvbt_convolutional_interleaver")]
impl DvbtConvolutionalInterleaver {
    /// `i` branches of `m` more bytes each, input vectors of `blocks · i` bytes.
    ///
    /// # Errors
    /// A parameter 0.
    pub fn new(blocks: usize, i: usize, m: usize) -> Result<Self, SettingsError> {
        for (name, v) in [("blocks", blocks), ("i", i), ("m", m)] {
            if v == 0 {
                return Err(SettingsError::param(BLOCK, name, "must be at least 1"));
            }
        }
        let vector = blocks * i;
        Ok(Self {
            input: StreamInput::new().with_vlen(vector),
            output: StreamOutput::new().with_min_items(vector),
            kernel: OuterInterleaver::interleaver(i, m),
            vector,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let v = self.vector;
        let n = (self.input.slice().len() / v).min(self.output.slice().len() / v);
        if n == 0 {
            return Ok(WorkStatus::Continue);
        }
        self.kernel.run(
            &self.input.slice()[..n * v],
            &mut self.output.slice()[..n * v],
        );
        propagate_tags_at_rate(&self.input, &mut self.output, n, v as u64, 1);
        self.input.consume(n * v);
        self.output.produce(n * v);
        Ok(WorkStatus::Continue)
    }
}
