//! [`FastNoiseSource`]: noise picked at random from a pool drawn once, GNU Radio's numbers.

use crate::noise_type::{NoiseItem, NoiseType, UnsupportedNoise};
use radioflow_dsp::GrRandom;
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Generates noise forever from a pool of `samples` values drawn when the block is made,
/// like GNU Radio's `fastnoise_source_c`, `_f`, `_i` and `_s`: each output is a pool value
/// picked uniformly at random. The pool holds [`NoiseSource`](crate::NoiseSource)'s
/// distribution ([`NoiseType`], [`NoiseItem`]), so the output's distribution is the pool's
/// empirical one: close to it for a large pool, periodic in nothing but repeating values.
///
/// For the same seed, pool and picks are GNU Radio 3.10's: the pool from [`GrRandom`]
/// seeded with `seed`, each pick the low bits of a second generator seeded alike (the draw
/// modulo `samples` where `samples` is not a power of two). Setting `noise_type` or
/// `amplitude` while the graph runs draws a new pool from the running generator (GNU Radio's
/// `set_type`, `set_amplitude`), into the same memory.
///
/// # Example
/// ```
/// use radioflow_blocks::{FastNoiseSource, Head, NoiseType, VectorSink};
/// use radioflow_blocks::runtime::Flowgraph;
///
/// let mut fg = Flowgraph::new();
/// let src = fg.add(FastNoiseSource::<f32>::new(NoiseType::Gaussian, 1.0, 0, 16)?);
/// let head = fg.add(Head::<f32>::new(1000));
/// let sink = fg.add(VectorSink::<f32>::new());
/// fg.connect(src, head)?;
/// fg.connect(head, sink)?;
/// fg.run()?;
/// let mut seen = fg.block::<VectorSink<f32>>(sink).unwrap().data().to_vec();
/// seen.sort_by(f32::total_cmp);
/// seen.dedup();
/// assert!(seen.len() <= 16, "at most the pool's 16 values");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[library_block(
    id = "fastnoise_source",
    summary = "Noise picked at random from a pool of `samples` values drawn once (GNU Radio's analog.fastnoise_source_c/f/i/s, the same numbers for the same seed).",
    dtypes = [Float32, Complex32, Int32, Int16],
    make = Self::new(noise_type, amplitude, seed, samples).map_err(|e| Refused::param("noise_type", e))
)]
#[param(noise_type: NoiseType = "gaussian", settable, words = ["uniform", "gaussian", "laplacian", "impulse"], doc = "the distribution of the pool (complex: uniform or gaussian)")]
#[param(amplitude: f32 = 1.0, settable, doc = "the standard deviation (gaussian), the bound (uniform), the scale (laplacian, impulse)")]
#[param(seed: i64 = 0, doc = "of the generators (GNU Radio's: the same seed gives GNU Radio's numbers; a negative one is taken modulo 2^64)")]
#[param(samples: usize = 8192, min = 1, doc = "the pool's size (a power of two picks fastest)")]
#[derive(Debug)]
pub struct FastNoiseSource<T: NoiseItem> {
    /// The noise.
    #[output(name = "out")]
    output: StreamOutput<T>,
    /// Draws the pool.
    rng: GrRandom,
    /// Picks from the pool.
    picks: GrRandom,
    /// Never empty.
    pool: Vec<T>,
    /// `pool.len() - 1` where that is a power of two less one, else 0 (pick modulo).
    mask: u64,
    kind: NoiseType,
    amplitude: f32,
}

#[block]
impl<T: NoiseItem> FastNoiseSource<T> {
    /// A source picking from `samples` values of `kind` noise of amplitude `amplitude`,
    /// its generators seeded with `seed`.
    ///
    /// # Errors
    /// If `T` has no noise of `kind` (complex noise is uniform or Gaussian).
    ///
    /// # Panics
    /// If `samples` is 0.
    pub fn new(
        kind: NoiseType,
        amplitude: f32,
        seed: i64,
        samples: usize,
    ) -> Result<Self, UnsupportedNoise> {
        assert!(samples > 0, "a noise pool needs at least one value");
        T::check(kind)?;
        // GNU Radio's seed is a C long converted to 64 unsigned bits.
        let seed = seed as u64;
        let mut source = Self {
            output: StreamOutput::new(),
            rng: GrRandom::new(seed),
            picks: GrRandom::new(seed),
            pool: vec![T::zeroed(); samples],
            mask: if samples.is_power_of_two() {
                samples as u64 - 1
            } else {
                0
            },
            kind,
            amplitude,
        };
        source.draw(amplitude);
        Ok(source)
    }

    /// Draws a new pool.
    fn draw(&mut self, amplitude: f32) {
        T::fill(
            &mut self.rng,
            self.kind,
            T::scale(amplitude),
            &mut self.pool,
        );
    }

    /// Changes the distribution, drawing a new pool at the amplitude last set.
    ///
    /// # Errors
    /// If `T` has no noise of `kind`; the block keeps its pool, the graph stops.
    pub fn set_noise_type(&mut self, kind: NoiseType) -> Result<(), UnsupportedNoise> {
        T::check(kind)?;
        self.kind = kind;
        let amplitude = self.amplitude;
        self.draw(amplitude);
        Ok(())
    }

    /// Changes the amplitude, drawing a new pool.
    pub fn set_amplitude(&mut self, amplitude: f32) {
        self.amplitude = amplitude;
        self.draw(amplitude);
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let out = self.output.slice();
        let n = out.len();
        let len = self.pool.len() as u64;
        for o in out.iter_mut() {
            let r = self.picks.next_u64();
            let at = if self.mask != 0 {
                r & self.mask
            } else {
                r % len
            };
            *o = self.pool[at as usize];
        }
        self.output.produce(n);
        Ok(WorkStatus::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::testing::Harness;

    fn pool<T: NoiseItem>(kind: NoiseType, amplitude: f32, seed: i64, samples: usize) -> Vec<T> {
        let mut pool = vec![T::zeroed(); samples];
        T::fill(
            &mut GrRandom::new(seed as u64),
            kind,
            T::scale(amplitude),
            &mut pool,
        );
        pool
    }

    #[test]
    fn picks_from_the_pool_by_the_second_generators_draws() {
        for samples in [8, 10] {
            let want_pool = pool::<f32>(NoiseType::Uniform, 2.0, 4, samples);
            let mut picks = GrRandom::new(4);
            let want: Vec<f32> = (0..50)
                .map(|_| want_pool[(picks.next_u64() % samples as u64) as usize])
                .collect();
            let mut h = Harness::new(
                FastNoiseSource::<f32>::new(NoiseType::Uniform, 2.0, 4, samples).unwrap(),
            );
            h.set_space("out", 50);
            h.work().unwrap();
            assert_eq!(h.take_output::<f32>("out"), want, "{samples} values");
        }
    }

    #[test]
    fn a_setting_draws_a_new_pool_from_the_running_generator() {
        let mut h =
            Harness::new(FastNoiseSource::<i16>::new(NoiseType::Gaussian, 100.0, 1, 4).unwrap());
        h.post("noise_type", Pmt::symbol("uniform")).unwrap();
        h.set_space("out", 200);
        h.work().unwrap();
        let mut rng = GrRandom::new(1);
        let mut first = [0i16; 4];
        i16::fill(&mut rng, NoiseType::Gaussian, 100.0, &mut first);
        let mut second = [0i16; 4];
        i16::fill(&mut rng, NoiseType::Uniform, 100.0, &mut second);
        let got = h.take_output::<i16>("out");
        assert!(
            got.iter().all(|x| second.contains(x)),
            "{got:?} from {second:?}"
        );
        assert!(got.iter().all(|x| (-100..100).contains(x)));

        let e = FastNoiseSource::<Complex32>::new(NoiseType::Impulse, 1.0, 0, 8).unwrap_err();
        assert!(e.to_string().contains("not impulse"), "{e}");
    }
}
