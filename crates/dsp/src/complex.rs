//! Element-wise conversions of complex samples: magnitude, power, phase, parts, conjugate.

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

/// `output[i] = |input[i]|` (GNU Radio's `complex_to_mag`).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn magnitude(input: &[Complex32], output: &mut [f32]) {
    map(input, output, |z| z.re.hypot(z.im));
}

/// `output[i] = |input[i]|²` (GNU Radio's `complex_to_mag_squared`).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn magnitude_squared(input: &[Complex32], output: &mut [f32]) {
    map(input, output, |z| z.re * z.re + z.im * z.im);
}

/// `output[i] = arg(input[i])` in `[-π, π]` (GNU Radio's `complex_to_arg`).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn arg(input: &[Complex32], output: &mut [f32]) {
    map(input, output, |z| z.im.atan2(z.re));
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
