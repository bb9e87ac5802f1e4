//! [`Dvbt2Modulator`]: gr-dtv's `dvbt2_modulator_bc`, DVB-T2 cell words to (rotated) QAM
//! cells.

use super::settings::DtvSettingsError;
use crate::modcod::FrameSize;
use num_complex::Complex32;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// DVB-T2's mapping of cell words to constellation values (ETSI EN 302 755 clause 6.2.2:
/// Gray-mapped QPSK, 16QAM, 64QAM, 256QAM normalized to unit mean energy) and, with
/// `rotation`, constellation rotation and cyclic Q delay (clause 6.2.3: the rotated points'
/// imaginary part taken from the previous cell of the FEC block, the first cell's from the
/// last), as gr-dtv's `dvbt2_modulator_bc`: one cell word per byte in (its lowest η_MOD bits),
/// one cell out, whole FEC blocks (Nldpc / η_MOD cells) at a time.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbs2::{Dvbt2Modulator, FrameSize};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 8100]));
/// let m = fg.add(Dvbt2Modulator::new(FrameSize::Short, "qpsk", false)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, m)?;
/// fg.connect(m, sink)?;
/// fg.run()?;
/// let cells = fg.block::<VectorSink<Complex32>>(sink).unwrap().data();
/// let a = std::f32::consts::FRAC_1_SQRT_2;
/// assert!(cells.iter().all(|c| (c - Complex32::new(a, a)).norm() < 1e-6));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt2_modulator",
    summary = "DVB-T2 QAM mapper as gr-dtv's dvbt2_modulator_bc: one cell word per byte in, QPSK/16QAM/64QAM/256QAM cells out, optionally rotated with cyclic Q delay.",
    make = Self::new(frame, &constellation, rotation)
    .map_err(Refused::from)
)]
#[param(frame: FrameSize = "normal", words = ["normal", "short"], doc = "FECFRAME size (the FEC block's cells)")]
#[param(
    constellation: String = "qpsk",
    words = ["qpsk", "16qam", "64qam", "256qam"],
    doc = "constellation"
)]
#[param(rotation: bool = false, doc = "constellation rotation and cyclic Q delay")]
pub struct Dvbt2Modulator {
    /// Cell words, one per byte.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Cells.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    points: Vec<Complex32>,
    rotation: bool,
    /// Cells of a FEC block.
    cells: usize,
}

impl std::fmt::Debug for Dvbt2Modulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dvbt2Modulator")
            .field("points", &self.points.len())
            .field("rotation", &self.rotation)
            .finish()
    }
}

/// The amplitudes of one axis by its Gray-coded bits (EN 302 755 clause 6.2.2): index bit
/// k is the axis' (k+1)-th last bit of the cell word taken every other bit.
const AXIS_16: [f64; 4] = [3.0, 1.0, -3.0, -1.0];
const AXIS_64: [f64; 8] = [7.0, 5.0, 1.0, 3.0, -7.0, -5.0, -1.0, -3.0];
const AXIS_256: [f64; 16] = [
    15.0, 13.0, 9.0, 11.0, 1.0, 3.0, 7.0, 5.0, -15.0, -13.0, -9.0, -11.0, -1.0, -3.0, -7.0, -5.0,
];

#[block(type_name = "dvbt2_modulator")]
impl Dvbt2Modulator {
    /// A mapper of `constellation` (`qpsk`, `16qam`, `64qam`, `256qam`) for FEC blocks of
    /// `frame`, rotated if `rotation`.
    ///
    /// # Errors
    /// An unknown constellation.
    pub fn new(
        frame: FrameSize,
        constellation: &str,
        rotation: bool,
    ) -> Result<Self, DtvSettingsError> {
        // (bits per cell, axis amplitudes, normalization², rotation in degrees: table 9).
        let (bits, axis, energy, degrees): (u32, &[f64], f64, f64) = match constellation {
            "qpsk" => (2, &[1.0, -1.0], 2.0, 29.0),
            "16qam" => (4, &AXIS_16, 10.0, 16.8),
            "64qam" => (6, &AXIS_64, 42.0, 8.6),
            "256qam" => (8, &AXIS_256, 170.0, 3.576_334_375),
            _ => {
                return Err(DtvSettingsError::param(
                    "dvbt2_modulator",
                    "constellation",
                    format!("must be qpsk, 16qam, 64qam or 256qam, not {constellation:?}"),
                ))
            }
        };
        let norm = energy.sqrt();
        let half = bits / 2;
        // The axis index of a word: its bits 2j+1 (real) or 2j (imaginary), j = half-1 .. 0.
        let axis_index = |w: u32, first: u32| {
            (0..half).fold(0usize, |a, j| {
                let b = (w >> (2 * (half - 1 - j) + first)) & 1;
                (a << 1) | b as usize
            })
        };
        let angle = (2.0 * std::f64::consts::PI * degrees) / 360.0;
        let turn = Complex32::new(angle.cos() as f32, angle.sin() as f32);
        let points = (0..1u32 << bits)
            .map(|w| {
                let p = Complex32::new(
                    (axis[axis_index(w, 1)] / norm) as f32,
                    (axis[axis_index(w, 0)] / norm) as f32,
                );
                if rotation {
                    // Single-precision products, as GNU Radio's complex<float> multiply.
                    Complex32::new(
                        p.re * turn.re - p.im * turn.im,
                        p.re * turn.im + p.im * turn.re,
                    )
                } else {
                    p
                }
            })
            .collect();
        let cells = frame.nldpc() / bits as usize;
        Ok(Self {
            input: StreamInput::new().with_min_items(cells),
            output: StreamOutput::new().with_min_items(cells),
            points,
            rotation,
            cells,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (points, rotation, n) = (&self.points, self.rotation, self.cells);
        let mask = points.len() - 1;
        Ok(super::settings::frames(
            &mut self.input,
            &mut self.output,
            n,
            n,
            |i, o| {
                for (j, out) in o.iter_mut().enumerate() {
                    let p = points[usize::from(i[j]) & mask];
                    *out = if rotation {
                        let q = points[usize::from(i[(j + n - 1) % n]) & mask];
                        Complex32::new(p.re, q.im)
                    } else {
                        p
                    };
                }
            },
        ))
    }
}
