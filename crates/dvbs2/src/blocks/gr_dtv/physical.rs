//! [`Dvbs2Physical`]: gr-dtv's `dvbs2_physical_cc`, constellation points to PLFRAMEs.

use super::settings::{frames, modcod, DtvSettingsError};
use crate::modcod::{FrameSize, Modcod};
use crate::plframe::{self, PlScrambler, PILOT_BLOCK, SLOT};
use num_complex::Complex32;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Physical layer framing (EN 302 307-1 clause 5.5) as gr-dtv's `dvbs2_physical_cc`: each
/// frame's Nldpc / η_MOD points become a PLFRAME (PLHEADER, 90-symbol slots, a pilot block
/// after every 16 slots when `pilots`, PL scrambling with Gold code `goldcode`), each symbol
/// followed by a zero (gr-dtv writes two samples per symbol for its RRC interpolator).
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{Dvbs2Physical, FrameSize};
///
/// let points = vec![Complex32::new(1.0, 0.0); 8100];
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(points));
/// let pl = fg.add(Dvbs2Physical::new(FrameSize::Short, "1/2", "qpsk", true, 0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, pl)?;
/// fg.connect(pl, sink)?;
/// fg.run()?;
/// // PLHEADER, 90 slots and 5 pilot blocks: 8370 symbols, 2 samples each.
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len(), 2 * 8370);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbs2_physical",
    summary = "DVB-S2 physical layer framer as gr-dtv's dvbs2_physical_cc: constellation points in, PLFRAMEs (PLHEADER, pilots, PL scrambling) out, each symbol followed by a zero.",
    make = Self::new(frame, &rate, &constellation, pilots, goldcode)
    .map_err(Refused::from)
)]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(
    rate: String = "3/4",
    words = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"],
    doc = "LDPC code rate (the PLS code's MODCOD)"
)]
#[param(
    constellation: String = "qpsk",
    words = ["qpsk", "8psk", "16apsk", "32apsk"],
    doc = "constellation (with the rate, a MODCOD of EN 302 307-1 table 12; 3/4, the default rate, has every constellation)"
)]
#[param(pilots: bool = false, doc = "pilot blocks")]
#[param(goldcode: i64 = 0, doc = "PL scrambling Gold code index n, 0 to 262141")]
pub struct Dvbs2Physical {
    /// The frames' constellation points, Nldpc / η_MOD per frame.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// PLFRAMEs, each symbol followed by a zero.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    modcod: Modcod,
    header: [Complex32; SLOT],
    scrambler: PlScrambler,
    pilots: bool,
    /// Points per frame.
    nsym: usize,
    /// Symbols per PLFRAME.
    len: usize,
}

impl std::fmt::Debug for Dvbs2Physical {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbs2Physical")
            .field("modcod", &self.modcod)
            .field("pilots", &self.pilots)
            .finish()
    }
}

#[block(type_name = "dvbs2_physical")]
impl Dvbs2Physical {
    /// A framer for `frame`, `rate` and `constellation` (`qpsk`, `8psk`, `16apsk`, `32apsk`).
    ///
    /// # Errors
    /// A pair the standard does not define (EN 302 307-1 table 12, 9/10 short), or a Gold
    /// code outside 0..=262141.
    pub fn new(
        frame: FrameSize,
        rate: &str,
        constellation: &str,
        pilots: bool,
        goldcode: i64,
    ) -> Result<Self, DtvSettingsError> {
        let (m, fec) = modcod("dvbs2_physical", constellation, frame, rate)?;
        if !(0..=262_141).contains(&goldcode) {
            return Err(DtvSettingsError::param(
                "dvbs2_physical",
                "goldcode",
                format!("must be 0 to 262141 (EN 302 307-1 clause 5.5.4), not {goldcode}"),
            ));
        }
        let nsym = fec.nldpc / m.constellation().bits_per_symbol();
        let len = plframe::plframe_len(nsym / SLOT, pilots);
        let mut header = [Complex32::new(0.0, 0.0); SLOT];
        plframe::plheader(
            m.pls_modcod(),
            frame == FrameSize::Short,
            pilots,
            &mut header,
        );
        Ok(Self {
            input: StreamInput::new().with_min_items(nsym),
            output: StreamOutput::new().with_min_items(2 * len),
            modcod: m,
            header,
            scrambler: PlScrambler::new(goldcode as u32),
            pilots,
            nsym,
            len,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (nsym, len, pilots) = (self.nsym, self.len, self.pilots);
        let header = &self.header;
        let r = self.scrambler.sequence();
        let pilot = plframe::unmodulated();
        let zero = Complex32::new(0.0, 0.0);
        Ok(frames(
            &mut self.input,
            &mut self.output,
            nsym,
            2 * len,
            |i, o| {
                let mut out = o.chunks_exact_mut(2);
                let mut put = |s: Complex32| {
                    let pair = out.next().expect("a PLFRAME's room");
                    pair[0] = s;
                    pair[1] = zero;
                };
                header.iter().for_each(|&s| put(s));
                let mut n = 0;
                let blocks = nsym.div_ceil(16 * SLOT);
                for (b, block) in i.chunks(16 * SLOT).enumerate() {
                    for &s in block {
                        put(PlScrambler::rotate(s, r[n]));
                        n += 1;
                    }
                    if pilots && b + 1 < blocks {
                        for _ in 0..PILOT_BLOCK {
                            put(PlScrambler::rotate(pilot, r[n]));
                            n += 1;
                        }
                    }
                }
            },
        ))
    }
}
