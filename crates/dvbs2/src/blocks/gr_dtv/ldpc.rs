//! [`DvbLdpc`]: gr-dtv's `dvb_ldpc_bb`, the LDPC inner code on unpacked bits.

use super::settings::{fec_params, frames, DtvSettingsError, Standard};
use crate::ldpc::LdpcEncoder;
use crate::modcod::FrameSize;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// LDPC encoding (EN 302 307-1 clause 5.3.2) of Nbch bits into Nldpc, one bit per byte, as
/// gr-dtv's `dvb_ldpc_bb`: the input copied as it is, then the parity bits.
///
/// DVB-T2 (EN 302 755 clause 6.1.2) uses DVB-S2's codes except for normal 2/3 and short 3/5,
/// which have parity tables of their own.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{DvbLdpc, FrameSize};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 7200]));
/// let ldpc = fg.add(DvbLdpc::dvbs2(FrameSize::Short, "1/2")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, ldpc)?;
/// fg.connect(ldpc, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0u8; 16200][..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvb_ldpc",
    summary = "DVB-S2/T2 LDPC encoder as gr-dtv's dvb_ldpc_bb: Nbch bits in, Nldpc bits out (the input, then its parity), one bit per byte.",
    make = Self::new(Standard::parse("dvb_ldpc", &standard)?, frame, &rate)
    .map_err(Refused::from)
)]
#[param(standard: String = "dvb-s2", words = ["dvb-s2", "dvb-t2"], doc = "the standard")]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(
    rate: String = "1/2",
    words = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"],
    doc = "LDPC code rate"
)]
pub struct DvbLdpc {
    /// BCH codewords, Nbch bits each, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// FECFRAMEs, Nldpc bits each, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    encoder: LdpcEncoder,
    kldpc: usize,
    nldpc: usize,
}

impl std::fmt::Debug for DvbLdpc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbLdpc")
            .field("kldpc", &self.kldpc)
            .field("nldpc", &self.nldpc)
            .finish()
    }
}

#[block(type_name = "dvb_ldpc")]
impl DvbLdpc {
    /// A DVB-S2 LDPC encoder for `frame` and `rate`.
    ///
    /// # Errors
    /// A rate the frame size does not have (9/10 short).
    pub fn dvbs2(frame: FrameSize, rate: &str) -> Result<Self, DtvSettingsError> {
        Self::new(Standard::DvbS2, frame, rate)
    }

    pub(crate) fn new(
        standard: Standard,
        frame: FrameSize,
        rate: &str,
    ) -> Result<Self, DtvSettingsError> {
        let fec = fec_params("dvb_ldpc", standard, frame, rate)?;
        let table = match standard {
            Standard::DvbS2 => crate::ldpc::table(frame, fec.rate),
            Standard::DvbT2 => crate::ldpc::t2_table(frame, fec.rate),
        };
        Ok(Self {
            input: StreamInput::new().with_min_items(fec.kldpc()),
            output: StreamOutput::new().with_min_items(fec.nldpc),
            encoder: LdpcEncoder::with_table(&fec, table),
            kldpc: fec.kldpc(),
            nldpc: fec.nldpc,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (k, n) = (self.kldpc, self.nldpc);
        let encoder = &mut self.encoder;
        Ok(frames(&mut self.input, &mut self.output, k, n, |i, o| {
            o[..k].copy_from_slice(i);
            encoder.encode(o);
        }))
    }
}
