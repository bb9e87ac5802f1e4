//! [`CfoModel`]: a carrier frequency offset walking at random, GNU Radio's
//! `channels.cfo_model`.

use crate::pool_noise::PoolNoise;
use radioflow_dsp::{CfoWalk, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Shifts the samples by a carrier frequency offset that walks at random, as GNU Radio's
/// `channels.cfo_model`: [`CfoWalk`] from 0 Hz, each step Gaussian of standard deviation
/// `std_dev` Hz (from a fast-noise pool, of random sign, GNU Radio's numbers for the same
/// `seed`), the offset bounded to `±max_dev` Hz. Tags kept. `std_dev` (a new pool, its
/// generators seeded afresh, as GNU Radio's) and
/// `max_dev` and `sample_rate` can be set while the graph runs (GNU Radio's `set_std_dev`,
/// `set_max_dev`, `set_samp_rate`).
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, NullSource, VectorSink};
/// use radioflow_channels::CfoModel;
/// use radioflow_runtime::{Complex32, Flowgraph};
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(NullSource::<Complex32>::new());
/// let head = fg.add(Head::<Complex32>::new(100));
/// let cfo = fg.add(CfoModel::new(32e3, 0.01, 1e3, 0)?);
/// let sink = fg.add(VectorSink::<Complex32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, cfo)?;
/// fg.connect(cfo, sink)?;
/// fg.run()?;
/// assert_eq!(fg.block::<VectorSink<Complex32>>(sink).unwrap().data().len(), 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "cfo_model",
    summary = "A carrier frequency offset walking at random within a bound (GNU Radio's channels.cfo_model, the same numbers for the same seed).",
    make = Self::new(sample_rate, std_dev, max_dev, seed).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(sample_rate: f64, above = 0.0, settable, doc = "samples per second")]
#[param(std_dev: f32 = 0.01, settable, doc = "of the walk's steps, in Hz per sample")]
#[param(max_dev: f64 = 1000.0, at_least = 0.0, settable, doc = "the bound of the offset, in Hz")]
#[param(seed: i64 = 0, doc = "of the steps' generators (GNU Radio's numbers for the same seed; a negative one is taken modulo 2^64)")]
#[derive(Debug)]
pub struct CfoModel {
    /// Samples.
    #[input(name = "in")]
    input: StreamInput<Complex32>,
    /// Samples shifted by the offset, with the input's tags.
    #[output(name = "out")]
    output: StreamOutput<Complex32>,
    walk: CfoWalk,
    steps: PoolNoise<f32>,
    seed: i64,
}

#[block]
impl CfoModel {
    /// A walk of steps of standard deviation `std_dev` Hz within `±max_dev` Hz at
    /// `sample_rate`, its steps drawn from `seed`.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0, or `max_dev` is negative or not finite.
    pub fn new(
        sample_rate: f64,
        std_dev: f32,
        max_dev: f64,
        seed: i64,
    ) -> Result<Self, ParamError> {
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            walk: CfoWalk::new(sample_rate, max_dev)?,
            // GNU Radio's seed is a double converted to a C long, then to 64 unsigned bits.
            steps: PoolNoise::new(std_dev, seed as u64),
            seed,
        })
    }

    /// Changes the steps' standard deviation: a new pool from generators seeded afresh with
    /// the seed (GNU Radio makes a new noise source).
    pub fn set_std_dev(&mut self, std_dev: f32) {
        self.steps = PoolNoise::new(std_dev, self.seed as u64);
    }

    /// Changes the sample rate.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and above 0; it stays as it was.
    pub fn set_sample_rate(&mut self, sample_rate: f64) -> Result<(), ParamError> {
        self.walk.set_sample_rate(sample_rate)
    }

    /// Changes the bound.
    ///
    /// # Errors
    /// If `max_dev` is negative or not finite; it stays as it was.
    pub fn set_max_dev(&mut self, max_dev: f64) -> Result<(), ParamError> {
        self.walk.set_max_dev(max_dev)
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let (walk, steps) = (&mut self.walk, &mut self.steps);
        one_to_one_work(&mut self.input, &mut self.output, usize::MAX, |x, y| {
            walk.process(x, y, || steps.next_unbiased());
        });
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn run(h: &mut Harness<CfoModel>, n: usize) -> Vec<Complex32> {
        h.push("in", &vec![Complex32::new(1.0, 0.0); n]);
        h.work().unwrap();
        h.take_output::<Complex32>("out")
    }

    #[test]
    fn settings_take_effect_and_a_new_deviation_starts_the_steps_afresh() {
        // Max 0: no offset whatever the steps.
        let mut h = Harness::new(CfoModel::new(1e3, 5.0, 0.0, 3).unwrap());
        let one = Complex32::new(1.0, 0.0);
        assert!(run(&mut h, 50).iter().all(|y| (y - one).norm() < 1e-6));
        h.post("max_dev", 100.0).unwrap();
        h.post("std_dev", 5.0f32).unwrap();
        // The same steps as a new block's: the walk from where it is (0 Hz, phase 0).
        let mut fresh = Harness::new(CfoModel::new(1e3, 5.0, 100.0, 3).unwrap());
        assert_eq!(run(&mut h, 200), run(&mut fresh, 200));
        assert!(
            h.post("max_dev", -1.0).is_ok(),
            "refused by the declaration, ignored"
        );
        assert_eq!(
            CfoModel::new(0.0, 1.0, 1.0, 0).unwrap_err().name,
            "sample_rate"
        );
    }
}
