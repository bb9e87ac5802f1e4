//! Element-wise operations on complex samples, as GNU Radio's blocks compute them: magnitude,
//! power, phase, parts, conjugate, and complex samples from parts or from magnitude and phase.

use num_complex::Complex32;

/// Writes `f(input[i])` to `output[i]` for every item of `input`.
///
/// # Panics
/// If `output` is shorter than `input`.
#[inline]
fn map<I: Copy, O>(input: &[I], output: &mut [O], f: impl Fn(I) -> O) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = f(x);
    }
}

/// `output[i] = |input[i]|` as `sqrt(re² + im²)` (GNU Radio's `complex_to_mag`, VOLK's
/// `volk_32fc_magnitude_32f`: not `hypot`, so it overflows to infinity above about 1.8e19 as
/// GNU Radio's does).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn magnitude(input: &[Complex32], output: &mut [f32]) {
    map(input, output, |z| (z.re * z.re + z.im * z.im).sqrt());
}

/// `output[i] = |input[i]|²` (GNU Radio's `complex_to_mag_squared`).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn magnitude_squared(input: &[Complex32], output: &mut [f32]) {
    map(input, output, |z| z.re * z.re + z.im * z.im);
}

/// `output[i] = arg(input[i])` in `[-π, π]` (GNU Radio's `complex_to_arg`; see [`phase`]).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn arg(input: &[Complex32], output: &mut [f32]) {
    map(input, output, phase);
}

/// The phase of `z` in `[-π, π]` with GNU Radio's conventions (its `fast_atan2f`): 0 at the
/// origin, and `+π` (not `-π`) on the negative real axis whatever the sign of a zero imaginary
/// part. GNU Radio interpolates a table (within about 2e-6 rad of this exact `atan2`).
#[inline]
pub fn phase(z: Complex32) -> f32 {
    if z.re == 0.0 && z.im == 0.0 {
        0.0
    } else {
        // `+ 0.0` turns -0.0 into +0.0 (and leaves every other value as it is).
        (z.im + 0.0).atan2(z.re)
    }
}

/// `magnitude[i] = |input[i]|` and `phase[i] = arg(input[i])` (GNU Radio's
/// `complex_to_magphase`; see [`magnitude`] and [`arg`]).
///
/// # Panics
/// If an output is shorter than `input`.
pub fn magnitude_phase(input: &[Complex32], magnitude: &mut [f32], phase: &mut [f32]) {
    self::magnitude(input, magnitude);
    arg(input, phase);
}

/// `output[i] = magnitude[i]·cos(phase[i]) + j·magnitude[i]·sin(phase[i])` (GNU Radio's
/// `magphase_to_complex`).
///
/// # Panics
/// If `phase` or `output` is shorter than `magnitude`.
pub fn from_polar(magnitude: &[f32], phase: &[f32], output: &mut [Complex32]) {
    let n = magnitude.len();
    for ((o, &m), &p) in output[..n].iter_mut().zip(magnitude).zip(&phase[..n]) {
        *o = Complex32::new(m * p.cos(), m * p.sin());
    }
}

/// `output[i] = input0[i] · conj(input1[i])` (GNU Radio's `multiply_conjugate_cc`).
///
/// # Panics
/// If `input1` or `output` is shorter than `input0`.
pub fn multiply_conjugate(input0: &[Complex32], input1: &[Complex32], output: &mut [Complex32]) {
    let n = input0.len();
    for ((o, &a), &b) in output[..n].iter_mut().zip(input0).zip(&input1[..n]) {
        *o = a * b.conj();
    }
}

/// `re[i] = Re input[i]` and `im[i] = Im input[i]` (GNU Radio's `complex_to_float` with both
/// outputs).
///
/// # Panics
/// If an output is shorter than `input`.
pub fn parts(input: &[Complex32], re: &mut [f32], im: &mut [f32]) {
    real(input, re);
    imag(input, im);
}

/// `output[i] = re[i] + j·0` (GNU Radio's `float_to_complex` with one input).
///
/// # Panics
/// If `output` is shorter than `re`.
pub fn real_to_complex(re: &[f32], output: &mut [Complex32]) {
    map(re, output, |r| Complex32::new(r, 0.0));
}

/// `output[i] = Re input[i]` (GNU Radio's `complex_to_real`).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn real(input: &[Complex32], output: &mut [f32]) {
    map(input, output, |z| z.re);
}

/// `output[i] = Im input[i]` (GNU Radio's `complex_to_imag`).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn imag(input: &[Complex32], output: &mut [f32]) {
    map(input, output, |z| z.im);
}

/// `output[i] = conj(input[i])` (GNU Radio's `conjugate_cc`).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn conjugate(input: &[Complex32], output: &mut [Complex32]) {
    map(input, output, |z| z.conj());
}

/// `output[i] = re[i] + j·im[i]` (GNU Radio's `float_to_complex`).
///
/// # Panics
/// If `im` or `output` is shorter than `re`.
pub fn to_complex(re: &[f32], im: &[f32], output: &mut [Complex32]) {
    for ((o, &r), &i) in output[..re.len()].iter_mut().zip(re).zip(&im[..re.len()]) {
        *o = Complex32::new(r, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn conversions_match_num_complex() {
        let x = random_complex(1, 1000);
        let mut f = vec![0.0f32; 1001];
        let mut c = vec![Complex32::default(); 1001];
        // Each is one libm call or exact arithmetic on the same f32 values: within 2 ulps.
        let ulps = |a: f32, b: f32| (a - b).abs() <= 2.0 * f32::EPSILON * b.abs().max(1e-30);
        magnitude(&x, &mut f);
        assert!(x.iter().zip(&f).all(|(z, &m)| ulps(m, z.norm())));
        magnitude_squared(&x, &mut f);
        assert!(x.iter().zip(&f).all(|(z, &m)| ulps(m, z.norm_sqr())));
        arg(&x, &mut f);
        assert!(x.iter().zip(&f).all(|(z, &m)| ulps(m, z.arg())));
        real(&x, &mut f);
        assert!(x.iter().zip(&f).all(|(z, &m)| m == z.re));
        let re = f.clone();
        imag(&x, &mut f);
        assert!(x.iter().zip(&f).all(|(z, &m)| m == z.im));
        assert_eq!(f[1000], 0.0, "wrote past the input");
        to_complex(&re[..1000], &f, &mut c);
        assert_eq!(c[..1000], x[..]);
        conjugate(&x, &mut c);
        assert!(x.iter().zip(&c).all(|(z, w)| *w == z.conj()));
    }
}
