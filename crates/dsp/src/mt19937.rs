//! [`Mt19937`]: the 32-bit Mersenne Twister of C++'s `std::mt19937`, and libstdc++'s
//! `generate_canonical<double>` over it.

/// C++'s `std::mt19937` (Matsumoto and Nishimura's MT19937, 32 bits, from the `rand_mt`
/// crate), so that a kernel can draw what a GNU Radio block draws from it for the same seed,
/// with libstdc++'s ways of making doubles from it.
#[derive(Clone, Debug)]
pub(crate) struct Mt19937(rand_mt::Mt);

impl Mt19937 {
    /// Seeded as `std::mt19937(seed)`.
    pub(crate) fn new(seed: u32) -> Self {
        Self(rand_mt::Mt::new(seed))
    }

    /// The next 32 bits.
    pub(crate) fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// Uniform in `[0, 1)` as libstdc++'s `generate_canonical<double, 53>`: two draws,
    /// `(a + b · 2³²) / 2⁶⁴`, kept below 1.
    pub(crate) fn canonical(&mut self) -> f64 {
        const TWO_32: f64 = 4_294_967_296.0;
        let a = f64::from(self.next_u32());
        let b = f64::from(self.next_u32());
        let u = (a + b * TWO_32) / (TWO_32 * TWO_32);
        if u >= 1.0 {
            1.0 - f64::EPSILON / 2.0
        } else {
            u
        }
    }

    /// Uniform in `[low, high)` as libstdc++'s `uniform_real_distribution<double>`.
    pub(crate) fn uniform(&mut self, low: f64, high: f64) -> f64 {
        self.canonical() * (high - low) + low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ten_thousandth_draw_is_the_standard_s() {
        // C++ [rand.predef]: the 10000th draw of a default-constructed mt19937 (seed 5489).
        let mut mt = Mt19937::new(5489);
        let last = (0..10_000).map(|_| mt.next_u32()).last();
        assert_eq!(last, Some(4_123_659_995));
    }
}
