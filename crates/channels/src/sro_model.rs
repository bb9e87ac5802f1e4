//! [`SroModel`]: a sample rate offset walking at random, GNU Radio's `channels.sro_model`.

use crate::pool_noise::PoolNoise;
use radioflow_dsp::{ParamError, SroWalk};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Resamples by a sample rate offset that walks at random, as GNU Radio's
/// `channels.sro_model`: [`SroWalk`] from 0 Hz (the 8-tap MMSE interpolator, so the stream
/// starts 3 samples into the input), each step Gaussian of standard deviation `std_dev` Hz
/// (from a fast-noise pool, of random sign, GNU Radio's numbers for the same `seed`), the
/// offset bounded to `±max_dev` Hz. Tags keep their offsets (GNU Radio's relative rate here
/// is 1; where the outputs run ahead of the inputs, a tag whose offset is out already goes on
/// the next output). `std_dev` (a new pool, its generators seeded afresh, as GNU Radio's), `max_dev`
/// and `sample_rate` can be set while the graph runs (GNU Radio's `set_std_dev`,
/// `set_max_dev`, `set_samp_rate`). At the end of the stream it makes every output its input
/// determines: a few more than GNU Radio's, whose forecast asks for more input.
///
/// # Example
/// ```
/// use radioflow_blocks::{VectorSink, VectorSource};
/// use radioflow_channels::SroModel;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(VectorSource::new(vec![Complex32::new(1.0, 0.0); 1000]));
/// let sro = fg.add(SroModel::new(32e3, 0.5, 50.0, 0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, sro)?;
/// fg.connect(sro, sink)?;
/// fg.run()?;
/// // About one output per input (the offset stays within ±50 Hz of 32 kHz).
/// let n = fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len();
/// assert!((985..=1000).contains(&n), "{n}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "sro_model",
    summary = "A sample rate offset walking at random within a bound (GNU Radio's channels.sro_model, the same numbers for the same seed).",
    make = Self::new(sample_rate, std_dev, max_dev, seed).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(sample_rate: f32, settable, doc = "samples per second (finite, above 0)")]
#[param(std_dev: f32 = 0.01, settable, doc = "of the walk's steps, in Hz per sample")]
#[param(max_dev: f32 = 1000.0, settable, doc = "the bound of the offset, in Hz (at least 0)")]
#[param(seed: i64 = 0, doc = "of the steps' generators (GNU Radio's numbers for the same seed; a negative one is taken modulo 2^64)")]
#[derive(Debug)]
pub struct SroModel {
    /// Samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Samples resampled, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    walk: SroWalk,
    steps: PoolNoise<f32>,
    seed: i64,
}

#[block]
impl SroModel {
    /// A walk of steps of standard deviation `std_dev` Hz within `±max_dev` Hz at
    /// `sample_rate`, its steps drawn from `seed`.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0, or `max_dev` is negative or not finite.
    pub fn new(
        sample_rate: f32,
        std_dev: f32,
        max_dev: f32,
        seed: i64,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            walk: SroWalk::new(sample_rate, max_dev)?,
            // GNU Radio's seed is a double converted to a C long, then to 64 unsigned bits.
            steps: PoolNoise::new(std_dev, seed as u64),
            seed,
        })
    }

    /// Changes the steps' standard deviation: a new pool from generators seeded afresh.
    pub fn set_std_dev(&mut self, std_dev: f32) {
        self.steps = PoolNoise::new(std_dev, self.seed as u64);
    }

    /// Changes the bound.
    ///
    /// # Errors
    /// If `max_dev` is negative or not finite; it stays as it was.
    pub fn set_max_dev(&mut self, max_dev: f32) -> Result<(), ParamError> {
        self.walk.set_max_dev(max_dev)
    }

    /// Changes the sample rate.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0; it stays as it was.
    pub fn set_sample_rate(&mut self, sample_rate: f32) -> Result<(), ParamError> {
        self.walk.set_sample_rate(sample_rate)
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let steps = &mut self.steps;
        let (consumed, produced) =
            self.walk
                .process(self.input.slice(), self.output.slice(), || {
                    steps.next_unbiased()
                });
        if !self.input.tags().is_empty() {
            let (from, to) = (self.input.offset(), self.output.offset());
            for t in self.input.tags() {
                if t.offset >= from + consumed as u64 {
                    break;
                }
                self.output.add_tag_at(t.offset.max(to), t);
            }
        }
        self.input.consume(consumed);
        self.output.produce(produced);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn settings_take_effect_and_bad_ones_are_refused() {
        let one = Complex32::new(1.0, 0.0);
        // A bound of 0: one output per input.
        let mut h = Harness::new(SroModel::new(100.0, 5.0, 0.0, 1).unwrap());
        h.push("in", &[one; 107]);
        h.work().unwrap();
        assert_eq!(h.take_output::<Complex32>("out").len(), 100);
        // Steps of 5 Hz at 100 Hz, bounded at 50 Hz: 0.5 to 1.5 inputs per output.
        h.post("max_dev", 50.0f32).unwrap();
        h.post("sample_rate", 100.0f32).unwrap();
        h.push("in", &[one; 1000]);
        h.work().unwrap();
        let n = h.take_output::<Complex32>("out").len();
        assert!((660..=2014).contains(&n) && n != 1000, "{n}");
        assert!(h.post("sample_rate", 0.0f32).is_err());
        assert_eq!(
            SroModel::new(1.0, 1.0, -1.0, 0).unwrap_err().name,
            "max_dev"
        );
    }
}
