//! [`PoolNoise`]: Gaussian noise picked from a pool, GNU Radio's `fastnoise_source_c`/`_f`.

use radioflow_dsp::{Complex32, GrRandom};

/// GNU Radio's pool size for `fastnoise_source` where gr-channels' models make one (the
/// dynamic channel model's is [`DYNAMIC_POOL`]).
const POOL: usize = 16 * 1024;

/// The pool size of the dynamic channel model's noise.
pub(crate) const DYNAMIC_POOL: usize = 8 * 1024;

/// A value of Gaussian noise: complex (power `a²`, each part scaled by `a / √2`, the
/// imaginary part drawn first) or real (standard deviation `a`), as GNU Radio draws them.
pub(crate) trait PoolItem: Copy + Default {
    fn draw(rng: &mut GrRandom, amplitude: f32) -> Self;
}

impl PoolItem for Complex32 {
    fn draw(rng: &mut GrRandom, amplitude: f32) -> Self {
        let a = amplitude / std::f32::consts::SQRT_2;
        let im = rng.gaussian();
        Complex32::new(a * rng.gaussian(), a * im)
    }
}

impl PoolItem for f32 {
    fn draw(rng: &mut GrRandom, amplitude: f32) -> Self {
        amplitude * rng.gaussian()
    }
}

/// Gaussian noise as GNU Radio's `fastnoise_source_c`/`_f(GR_GAUSSIAN, amplitude, seed)`
/// makes it: a pool of 16384 values (or another power of two) drawn by [`GrRandom`], each
/// output a pool value picked by the low bits of a second generator seeded alike. The same numbers as
/// `radioflow_blocks::FastNoiseSource` (which also makes the other distributions and item
/// types; gr-channels' models, which depend on the runtime and DSP crates only, need these).
#[derive(Clone, Debug)]
pub(crate) struct PoolNoise<T: PoolItem> {
    rng: GrRandom,
    picks: GrRandom,
    /// A power of two of values.
    pool: Vec<T>,
}

impl<T: PoolItem> PoolNoise<T> {
    pub(crate) fn new(amplitude: f32, seed: u64) -> Self {
        Self::with_pool(amplitude, seed, POOL)
    }

    /// With a pool of `size` values (a power of two).
    pub(crate) fn with_pool(amplitude: f32, seed: u64, size: usize) -> Self {
        debug_assert!(size.is_power_of_two());
        let mut noise = Self {
            rng: GrRandom::new(seed),
            picks: GrRandom::new(seed),
            pool: vec![T::default(); size],
        };
        noise.set_amplitude(amplitude);
        noise
    }

    /// Draws a new pool from the running generator (GNU Radio's `set_amplitude`).
    pub(crate) fn set_amplitude(&mut self, amplitude: f32) {
        for p in &mut self.pool {
            *p = T::draw(&mut self.rng, amplitude);
        }
    }

    /// The next value.
    #[inline]
    pub(crate) fn next(&mut self) -> T {
        self.pool[(self.picks.next_u64() & (self.pool.len() as u64 - 1)) as usize]
    }
}

impl PoolNoise<f32> {
    /// The next value of a random sign (GNU Radio's `sample_unbiased`: bit 23 of a draw
    /// before the pick).
    pub(crate) fn next_unbiased(&mut self) -> f32 {
        let sign = self.picks.next_u64() & (1 << 23);
        let s = self.next();
        if sign != 0 {
            -s
        } else {
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_is_the_amplitude_squared() {
        let mut noise = PoolNoise::<Complex32>::new(0.5, 3);
        let n = 20_000;
        let power: f32 = (0..n).map(|_| noise.next().norm_sqr()).sum::<f32>() / n as f32;
        assert!((power - 0.25).abs() < 0.01, "{power}");
        noise.set_amplitude(0.0);
        assert_eq!(noise.next(), Complex32::default());

        let mut real = PoolNoise::<f32>::new(2.0, 3);
        let xs: Vec<f32> = (0..n).map(|_| real.next_unbiased()).collect();
        let mean = xs.iter().sum::<f32>() / n as f32;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / n as f32;
        assert!(mean.abs() < 0.05 && (var - 4.0).abs() < 0.2, "{mean} {var}");
    }
}
