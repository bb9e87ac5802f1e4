//! [`MeasEvm`]: each sample's error vector magnitude against its nearest constellation point.

use crate::Constellation;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use std::str::FromStr;

/// How [`MeasEvm`] states the error (GNU Radio's `digital.evm_measurement_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvmUnit {
    /// `100 · |e| / rms`: percent of the constellation's RMS amplitude (`EVM_PERCENT`).
    Percent,
    /// `20 · log10(|e| / rms)`: the power ratio in dB (`EVM_DB`).
    Db,
}

impl FromStr for EvmUnit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "evm_percent" => Ok(Self::Percent),
            "evm_db" => Ok(Self::Db),
            other => Err(format!(
                "'{other}' is not an EVM unit (evm_percent or evm_db)"
            )),
        }
    }
}

/// For each sample, the distance to the constellation point it is decided as, relative to
/// the constellation's RMS amplitude (its points' mean power, summed in float32 as GNU
/// Radio sums it), in percent or dB: GNU Radio's `meas_evm_cc`. Tags kept.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_digital::{EvmUnit, MeasEvm};
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.1, 0.0)]));
/// let evm = fg.add(MeasEvm::new("bpsk".parse()?, EvmUnit::Percent)?);
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, evm)?;
/// fg.connect(evm, sink)?;
/// fg.run()?;
/// assert!((fg.block::<VectorSink<f32>>(sink).unwrap().data()[0] - 10.0).abs() < 1e-4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "meas_evm",
    summary = "Each sample's error vector magnitude against its nearest constellation point, in percent or dB (GNU Radio's meas_evm_cc).",
    make = Self::new(constellation, meas_type).map_err(|e| Refused::param("constellation", e))
)]
#[param(constellation: Constellation, example = "qpsk", doc = "the constellation the samples are decided on (one complex number per symbol)")]
#[param(meas_type: EvmUnit = "evm_percent", words = ["evm_percent", "evm_db"], doc = "percent of the RMS amplitude, or dB")]
#[derive(Debug)]
pub struct MeasEvm {
    /// Samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Each sample's EVM, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<f32>,
    constellation: Constellation,
    unit: EvmUnit,
    /// The constellation's RMS amplitude.
    rms: f32,
}

#[block]
impl MeasEvm {
    /// An EVM meter for `constellation`.
    ///
    /// # Errors
    /// A constellation of more than one number per symbol.
    pub fn new(constellation: Constellation, unit: EvmUnit) -> Result<Self, String> {
        if constellation.dimensionality() != 1 {
            return Err(format!(
                "has {} complex numbers per symbol, the meter decides one sample at a time",
                constellation.dimensionality()
            ));
        }
        let points = constellation.points();
        let power = points.iter().fold(0.0f32, |s, p| s + p.norm_sqr()) / points.len() as f32;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            rms: power.sqrt(),
            constellation,
            unit,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (c, unit, rms) = (&self.constellation, self.unit, self.rms);
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            for (o, &s) in y.iter_mut().zip(x) {
                let p = c.points()[c.decision(&[s]) as usize];
                let e = (p - s).norm() / rms;
                *o = match unit {
                    EvmUnit::Percent => e * 100.0,
                    EvmUnit::Db => 20.0 * e.log10(),
                };
            }
        });
        Ok(WorkStatus::Continue)
    }
}
