//! [`DvbtMap`]: gr-dtv's `dvbt_map`, symbols to constellation points.

use crate::constellation::points;
use crate::error::SettingsError;
use crate::params::{Constellation, Hierarchy, Mode};
use radioflow_runtime::prelude::*;
use radioflow_runtime::propagate_tags_at_rate;
use radioflow_runtime::registry::prelude::*;

const BLOCK: &str = "dvbt_map";

/// The mapper (ETSI EN 300 744 clause 4.3.5) as gr-dtv's `dvbt_map`: vectors of a symbol's
/// data carriers (1512 or 6048), one symbol value of `v` bits a byte, in; their constellation
/// points (QPSK, 16QAM, 64QAM; uniform or hierarchical with α = 1, 2, 4) normalized (clause
/// 4.4) and multiplied by `gain`, out, in gr-dtv's single precision. A byte of more than `v`
/// bits is an error naming it (gr-dtv reads past its table). Tags keep their offsets.
///
/// # Example
/// ```
/// use radioflow_blocks::runtime::{Complex32, Flowgraph};
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_dvbt::DvbtMap;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![0u8; 1512]).with_vlen(1512)?);
/// let map = fg.add(DvbtMap::new("qpsk", "nh", "2k", 1.0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new().with_vlen(1512));
/// fg.connect(src, map)?;
/// fg.connect(map, sink)?;
/// fg.run()?;
/// let k = std::f32::consts::FRAC_1_SQRT_2;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data()[0], Complex32::new(k, k));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "dvbt_map",
    summary = "DVB-T mapper as gr-dtv's dvbt_map: symbol values to QPSK/16QAM/64QAM points (uniform or hierarchical), normalized, times gain.",
    make = Self::new(&constellation, &hierarchy, &transmission_mode, gain).map_err(Refused::from)
)]
#[param(constellation: String = "64qam", words = ["qpsk", "16qam", "64qam"], doc = "the constellation")]
#[param(hierarchy: String = "nh", words = ["nh", "alpha1", "alpha2", "alpha4"], doc = "hierarchy: α, the quadrants' distance")]
#[param(transmission_mode: String = "2k", words = ["2k", "8k"], doc = "transmission mode (vectors of 1512 or 6048)")]
#[param(gain: f32 = 1.0, doc = "the points' scale after normalization")]
pub struct DvbtMap {
    /// Vectors of symbol values.
    #[input(name = "in")]
    input: StreamInput<u8>,
    /// Vectors of constellation points.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    points: Vec<Complex32>,
    payload: usize,
}

impl std::fmt::Debug for DvbtMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DvbtMap")
            .field("points", &self.points.len())
            .field("payload", &self.payload)
            .finish()
    }
}

#[block(type_name = "dvbt_map")]
impl DvbtMap {
    /// The mapper of `constellation` and `hierarchy` in `transmission_mode` (the parameters'
    /// words), times `gain`.
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
        for (k, (y, &x)) in output.iter_mut().zip(input).enumerate() {
            *y = *self.points.get(x as usize).ok_or_else(|| {
                BlockError::msg(format!(
                    "{BLOCK}: input byte {k} of this call is {x}, not a symbol of {} points",
                    self.points.len()
                ))
            })?;
        }
        propagate_tags_at_rate(&self.input, &mut self.output, n, 1, 1);
        self.input.consume(n * p);
        self.output.produce(n * p);
        Ok(WorkStatus::Continue)
    }
}
