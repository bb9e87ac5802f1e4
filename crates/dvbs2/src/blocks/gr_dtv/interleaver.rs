//! [`Dvbs2Interleaver`]: gr-dtv's `dvbs2_interleaver_bb`, FECFRAME bits to constellation labels.

use super::settings::{frames, modcod, DtvSettingsError};
use crate::mapper::interleave;
use crate::modcod::{FrameSize, Modcod};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Bit interleaving (EN 302 307-1 clause 5.3.3) of FECFRAMEs of Nldpc bits, one bit per
/// byte, into one constellation label per byte (η_MOD bits, the first bit read the MSB), as
/// gr-dtv's `dvbs2_interleaver_bb`: QPSK takes bits in pairs; 8PSK, 16APSK and 32APSK write
/// columns and read rows (8PSK 3/5 reads its columns in reverse order).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::Flowgraph;
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{Dvbs2Interleaver, FrameSize};
///
/// let mut bits = vec![0u8; 16200];
/// bits[0] = 1; // column 0, row 0: the first label's MSB
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(bits));
/// let il = fg.add(Dvbs2Interleaver::new(FrameSize::Short, "2/3", "8psk")?);
/// let sink = fg.add(VectorSink::<u8>::new());
/// fg.connect(src, il)?;
/// fg.connect(il, sink)?;
/// fg.run()?;
/// let labels = fg.block::<VectorSink<u8>>(sink).unwrap().data();
/// assert_eq!((labels.len(), labels[0], labels[1]), (5400, 0b100, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbs2_interleaver",
    summary = "DVB-S2 bit interleaver as gr-dtv's dvbs2_interleaver_bb: FECFRAMEs of Nldpc bits (one per byte) in, one constellation label per byte out.",
    make = Self::new(frame, &rate, &constellation)
    .map_err(Refused::from)
)]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(
    rate: String = "3/4",
    words = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"],
    doc = "LDPC code rate"
)]
#[param(
    constellation: String = "qpsk",
    words = ["qpsk", "8psk", "16apsk", "32apsk"],
    doc = "constellation (with the rate, a MODCOD of EN 302 307-1 table 12; 3/4, the default rate, has every constellation)"
)]
pub struct Dvbs2Interleaver {
    /// FECFRAMEs, Nldpc bits each, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Constellation labels, Nldpc / η_MOD per frame.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    modcod: Modcod,
    nldpc: usize,
}

impl std::fmt::Debug for Dvbs2Interleaver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbs2Interleaver")
            .field("modcod", &self.modcod)
            .field("nldpc", &self.nldpc)
            .finish()
    }
}

#[block(type_name = "dvbs2_interleaver")]
impl Dvbs2Interleaver {
    /// An interleaver for `frame`, `rate` and `constellation` (`qpsk`, `8psk`, `16apsk`,
    /// `32apsk`).
    ///
    /// # Errors
    /// A pair the standard does not define (EN 302 307-1 table 12, 9/10 short).
    pub fn new(
        frame: FrameSize,
        rate: &str,
        constellation: &str,
    ) -> Result<Self, DtvSettingsError> {
        let (m, fec) = modcod("dvbs2_interleaver", constellation, frame, rate)?;
        let nsym = fec.nldpc / m.constellation().bits_per_symbol();
        Ok(Self {
            input: StreamInput::new().with_min_items(fec.nldpc),
            output: StreamOutput::new().with_min_items(nsym),
            modcod: m,
            nldpc: fec.nldpc,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let m = self.modcod;
        let n = self.nldpc;
        let nsym = n / m.constellation().bits_per_symbol();
        Ok(frames(
            &mut self.input,
            &mut self.output,
            n,
            nsym,
            |i, o| interleave(m, i, o),
        ))
    }
}
