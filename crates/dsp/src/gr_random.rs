//! [`GrRandom`]: GNU Radio 3.10's random variates (`gr::random`), the same numbers for the
//! same seed.

/// 1/2^64: a 64-bit draw to a fraction of one (a power of two, so the product is exact).
const TWO_TO_MINUS_64: f32 = 1.0 / 18_446_744_073_709_551_616.0;

/// GNU Radio 3.10's pseudo-random generator and the variates its noise sources draw
/// (`gr::random`): xoroshiro128+ seeded through SplitMix64, uniform, Gaussian, Laplacian and
/// impulse variates in `f32`, computed as GNU Radio computes them (same precision, same
/// order), so a seed gives the numbers GNU Radio's `gr.random(seed)` gives.
///
/// The generator is written here rather than taken from `rand_xoshiro`: GNU Radio uses the
/// 2016 parameters of xoroshiro128+ (rotations 55, 14, 36 and their jump polynomial), which
/// that crate replaced with the 2018 ones; only these give GNU Radio's stream.
///
/// - [`uniform`](Self::uniform): in `[0, 1)`, the draw `x` as `f32` times 2⁻⁶⁴ (C++'s
///   `uniform_real_distribution<float>` over the generator).
/// - [`gaussian`](Self::gaussian): mean 0, variance 1, by Marsaglia's polar method; each
///   accepted pair gives two values, the second kept for the next call.
/// - [`laplacian`](Self::laplacian): density `e^{-|x|} / 2` (mean 0, variance 2; GNU Radio's
///   header says variance 1, its code draws this one).
/// - [`impulse`](Self::impulse): `z = -√2 · ln u` (exponential, mean √2), replaced by 0
///   where `|z| <= factor`.
///
/// Seed 0 is a seed like any other: GNU Radio 3.10's header says 0 seeds from the clock,
/// but its constructor seeds the generator with the value as given.
///
/// ```
/// use radioflow_dsp::GrRandom;
/// let mut a = GrRandom::new(5);
/// let mut b = GrRandom::new(5);
/// let u = a.uniform();
/// assert!((0.0..1.0).contains(&u) && u == b.uniform());
/// assert_eq!(a.gaussian(), b.gaussian());
/// ```
#[derive(Clone, Debug)]
pub struct GrRandom {
    state: [u64; 2],
    /// The second value of the last Gaussian pair, until handed out.
    stored: Option<f32>,
}

impl GrRandom {
    /// The generator seeded with `seed` (GNU Radio's `xoroshiro128p_seed`: the seed and its
    /// SplitMix64 successor, then a jump of 2⁶⁴ steps).
    pub fn new(seed: u64) -> Self {
        let s0 = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        let mut rng = Self {
            state: [s0, z ^ (z >> 31)],
            stored: None,
        };
        rng.jump();
        rng
    }

    /// Advances by 2⁶⁴ steps (the 2016 jump polynomial).
    fn jump(&mut self) {
        let mut to = [0u64; 2];
        for word in [0xbeac_0467_eba5_facb_u64, 0xd86b_048b_86aa_9922] {
            for bit in 0..64 {
                if word & (1 << bit) != 0 {
                    to[0] ^= self.state[0];
                    to[1] ^= self.state[1];
                }
                self.next_u64();
            }
        }
        self.state = to;
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let [s0, mut s1] = self.state;
        let result = s0.wrapping_add(s1);
        s1 ^= s0;
        self.state = [s0.rotate_left(55) ^ s1 ^ (s1 << 14), s1.rotate_left(36)];
        result
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn uniform(&mut self) -> f32 {
        let u = self.next_u64() as f32 * TWO_TO_MINUS_64;
        // A draw within half a step of 2^64 rounds to 1; C++ gives the largest float below.
        if u >= 1.0 {
            1.0 - f32::EPSILON / 2.0
        } else {
            u
        }
    }

    /// Gaussian with mean 0 and variance 1.
    #[inline]
    pub fn gaussian(&mut self) -> f32 {
        if let Some(g) = self.stored.take() {
            return g;
        }
        loop {
            // GNU Radio's `2.0 * ran1() - 1.0` is a double, stored in a float.
            let x = (2.0 * f64::from(self.uniform()) - 1.0) as f32;
            let y = (2.0 * f64::from(self.uniform()) - 1.0) as f32;
            let s = x * x + y * y;
            if s < 1.0 && s != 0.0 {
                let m = ((-2.0 * f64::from(s.ln()) / f64::from(s)) as f32).sqrt();
                self.stored = Some(x * m);
                return y * m;
            }
        }
    }

    /// Laplacian with density `e^{-|x|} / 2` (mean 0, variance 2).
    #[inline]
    pub fn laplacian(&mut self) -> f32 {
        let z = self.uniform();
        if z > 0.5 {
            -(2.0 * (1.0 - z)).ln()
        } else {
            (2.0 * z).ln()
        }
    }

    /// `-√2 · ln u` for uniform `u`, or 0 where that is at most `factor` (GNU Radio's noise
    /// sources use `factor` 9: about one value in 580 is not 0).
    #[inline]
    pub fn impulse(&mut self, factor: f32) -> f32 {
        let z = (-std::f64::consts::SQRT_2 * f64::from(self.uniform().ln())) as f32;
        if z.abs() <= factor {
            0.0
        } else {
            z
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mean and variance of `n` draws.
    fn moments(n: usize, mut draw: impl FnMut() -> f32) -> (f64, f64) {
        let xs: Vec<f64> = (0..n).map(|_| f64::from(draw())).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        (mean, var)
    }

    #[test]
    fn the_generator_is_xoroshiro128plus_2016() {
        // The step by hand from a known state: result s0 + s1, then the 55/14/36 update.
        let mut rng = GrRandom {
            state: [1, 2],
            stored: None,
        };
        assert_eq!(rng.next_u64(), 3);
        let s1 = 2u64 ^ 1;
        assert_eq!(
            rng.state,
            [1u64.rotate_left(55) ^ s1 ^ (s1 << 14), s1.rotate_left(36)]
        );
        // Same seed, same stream; another seed, another.
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = GrRandom::new(0);
                move |_| r.next_u64()
            })
            .collect();
        let mut r = GrRandom::new(0);
        assert_eq!(a, (0..4).map(|_| r.next_u64()).collect::<Vec<_>>());
        assert_ne!(GrRandom::new(1).next_u64(), a[0]);
    }

    #[test]
    fn the_numbers_are_gnu_radios() {
        // From Debian's GNU Radio 3.10.5: r = gr.random(5); three r.ran1(), three r.gasdev(),
        // three r.laplacian(), two r.impulse(0.5); gr.random(0): two r.ran1().
        let mut r = GrRandom::new(5);
        let got: Vec<f32> = [(); 3]
            .map(|()| r.uniform())
            .into_iter()
            .chain([(); 3].map(|()| r.gaussian()))
            .chain([(); 3].map(|()| r.laplacian()))
            .chain([(); 2].map(|()| r.impulse(0.5)))
            .collect();
        let want = [
            0.132_267_19_f32,
            0.373_352_2,
            0.546_501,
            -0.334_735_84,
            1.529_392,
            0.649_224_34,
            -0.025_191_98,
            0.553_272_2,
            -0.369_196_1,
            1.620_427_3,
            0.0,
        ];
        assert_eq!(got, want);
        let mut r = GrRandom::new(0);
        assert_eq!([r.uniform(), r.uniform()], [0.233_588_05, 0.974_812_45]);
    }

    // Bounds: a mean of N draws of variance v is off by more than 6·sqrt(v/N) with
    // probability below 1e-8; the seeds are fixed, so these never flake.
    #[test]
    fn the_variates_have_their_distributions() {
        const N: usize = 200_000;
        let six_sigma = |v: f64| 6.0 * (v / N as f64).sqrt();
        let mut rng = GrRandom::new(1);
        let (m, v) = moments(N, || rng.uniform());
        assert!((m - 0.5).abs() < six_sigma(1.0 / 12.0), "uniform mean {m}");
        assert!((v - 1.0 / 12.0).abs() < 0.002, "uniform variance {v}");
        let mut rng = GrRandom::new(2);
        let (m, v) = moments(N, || rng.gaussian());
        assert!(m.abs() < six_sigma(1.0), "gaussian mean {m}");
        assert!((v - 1.0).abs() < 0.02, "gaussian variance {v}");
        let mut rng = GrRandom::new(3);
        let (m, v) = moments(N, || rng.laplacian());
        assert!(m.abs() < six_sigma(2.0), "laplacian mean {m}");
        assert!((v - 2.0).abs() < 0.06, "laplacian variance {v}");
        // P(|x| > 1) = e^-1 for the Laplacian.
        let mut rng = GrRandom::new(4);
        let over = (0..N).filter(|_| rng.laplacian().abs() > 1.0).count() as f64 / N as f64;
        assert!(
            (over - (-1.0f64).exp()).abs() < 0.01,
            "laplacian tail {over}"
        );
        // Impulses: P(z > 9) = e^{-9/√2}; every non-zero value is above 9.
        let mut rng = GrRandom::new(5);
        let xs: Vec<f32> = (0..N).map(|_| rng.impulse(9.0)).collect();
        assert!(xs.iter().all(|&x| x == 0.0 || x > 9.0));
        let p = (-9.0 / std::f64::consts::SQRT_2).exp();
        let hits = xs.iter().filter(|&&x| x != 0.0).count() as f64;
        let want = p * N as f64;
        assert!(
            (hits - want).abs() < 6.0 * want.sqrt(),
            "{hits} impulses, {want} expected"
        );
    }
}
