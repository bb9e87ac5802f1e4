//! Element-wise arithmetic: with a constant, between two streams, and of one stream
//! (absolute value, `n·log10(x) + k`).

use num_complex::{Complex32, Complex64};

/// A sample type with the addition, subtraction and multiplication the kernels need.
///
/// Floats and complex floats use ordinary IEEE arithmetic (a complex quotient is
/// `a·conj(b) / |b|²`, as VOLK's `volk_32fc_x2_divide_32fc` computes it). Integers wrap on
/// overflow, like the C++ integer arithmetic of GNU Radio's `add_const_ss` and
/// `multiply_const_ss`; an integer divided by zero is 0 and `MIN / -1` wraps to `MIN`, what
/// GNU Radio's `divide_ss`/`divide_ii` compute on AArch64 (on x86 the C++ division traps and
/// the process dies).
pub trait Arith: Copy {
    /// `self + rhs`.
    fn add(self, rhs: Self) -> Self;
    /// `self - rhs`.
    fn sub(self, rhs: Self) -> Self;
    /// `self · rhs`.
    fn mul(self, rhs: Self) -> Self;
    /// `self / rhs`.
    fn div(self, rhs: Self) -> Self;
}

macro_rules! float_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline]
            fn add(self, rhs: Self) -> Self {
                self + rhs
            }
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                self - rhs
            }
            #[inline]
            fn mul(self, rhs: Self) -> Self {
                self * rhs
            }
            #[inline]
            fn div(self, rhs: Self) -> Self {
                self / rhs
            }
        }
    )*};
}

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline]
            fn add(self, rhs: Self) -> Self {
                self.wrapping_add(rhs)
            }
            #[inline]
            fn sub(self, rhs: Self) -> Self {
                self.wrapping_sub(rhs)
            }
            #[inline]
            fn mul(self, rhs: Self) -> Self {
                self.wrapping_mul(rhs)
            }
            #[inline]
            fn div(self, rhs: Self) -> Self {
                // Rust's `/` panics on both (GNU Radio's C++ traps on x86): AArch64's results.
                if rhs == 0 {
                    0
                } else {
                    self.wrapping_div(rhs)
                }
            }
        }
    )*};
}

float_arith!(f32, f64, Complex32, Complex64);
int_arith!(i8, i16, i32, i64, u8, u16, u32, u64);

/// `output[i] = input[i] + k` for every item of `input`.
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn add_const<T: Arith>(input: &[T], k: T, output: &mut [T]) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = x.add(k);
    }
}

/// `output[i] = input[i] · k` for every item of `input`.
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn multiply_const<T: Arith>(input: &[T], k: T, output: &mut [T]) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = x.mul(k);
    }
}

/// `output[i] = input[i] + k[i mod k.len()]` for every item of `input`: a constant per
/// position of vectors of `k.len()` items (GNU Radio's `add_const_vff` and friends).
///
/// # Panics
/// If `output` is shorter than `input`, or `k` is empty while `input` is not.
pub fn add_const_per_position<T: Arith>(input: &[T], k: &[T], output: &mut [T]) {
    let output = &mut output[..input.len()];
    for (o, i) in output.chunks_mut(k.len()).zip(input.chunks(k.len())) {
        for ((o, &x), &k) in o.iter_mut().zip(i).zip(k) {
            *o = x.add(k);
        }
    }
}

/// `output[i] = input[i] · k[i mod k.len()]` for every item of `input`: a constant per
/// position of vectors of `k.len()` items (GNU Radio's `multiply_const_vff` and friends).
///
/// # Panics
/// If `output` is shorter than `input`, or `k` is empty while `input` is not.
pub fn multiply_const_per_position<T: Arith>(input: &[T], k: &[T], output: &mut [T]) {
    let output = &mut output[..input.len()];
    for (o, i) in output.chunks_mut(k.len()).zip(input.chunks(k.len())) {
        for ((o, &x), &k) in o.iter_mut().zip(i).zip(k) {
            *o = x.mul(k);
        }
    }
}

/// `acc[i] = acc[i] · input[i]` for every item of `acc` (a stream multiplied into another).
///
/// # Panics
/// If `input` is shorter than `acc`.
pub fn multiply_into<T: Arith>(acc: &mut [T], input: &[T]) {
    let input = &input[..acc.len()];
    for (a, &x) in acc.iter_mut().zip(input) {
        *a = a.mul(x);
    }
}

/// `acc[i] = acc[i] + input[i]` for every item of `acc` (a stream added into another).
///
/// # Panics
/// If `input` is shorter than `acc`.
pub fn add_into<T: Arith>(acc: &mut [T], input: &[T]) {
    let input = &input[..acc.len()];
    for (a, &x) in acc.iter_mut().zip(input) {
        *a = a.add(x);
    }
}

/// `acc[i] = acc[i] - input[i]` for every item of `acc` (a stream subtracted from another).
///
/// # Panics
/// If `input` is shorter than `acc`.
pub fn subtract_into<T: Arith>(acc: &mut [T], input: &[T]) {
    let input = &input[..acc.len()];
    for (a, &x) in acc.iter_mut().zip(input) {
        *a = a.sub(x);
    }
}

/// `acc[i] = acc[i] / input[i]` for every item of `acc` (a stream divided by another; see
/// [`Arith`] for integers divided by zero).
///
/// # Panics
/// If `input` is shorter than `acc`.
pub fn divide_into<T: Arith>(acc: &mut [T], input: &[T]) {
    let input = &input[..acc.len()];
    for (a, &x) in acc.iter_mut().zip(input) {
        *a = a.div(x);
    }
}

/// A sample type with GNU Radio's `abs_xx`: `x < 0 ? -x : x`. Integers wrap (`|MIN|` is
/// `MIN`); a float keeps the sign of `-0.0` and of NaN, as that comparison does.
pub trait Abs: Copy {
    /// `x < 0 ? -x : x`.
    fn abs_gr(self) -> Self;
}

macro_rules! int_abs {
    ($($t:ty),*) => {$(
        impl Abs for $t {
            #[inline]
            fn abs_gr(self) -> Self {
                self.wrapping_abs()
            }
        }
    )*};
}

macro_rules! float_abs {
    ($($t:ty),*) => {$(
        impl Abs for $t {
            #[inline]
            fn abs_gr(self) -> Self {
                if self < 0.0 {
                    -self
                } else {
                    self
                }
            }
        }
    )*};
}

int_abs!(i8, i16, i32, i64);
float_abs!(f32, f64);

/// `output[i] = input[i] < 0 ? -input[i] : input[i]` (see [`Abs`]).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn abs<T: Abs>(input: &[T], output: &mut [T]) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = x.abs_gr();
    }
}

/// `output[i] = n·log10(input[i]) + k`, with inputs below the smallest normal `f32` (zero,
/// negative, `-inf`) taken as that smallest normal, as GNU Radio's `nlog10_ff` does; NaN stays
/// NaN. (GNU Radio computes `n/log2(10) · log2(x·10^(k/n))` with VOLK's approximate `log2`,
/// equal within a few `1e-6` relative; that form is NaN for every input when `n` is 0, this
/// one is `k`.)
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn nlog10(input: &[f32], n: f32, k: f32, output: &mut [f32]) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        // Not `f32::max`, which would turn NaN into the bound.
        let x = if x < f32::MIN_POSITIVE {
            f32::MIN_POSITIVE
        } else {
            x
        };
        *o = n * x.log10() + k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::distributions::{Distribution, Standard};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Checks both kernels against the plain per-item expressions on fixed-seed random data.
    /// The kernels do exactly those operations, so the tolerance is zero (bitwise equal).
    fn check<T>(
        seed: u64,
        (add, sub, mul): (impl Fn(T, T) -> T, impl Fn(T, T) -> T, impl Fn(T, T) -> T),
        random: impl Fn(&mut StdRng) -> T,
    ) where
        T: Arith + PartialEq + std::fmt::Debug + Default,
    {
        let mut rng = StdRng::seed_from_u64(seed);
        for len in [0, 1, 7, 64, 1000] {
            let input: Vec<T> = (0..len).map(|_| random(&mut rng)).collect();
            let k = random(&mut rng);
            let mut out = vec![T::default(); len + 3];
            add_const(&input, k, &mut out);
            let want: Vec<T> = input.iter().map(|&x| add(x, k)).collect();
            assert_eq!(out[..len], want[..]);
            multiply_const(&input, k, &mut out);
            let want: Vec<T> = input.iter().map(|&x| mul(x, k)).collect();
            assert_eq!(out[..len], want[..]);
            // Per position: vectors of 1 (every length) and 7 (the lengths 0, 7, ... only).
            for vlen in [1, 7] {
                if len % vlen != 0 {
                    continue;
                }
                let ks: Vec<T> = (0..vlen).map(|_| random(&mut rng)).collect();
                add_const_per_position(&input, &ks, &mut out);
                let want: Vec<T> = (0..len).map(|j| add(input[j], ks[j % vlen])).collect();
                assert_eq!(out[..len], want[..]);
                multiply_const_per_position(&input, &ks, &mut out);
                let want: Vec<T> = (0..len).map(|j| mul(input[j], ks[j % vlen])).collect();
                assert_eq!(out[..len], want[..]);
            }
            assert!(
                out[len..].iter().all(|x| *x == T::default()),
                "wrote past the input length"
            );
            let other: Vec<T> = (0..len + 2).map(|_| random(&mut rng)).collect();
            let mut acc = input.clone();
            multiply_into(&mut acc, &other);
            let want: Vec<T> = input.iter().zip(&other).map(|(&x, &y)| mul(x, y)).collect();
            assert_eq!(acc, want);
            let mut acc = input.clone();
            add_into(&mut acc, &other);
            let want: Vec<T> = input.iter().zip(&other).map(|(&x, &y)| add(x, y)).collect();
            assert_eq!(acc, want);
            let mut acc = input.clone();
            subtract_into(&mut acc, &other);
            let want: Vec<T> = input.iter().zip(&other).map(|(&x, &y)| sub(x, y)).collect();
            assert_eq!(acc, want);
        }
    }

    fn any<T>(rng: &mut StdRng) -> T
    where
        Standard: Distribution<T>,
    {
        rng.r#gen()
    }

    #[test]
    fn floats_match_naive() {
        let ops = (|a: f32, b| a + b, |a: f32, b| a - b, |a: f32, b| a * b);
        check(1, ops, |r| r.gen_range(-1e3..1e3));
        let ops = (|a: f64, b| a + b, |a: f64, b| a - b, |a: f64, b| a * b);
        check(2, ops, |r| r.gen_range(-1e3..1e3));
        let c = |r: &mut StdRng| Complex32::new(r.gen_range(-10.0..10.0), r.gen_range(-10.0..10.0));
        let ops = (
            |a: Complex32, b| a + b,
            |a: Complex32, b| a - b,
            |a: Complex32, b| a * b,
        );
        check(3, ops, c);
    }

    #[test]
    fn integers_wrap() {
        let ops = (i16::wrapping_add, i16::wrapping_sub, i16::wrapping_mul);
        check(4, ops, any::<i16>);
        let ops = (i32::wrapping_add, i32::wrapping_sub, i32::wrapping_mul);
        check(5, ops, any::<i32>);
        let ops = (u8::wrapping_add, u8::wrapping_sub, u8::wrapping_mul);
        check(6, ops, any::<u8>);
        let mut out = [0i16; 1];
        add_const(&[i16::MAX], 1, &mut out);
        assert_eq!(out, [i16::MIN]);
    }

    #[test]
    #[should_panic]
    fn short_output_panics() {
        add_const(&[1.0f32, 2.0], 1.0, &mut [0.0; 1]);
    }
}
