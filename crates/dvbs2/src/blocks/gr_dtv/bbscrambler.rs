//! [`DvbBbscrambler`]: gr-dtv's `dvb_bbscrambler_bb`, BB scrambling of unpacked BBFRAMEs.

use super::settings::{fec_params, frames, DtvSettingsError, Standard};
use crate::bbframe::BbScrambler;
use crate::modcod::FrameSize;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// BB scrambling (EN 302 307-1 clause 5.2.2, EN 302 755 clause 5.2.4: the same PRBS
/// 1 + x^14 + x^15, restarted every frame) of BBFRAMEs of Kbch bits, one bit per byte, as
/// gr-dtv's `dvb_bbscrambler_bb`: each input byte XORed with the sequence's bit.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{DvbBbscrambler, FrameSize};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 2 * 7032]));
/// let s = fg.add(DvbBbscrambler::dvbs2(FrameSize::Short, "1/2")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, s)?;
/// fg.connect(s, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// // Zeros come out as the sequence itself, loaded with 100101010000000 every frame.
/// assert_eq!(out[..8], [0, 0, 0, 0, 0, 0, 1, 1]);
/// assert_eq!(out[..7032], out[7032..]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvb_bbscrambler",
    summary = "DVB-S2/T2 BB scrambling as gr-dtv's dvb_bbscrambler_bb: BBFRAMEs of Kbch bits, one per byte, XORed with the PRBS 1 + x^14 + x^15 restarted every frame.",
    make = Self::new(Standard::parse("dvb_bbscrambler", &standard)?, frame, &rate)
    .map_err(Refused::from)
)]
#[param(standard: String = "dvb-s2", words = ["dvb-s2", "dvb-t2"], doc = "the standard")]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(
    rate: String = "1/2",
    words = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"],
    doc = "LDPC code rate (its Kbch is the frame's length)"
)]
pub struct DvbBbscrambler {
    /// BBFRAMEs, Kbch bits each, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The same, scrambled.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    /// The sequence's first Kbch bits.
    sequence: Vec<u8>,
}

impl std::fmt::Debug for DvbBbscrambler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbBbscrambler")
            .field("kbch", &self.sequence.len())
            .finish()
    }
}

#[block(type_name = "dvb_bbscrambler")]
impl DvbBbscrambler {
    /// A DVB-S2 scrambler for `frame` and `rate`.
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
        let kbch = fec_params("dvb_bbscrambler", standard, frame, rate)?.kbch;
        Ok(Self {
            input: StreamInput::new().with_min_items(kbch),
            output: StreamOutput::new().with_min_items(kbch),
            sequence: BbScrambler::new().bits(kbch),
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let n = self.sequence.len();
        let sequence = &self.sequence;
        Ok(frames(&mut self.input, &mut self.output, n, n, |i, o| {
            for ((o, &b), &s) in o.iter_mut().zip(i).zip(sequence) {
                *o = b ^ s;
            }
        }))
    }
}
