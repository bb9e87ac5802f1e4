//! [`PoolNoise`]: complex Gaussian noise picked from a pool, GNU Radio's `fastnoise_source_c`.

use radioflow_dsp::{Complex32, GrRandom};

/// GNU Radio's pool size for `fastnoise_source` where the channel model makes one.
const POOL: usize = 16 * 1024;

/// Complex Gaussian noise of power `amplitude²` as GNU Radio's
/// `fastnoise_source_c(GR_GAUSSIAN, amplitude, seed)` makes it: a pool of 16384 values
/// drawn by [`GrRandom`] (imaginary part first, each part scaled by `amplitude / √2`), each
/// output a pool value picked by the low bits of a second generator seeded alike. The same
/// numbers as `radioflow_blocks::FastNoiseSource` (which also makes the other distributions
/// and item types; the channel model, which depends on the runtime and DSP crates only,
/// needs this one).
#[derive(Clone, Debug)]
pub(crate) struct PoolNoise {
    rng: GrRandom,
    picks: GrRandom,
    /// `POOL` values.
    pool: Vec<Complex32>,
}

impl PoolNoise {
    pub(crate) fn new(amplitude: f32, seed: u64) -> Self {
        let mut noise = Self {
            rng: GrRandom::new(seed),
            picks: GrRandom::new(seed),
            pool: vec![Complex32::default(); POOL],
        };
        noise.set_amplitude(amplitude);
        noise
    }

    /// Draws a new pool from the running generator (GNU Radio's `set_amplitude`).
    pub(crate) fn set_amplitude(&mut self, amplitude: f32) {
        let a = amplitude / std::f32::consts::SQRT_2;
        for p in &mut self.pool {
            let im = self.rng.gaussian();
            *p = Complex32::new(a * self.rng.gaussian(), a * im);
        }
    }

    /// The next value.
    #[inline]
    pub(crate) fn next(&mut self) -> Complex32 {
        self.pool[(self.picks.next_u64() & (POOL as u64 - 1)) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_is_the_amplitude_squared() {
        let mut noise = PoolNoise::new(0.5, 3);
        let n = 20_000;
        let power: f32 = (0..n).map(|_| noise.next().norm_sqr()).sum::<f32>() / n as f32;
        assert!((power - 0.25).abs() < 0.01, "{power}");
        noise.set_amplitude(0.0);
        assert_eq!(noise.next(), Complex32::default());
    }
}
