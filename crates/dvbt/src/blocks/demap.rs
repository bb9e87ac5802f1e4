//! [`DvbtDemap`]: gr-dtv's `dvbt_demap`, cells to the nearest constellation points' symbols.

use crate::constellation::{nearest, points};
use crate::error::SettingsError;
use crate::params::{Constellation, Hierarchy, Mode};
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_demap";

/// The demapper (ETSI EN 300 744 clause 4.3.5 undone) as gr-dtv's `dvbt_demap`: vectors of a
/// symbol's data cells (1512 or 6048) in; for each, the symbol value (`v` bits, a byte) of the
/// nearest point of the constellation [`DvbtMap`](crate::DvbtMap) makes with the same
/// settings and `gain` (squared distance in single precision, the lowest value where two are
/// equally near), out: hard decisions. Tags keep their offsets.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtDemap;
///
/// // Near QPSK's (1, -1)/√2: symbol 01.
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(0.6, -0.8); 1512]).with_vlen(1512)?);
/// let demap = fg.add(DvbtDemap::new("qpsk", "nh", "2k", 1.0)?);
/// let sink = fg.add(VectorSink::<u8>::new().with_vlen(1512));
/// fg.connect(src, demap)?;
/// fg.connect(demap, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<u8>>(sink).unwrap().data(), vec![0b01u8; 1512]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_demap",
    summary = "DVB-T demapper as gr-dtv's dvbt_demap: each cell to the symbol value of the nearest QPSK/16QAM/64QAM point (uniform or hierarchical, normalized, times gain).",
    make = Self::new(&constellation, &hierarchy, &transmission_mode, gain).map_err(Refused::from)
)]
#[param(constellation: String = "64qam", words = ["qpsk", "16qam", "64qam"], doc = "the constellation")]
#[param(hierarchy: String = "nh", words = ["nh", "alpha1", "alpha2", "alpha4"], doc = "hierarchy: α, the quadrants' distance")]
#[param(transmission_mode: String = "2k", words = ["2k", "8k"], doc = "transmission mode (vectors of 1512 or 6048)")]
#[param(gain: f32 = 1.0, doc = "the points' scale after normalization (the map's)")]
pub struct DvbtDemap {
    /// Vectors of cells.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Vectors of symbol values.
    #[output(name = "out")]
    output: StreamOutput<u8>,
    points: Vec<Complex32>,
    payload: usize,
}

impl std::fmt::Debug for DvbtDemap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtDemap")
            .field("points", &self.points.len())
            .field("payload", &self.payload)
            .finish()
    }
}

#[block(type_name = "dvbt_demap")]
impl DvbtDemap {
    /// The demapper of `constellation` and `hierarchy` in `transmission_mode` (the
    /// parameters' words), the points times `gain`.
    ///
    /// # Errors
    /// A word not one of a parameter's.
    pub fn new(
        constellation: &str,
        hierarchy: &str,
        transmission_mode: &str,
        gain: f32,
    ) -> Result<Self, SettingsError> {
        let c = Constellation::parse(BLOCK, "constellation", constellation)?;
        let h = Hierarchy::parse(BLOCK, "hierarchy", hierarchy)?;
        let payload = Mode::parse(BLOCK, "transmission_mode", transmission_mode)?.payload();
        Ok(Self {
            input: StreamInput::new().with_vlen(payload),
            output: StreamOutput::new().with_vlen(payload),
            points: points(c, h, gain),
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
        for (y, &z) in output.iter_mut().zip(input) {
            *y = nearest(&self.points, z) as u8;
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n * p);
        self.output.produce(n * p);
        Ok(WorkStatus::Continue)
    }
}
