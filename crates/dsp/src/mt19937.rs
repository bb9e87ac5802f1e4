//! [`Mt19937`]: the 32-bit Mersenne Twister of C++'s `std::mt19937`, and libstdc++'s
//! `generate_canonical<double>` over it.

const N: usize = 624;
const M: usize = 397;

/// C++'s `std::mt19937` (Matsumoto and Nishimura's MT19937, 32 bits), so that a kernel can
/// draw what a GNU Radio block draws from it for the same seed. Written here: no crate of
/// the offline registry this workspace builds from has it, and it is 30 lines.
#[derive(Clone, Debug)]
pub(crate) struct Mt19937 {
    state: Box<[u32; N]>,
    /// The next word of `state` to temper; `N`: twist first.
    index: usize,
}

impl Mt19937 {
    /// Seeded as `std::mt19937(seed)`.
    pub(crate) fn new(seed: u32) -> Self {
        let mut state = Box::new([0u32; N]);
        state[0] = seed;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Self { state, index: N }
    }

    fn twist(&mut self) {
        for i in 0..N {
            let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % N] & 0x7fff_ffff);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            self.state[i] = self.state[(i + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32 bits.
    pub(crate) fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
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
