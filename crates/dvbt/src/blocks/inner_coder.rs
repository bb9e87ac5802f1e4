//! [`DvbtInnerCoder`]: gr-dtv's `dvbt_inner_coder`, the punctured convolutional code.

use crate::error::SettingsError;
use crate::inner_code::InnerCoder;
use crate::params::{CodeRate, Constellation, Hierarchy};
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_inner_coder";

/// The inner code (ETSI EN 300 744 clause 4.3.3) as gr-dtv's `dvbt_inner_coder`: bytes in
/// (most significant bit first), the rate 1/2 code of generators 171 and 133 octal punctured
/// to `code_rate` (table 2), out as bytes of `m` coded bits (the constellation's bits a
/// carrier: 2, 4, 6), in vectors of `noutput` bytes, four vectors at a time as gr-dtv writes
/// them (a stream whose end cuts a run of four writes none of it). The register runs on from
/// vector to vector. The hierarchy changes nothing here (gr-dtv takes it and does not use
/// it). Tags keep their offsets (GNU Radio's relative rate is 1 for this block: a tag on
/// input byte 1000 goes on output vector 1000).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtInnerCoder;
///
/// // 64QAM 2/3: 3024 bytes make four vectors of 1512 symbols.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 3024]));
/// let ic = fg.add(DvbtInnerCoder::new(1, 1512, "64qam", "nh", "2/3")?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(1512));
/// fg.connect(src, ic)?;
/// fg.connect(ic, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), vec![0u8; 4 * 1512]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_inner_coder",
    summary = "DVB-T inner code as gr-dtv's dvbt_inner_coder: the rate 1/2 convolutional code (171, 133 octal) punctured to the code rate, m coded bits a byte, vectors of noutput.",
    make = Self::new(ninput, noutput, &constellation, &hierarchy, &code_rate).map_err(Refused::from)
)]
#[param(ninput: usize = 1, doc = "input vector length: 1 (gr-dtv's input items are bytes whatever it says)")]
#[param(noutput: usize = 1512, min = 1, doc = "output vector length, a multiple of 1512")]
#[param(constellation: String = "64qam", words = ["qpsk", "16qam", "64qam"], doc = "the constellation: its bits a carrier are the coded bits a byte")]
#[param(hierarchy: String = "nh", words = ["nh", "alpha1", "alpha2", "alpha4"], doc = "hierarchy (no effect, as in gr-dtv)")]
#[param(code_rate: String = "2/3", words = ["1/2", "2/3", "3/4", "5/6", "7/8"], doc = "the code rate")]
pub struct DvbtInnerCoder {
    /// Bytes.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Vectors of `noutput` bytes of `m` coded bits.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    coder: InnerCoder,
    noutput: usize,
    /// Bytes in for four vectors out.
    run_in: usize,
}

impl std::fmt::Debug for DvbtInnerCoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtInnerCoder")
            .field("noutput", &self.noutput)
            .field("run_in", &self.run_in)
            .finish()
    }
}

#[block(type_name = "dvbt_inner_coder")]
impl DvbtInnerCoder {
    /// The code of `code_rate` for `constellation`, vectors of `noutput` bytes (the
    /// parameters' words).
    ///
    /// # Errors
    /// `ninput` not 1, `noutput` not a multiple of 1512, a word not one of a parameter's.
    pub fn new(
        ninput: usize,
        noutput: usize,
        constellation: &str,
        hierarchy: &str,
        code_rate: &str,
    ) -> Result<Self, SettingsError> {
        if ninput != 1 {
            return Err(SettingsError::param(
                BLOCK,
                "ninput",
                format!(
                    "= {ninput} is not supported: gr-dtv's input items are bytes and it consumes \
                     1/ninput of the bytes it encodes, so its output would depend on its calls"
                ),
            ));
        }
        if noutput == 0 || !noutput.is_multiple_of(1512) {
            return Err(SettingsError::param(
                BLOCK,
                "noutput",
                format!("= {noutput}: must be a multiple of 1512 (gr-dtv asserts it)"),
            ));
        }
        let c = Constellation::parse(BLOCK, "constellation", constellation)?;
        Hierarchy::parse(BLOCK, "hierarchy", hierarchy)?;
        let rate = CodeRate::parse(BLOCK, "code_rate", code_rate)?;
        let coder = InnerCoder::new(rate, c.bits());
        // Four vectors are 4 · noutput / group_out groups (4 n divides 6048 for every n).
        let run_in = 4 * noutput / coder.group_out() * coder.group_in();
        Ok(Self {
            input: StreamInput::new().with_min_items(run_in),
            output: StreamOutput::new()
                .with_vlen(noutput)
                .with_min_items(4 * noutput),
            coder,
            noutput,
            run_in,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let run_out = 4 * self.noutput;
        let runs =
            (self.input.slice().len() / self.run_in).min(self.output.slice().len() / run_out);
        if runs == 0 {
            return Ok(WorkStatus::Continue);
        }
        let (gi, go) = (self.coder.group_in(), self.coder.group_out());
        let input = &self.input.slice()[..runs * self.run_in];
        let output = &mut self.output.slice()[..runs * run_out];
        for (i, o) in input.chunks_exact(gi).zip(output.chunks_exact_mut(go)) {
            self.coder.encode_group(i, o);
        }
        propagate_tags_at_rate(&self.input, &mut self.output, runs * self.run_in, 1, 1);
        self.input.consume(runs * self.run_in);
        self.output.produce(runs * run_out);
        Ok(WorkStatus::Continue)
    }
}
