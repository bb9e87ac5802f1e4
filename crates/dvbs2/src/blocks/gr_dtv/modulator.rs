//! [`Dvbs2Modulator`]: gr-dtv's `dvbs2_modulator_bc`, constellation labels to points.

use super::settings::{modcod, DtvSettingsError};
use crate::mapper::Mapper;
use crate::modcod::{FrameSize, Modcod};
use num_complex::Complex32;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Bit mapping (EN 302 307-1 clause 5.4) of one label per byte into constellation points of
/// unit mean energy, as gr-dtv's `dvbs2_modulator_bc` (the APSK rings by the code rate,
/// tables 9 and 10). With `interpolation`, each point is followed by a zero (gr-dtv's 2X
/// interpolation).
///
/// gr-dtv's modulator also has ATSC's 8-VSB (`8vsb`, for gr-dtv's ATSC transmitter): level
/// index k (0 to 7) to the real 2k - 7 plus 1.25, the pilot's DC (ATSC A/53 Part 2 5.3.6, 5.5);
/// frame and rate change nothing there. gr-dtv writes nothing for it with interpolation (its
/// interpolating loop has no 8-VSB case): refused.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{Dvbs2Modulator, FrameSize};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8, 3]));
/// let m = fg.add(Dvbs2Modulator::new(FrameSize::Normal, "1/2", "qpsk", true)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, m)?;
/// fg.connect(m, sink)?;
/// fg.run()?;
/// let out = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// let a = std::f32::consts::FRAC_1_SQRT_2;
/// assert!((out[0] - Complex32::new(a, a)).norm() < 1e-6); // label 00 at π/4
/// assert_eq!(out[1], Complex32::new(0.0, 0.0));
/// assert!((out[2] - Complex32::new(-a, -a)).norm() < 1e-6); // label 11 at −3π/4
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbs2_modulator",
    summary = "DVB-S2 bit mapper as gr-dtv's dvbs2_modulator_bc: one constellation label per byte in, complex points (QPSK, 8PSK, 16APSK, 32APSK, and ATSC's 8-VSB levels) out, optionally each followed by a zero.",
    make = Self::new(frame, &rate, &constellation, interpolation)
    .map_err(Refused::from)
)]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size")]
#[param(
    rate: String = "3/4",
    words = ["1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6", "8/9", "9/10"],
    doc = "LDPC code rate (the APSK ring ratios)"
)]
#[param(
    constellation: String = "qpsk",
    words = ["qpsk", "8psk", "16apsk", "32apsk", "8vsb"],
    doc = "constellation (with the rate, a MODCOD of EN 302 307-1 table 12; 3/4, the default rate, has every constellation; 8vsb: ATSC's levels, any rate)"
)]
#[param(interpolation: bool = false, doc = "each point followed by a zero (2 samples per symbol)")]
pub struct Dvbs2Modulator {
    /// Constellation labels, one per byte (the lowest η_MOD bits used).
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// The points (and zeros with interpolation).
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    /// None for 8-VSB.
    modcod: Option<Modcod>,
    points: [Complex32; 32],
    /// 2^η_MOD − 1.
    mask: u8,
    interpolation: bool,
}

impl std::fmt::Debug for Dvbs2Modulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbs2Modulator")
            .field("modcod", &self.modcod)
            .field("interpolation", &self.interpolation)
            .finish()
    }
}

#[block(type_name = "dvbs2_modulator")]
impl Dvbs2Modulator {
    /// A mapper for `frame`, `rate` and `constellation` (`qpsk`, `8psk`, `16apsk`,
    /// `32apsk`, or `8vsb`), with a zero after each point if `interpolation`.
    ///
    /// # Errors
    /// A pair the standard does not define (EN 302 307-1 table 12, 9/10 short); `8vsb` with
    /// `interpolation`.
    pub fn new(
        frame: FrameSize,
        rate: &str,
        constellation: &str,
        interpolation: bool,
    ) -> Result<Self, DtvSettingsError> {
        if constellation == "8vsb" {
            if interpolation {
                return Err(DtvSettingsError::param(
                    "dvbs2_modulator",
                    "interpolation",
                    "is not supported with constellation 8vsb: gr-dtv's interpolating modulator \
                     has no 8-VSB case and writes nothing defined",
                ));
            }
            let mut points = [Complex32::new(0.0, 0.0); 32];
            for (k, p) in points[..8].iter_mut().enumerate() {
                *p = Complex32::new(2.0 * k as f32 - 7.0 + 1.25, 0.0);
            }
            return Ok(Self {
                input: StreamInput::new(),
                output: StreamOutput::new(),
                modcod: None,
                points,
                mask: 7,
                interpolation,
            });
        }
        let (m, _) = modcod("dvbs2_modulator", constellation, frame, rate)?;
        let mask = ((1u32 << m.constellation().bits_per_symbol()) - 1) as u8;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(if interpolation { 2 } else { 1 }),
            modcod: Some(m),
            points: *Mapper::new(m).points(),
            mask,
            interpolation,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let i = self.input.slice();
        let o = self.output.slice();
        let per = if self.interpolation { 2 } else { 1 };
        let n = i.len().min(o.len() / per);
        for (l, out) in i[..n].iter().zip(o.chunks_exact_mut(per)) {
            out[0] = self.points[usize::from(l & self.mask)];
            if per == 2 {
                out[1] = Complex32::new(0.0, 0.0);
            }
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n);
        self.output.produce(n * per);
        Ok(WorkStatus::Continue)
    }
}
