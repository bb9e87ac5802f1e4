//! [`DvbBch`]: gr-dtv's `dvb_bch_bb`, the BCH outer code on unpacked bits.

use super::settings::{fec_params, frames, DtvSettingsError, Standard};
use crate::bch::BchEncoder;
use crate::modcod::FrameSize;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// BCH encoding (EN 302 307-1 clause 5.3.1; EN 302 755 clause 6.1.1 uses the same codes) of
/// Kbch bits into Nbch, one bit per byte, as gr-dtv's `dvb_bch_bb`: the input copied as it
/// is, then the Nbch − Kbch parity bits (of the inputs' lowest bits).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{DvbBch, FrameSize};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 7032]));
/// let bch = fg.add(DvbBch::dvbs2(FrameSize::Short, "1/2")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, bch)?;
/// fg.connect(bch, sink)?;
/// fg.run()?;
/// // Kbch 7032, Nbch 7200: the zero word's parity is zero.
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), &[0u8; 7200][..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvb_bch",
    summary = "DVB-S2/T2 BCH encoder as gr-dtv's dvb_bch_bb: Kbch bits in, Nbch bits out (the input, then its parity), one bit per byte.",
    make = Self::new(Standard::parse("dvb_bch", &standard)?, frame, &rate)
    .map_err(Refused::from)
)]
#[param(standard: String = "dvb-s2", words = ["dvb-s2", "dvb-t2"], doc = "the standard")]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(
    rate: String = "1/2",
    words = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"],
    doc = "LDPC code rate (its Kbch and Nbch)"
)]
pub struct DvbBch {
    /// BBFRAMEs, Kbch bits each, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// BCH codewords, Nbch bits each, one per byte.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    encoder: BchEncoder,
    kbch: usize,
    nbch: usize,
    /// A codeword packed, 8 bits per byte.
    packed: Vec<u8>,
}

impl std::fmt::Debug for DvbBch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbBch")
            .field("kbch", &self.kbch)
            .field("nbch", &self.nbch)
            .finish()
    }
}

#[block(type_name = "dvb_bch")]
impl DvbBch {
    /// A DVB-S2 BCH encoder for `frame` and `rate`.
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
        let fec = fec_params("dvb_bch", standard, frame, rate)?;
        Ok(Self {
            input: StreamInput::new().with_min_items(fec.kbch),
            output: StreamOutput::new().with_min_items(fec.nbch),
            encoder: BchEncoder::new(&fec),
            kbch: fec.kbch,
            nbch: fec.nbch,
            packed: vec![0; fec.nbch / 8],
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (kbch, nbch) = (self.kbch, self.nbch);
        let (encoder, packed) = (&self.encoder, &mut self.packed);
        Ok(frames(
            &mut self.input,
            &mut self.output,
            kbch,
            nbch,
            |i, o| {
                for (p, bits) in packed.iter_mut().zip(i.chunks_exact(8)) {
                    *p = bits.iter().fold(0, |a, &b| (a << 1) | (b & 1));
                }
                encoder.encode(packed, kbch);
                o[..kbch].copy_from_slice(i);
                crate::bbframe::unpack(&packed[kbch / 8..], &mut o[kbch..]);
            },
        ))
    }
}
