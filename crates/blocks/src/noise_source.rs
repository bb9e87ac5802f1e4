//! [`NoiseSource`]: uniform, Gaussian, Laplacian or impulse noise, GNU Radio's numbers.

use crate::noise_type::{NoiseItem, NoiseType, UnsupportedNoise};
use radioflow_dsp::GrRandom;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Generates noise forever, like GNU Radio's `noise_source_c`, `_f`, `_i` and `_s`: the same
/// distributions and scaling ([`NoiseType`], [`NoiseItem`]), and for the same seed the same
/// numbers as GNU Radio 3.10 (its generator, [`GrRandom`]). Seed 0 is a seed like any other,
/// as in GNU Radio 3.10 (whose docs say otherwise): each run gives the same noise.
///
/// `amplitude` is the standard deviation of Gaussian noise, the bound of uniform noise;
/// complex noise splits it between the real and imaginary parts (power `a²` for Gaussian).
/// Complex noise is uniform or Gaussian only, as in GNU Radio, whose complex sources fail on
/// the other two. `noise_type` and `amplitude` can be set while the graph runs (GNU Radio's
/// `set_type` and `set_amplitude`); the generator runs on.
///
/// # Example
/// ```
/// use radioflow_blocks::{Head, NoiseSource, NoiseType, VectorSink};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(NoiseSource::<f32>::new(NoiseType::Uniform, 2.0, 7)?);
/// let head = fg.add(Head::<f32>::new(1000));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let noise = fg.block::<VectorSink<f32>>(sink).unwrap().data();
/// assert!(noise.iter().all(|x| (-2.0..2.0).contains(x)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "noise_source",
    summary = "Uniform, Gaussian, Laplacian or impulse noise of amplitude `amplitude` (GNU Radio's analog.noise_source_c/f/i/s, the same numbers for the same seed).",
    dtypes = [Float32, Complex32, Int32, Int16],
    make = Self::new(noise_type, amplitude, seed).map_err(|e| Refused::param("noise_type", e))
)]
#[param(noise_type: NoiseType = "gaussian", settable, words = ["uniform", "gaussian", "laplacian", "impulse"], doc = "the distribution (complex: uniform or gaussian)")]
#[param(amplitude: f32 = 1.0, settable, doc = "the standard deviation (gaussian), the bound (uniform), the scale (laplacian, impulse)")]
#[param(seed: i64 = 0, doc = "of the generator (GNU Radio's: the same seed gives GNU Radio's numbers; a negative one is taken modulo 2^64)")]
#[derive(Debug)]
pub struct NoiseSource<T: NoiseItem> {
    /// The noise.
    #[output(name = "out")]
    output: StreamOutput<T>,
    rng: GrRandom,
    kind: NoiseType,
    /// The scale of each real component ([`NoiseItem::scale`] of the amplitude).
    scale: f32,
}

#[block]
impl<T: NoiseItem> NoiseSource<T> {
    /// A source of `kind` noise of amplitude `amplitude`, its generator seeded with `seed`.
    ///
    /// # Errors
    /// If `T` has no noise of `kind` (complex noise is uniform or Gaussian).
    pub fn new(kind: NoiseType, amplitude: f32, seed: i64) -> Result<Self, UnsupportedNoise> {
        T::check(kind)?;
        Ok(Self {
            output: StreamOutput::new(),
            // GNU Radio's seed is a C long converted to 64 unsigned bits.
            rng: GrRandom::new(seed as u64),
            kind,
            scale: T::scale(amplitude),
        })
    }

    /// Changes the distribution.
    ///
    /// # Errors
    /// If `T` has no noise of `kind`; the block keeps its distribution, the graph stops.
    pub fn set_noise_type(&mut self, kind: NoiseType) -> Result<(), UnsupportedNoise> {
        T::check(kind)?;
        self.kind = kind;
        Ok(())
    }

    /// Changes the amplitude.
    pub fn set_amplitude(&mut self, amplitude: f32) {
        self.scale = T::scale(amplitude);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let n = out.len();
        T::fill(&mut self.rng, self.kind, self.scale, out);
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    #[test]
    fn the_noise_runs_on_across_calls_and_settings_apply_at_once() {
        let mut whole = Harness::new(NoiseSource::<f32>::new(NoiseType::Gaussian, 1.0, 3).unwrap());
        whole.set_space("out", 9);
        whole.work().unwrap();
        let want = whole.take_output::<f32>("out");
        let mut parts = Harness::new(NoiseSource::<f32>::new(NoiseType::Gaussian, 1.0, 3).unwrap());
        let mut got = Vec::new();
        for space in [1, 3, 5] {
            parts.set_space("out", space);
            parts.work().unwrap();
            got.extend(parts.take_output::<f32>("out"));
        }
        assert_eq!(got, want);

        // Twice the amplitude, twice the values of the same draws.
        let mut h = Harness::new(NoiseSource::<f32>::new(NoiseType::Gaussian, 1.0, 3).unwrap());
        h.post("amplitude", Pmt::Double(2.0)).unwrap();
        h.set_space("out", 9);
        h.work().unwrap();
        let doubled: Vec<f32> = want.iter().map(|x| 2.0 * x).collect();
        assert_eq!(h.take_output::<f32>("out"), doubled);
        h.post("noise_type", Pmt::symbol("uniform")).unwrap();
        h.post("amplitude", Pmt::Double(0.5)).unwrap();
        h.work().unwrap();
        assert!(h
            .take_output::<f32>("out")
            .iter()
            .all(|x| (-0.5..0.5).contains(x)));
        h.post("noise_type", Pmt::symbol("impulse")).unwrap();
        h.work().unwrap();
        assert!(h
            .take_output::<f32>("out")
            .iter()
            .all(|&x| x == 0.0 || x > 4.5));
    }

    #[test]
    fn complex_noise_is_uniform_or_gaussian() {
        let e = NoiseSource::<Complex32>::new(NoiseType::Laplacian, 1.0, 0).unwrap_err();
        assert!(e.to_string().contains("not laplacian"), "{e}");
        let mut h =
            Harness::new(NoiseSource::<Complex32>::new(NoiseType::Uniform, 1.0, 0).unwrap());
        let e = h.post("noise_type", Pmt::symbol("impulse")).unwrap_err();
        assert!(e.to_string().contains("not impulse"), "{e}");
        h.set_space("out", 100);
        h.work().unwrap();
        let bound = std::f32::consts::FRAC_1_SQRT_2;
        assert!(h
            .take_output::<Complex32>("out")
            .iter()
            .all(|c| c.re.abs() <= bound && c.im.abs() <= bound));
    }

    #[test]
    fn integers_are_truncated_toward_zero_and_saturate() {
        let draws = |amp: f32| {
            let mut h = Harness::new(NoiseSource::<f32>::new(NoiseType::Gaussian, amp, 9).unwrap());
            h.set_space("out", 64);
            h.work().unwrap();
            h.take_output::<f32>("out")
        };
        let mut h = Harness::new(NoiseSource::<i16>::new(NoiseType::Gaussian, 3.0, 9).unwrap());
        h.set_space("out", 64);
        h.work().unwrap();
        let want: Vec<i16> = draws(3.0).iter().map(|x| x.trunc() as i16).collect();
        assert_eq!(h.take_output::<i16>("out"), want);
        let mut h = Harness::new(NoiseSource::<i16>::new(NoiseType::Gaussian, 1e9, 9).unwrap());
        h.set_space("out", 64);
        h.work().unwrap();
        let want: Vec<i16> = draws(1e9)
            .iter()
            .map(|&x| if x > 0.0 { i16::MAX } else { i16::MIN })
            .collect();
        assert_eq!(h.take_output::<i16>("out"), want);
    }
}
