//! [`Mt19937`]: the 32-bit Mersenne Twister of C++'s `std::mt19937`, and libstdc++'s
//! `generate_canonical<double>` and `uniform_int_distribution<int>` over it.

/// C++'s `std::mt19937` (Matsumoto and Nishimura's MT19937, 32 bits, from the `rand_mt`
/// crate), so that a kernel can draw what a GNU Radio block draws from it for the same seed,
/// with libstdc++'s ways of making doubles from it.
#[derive(Clone, Debug)]
pub struct Mt19937(rand_mt::Mt);

impl Mt19937 {
    /// Seeded as `std::mt19937(seed)` (a default-constructed one has seed 5489).
    pub fn new(seed: u32) -> Self {
        Self(rand_mt::Mt::new(seed))
    }

    /// The next 32 bits.
    pub fn next_u32(&mut self) -> u32 {
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

    /// Uniform in `[low, high]` (both included) as libstdc++'s `uniform_int_distribution<int>`
    /// draws it (GCC 11 and later, Debian's GNU Radio 3.10 among its users): Lemire's nearly
    /// divisionless method on 32-bit draws, a draw rejected while the low half of its product
    /// with the range's size is below `2³² mod size`. `low > high` is the caller's error (C++
    /// leaves it undefined): the range is then empty and `low` comes back.
    pub fn uniform_int(&mut self, low: i32, high: i32) -> i32 {
        if high <= low {
            return low;
        }
        let span = (i64::from(high) - i64::from(low)) as u64;
        if span == u64::from(u32::MAX) {
            // The whole of i32: one draw, offset.
            return low.wrapping_add(self.next_u32() as i32);
        }
        let size = (span + 1) as u32;
        let mut product = u64::from(self.next_u32()) * u64::from(size);
        if (product as u32) < size {
            let threshold = size.wrapping_neg() % size;
            while (product as u32) < threshold {
                product = u64::from(self.next_u32()) * u64::from(size);
            }
        }
        (i64::from(low) + (product >> 32) as i64) as i32
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

    #[test]
    fn uniform_ints_stay_in_range_and_reach_both_ends() {
        let mut mt = Mt19937::new(5489);
        let draws: Vec<i32> = (0..2000).map(|_| mt.uniform_int(-3, 4)).collect();
        assert!(draws.iter().all(|d| (-3..=4).contains(d)));
        assert!(draws.contains(&-3) && draws.contains(&4));
        assert_eq!(mt.uniform_int(7, 7), 7);
        let mut a = Mt19937::new(1);
        let mut b = Mt19937::new(1);
        assert_eq!(
            a.uniform_int(i32::MIN, i32::MAX),
            b.next_u32() as i32 ^ i32::MIN
        );
    }
}
