//! Conversions between item types with GNU Radio's scaling, rounding and saturation
//! (`float_to_short`, `short_to_float`, `complex_to_interleaved_short`, ...); see
//! [`FromScaled`].

use num_complex::Complex32;

/// An integer item type that `f32` values are rounded and saturated into, as GNU Radio
/// converts them.
///
/// To an integer: `x · scale` rounded to the nearest integer, ties to even (`rintf` in the
/// default rounding mode), saturated at the type's limits. From an integer: `x · (1 / scale)`,
/// the reciprocal rounded to `f32` once, as VOLK's kernels compute it.
///
/// Where GNU Radio's result is not defined by its code (C's `rintf`/`llrintf`/`lrint` of NaN
/// or of a value outside the integer type), the conversions give Rust's saturating answer:
/// NaN is 0, `+inf` and every value above the type's range its maximum, `-inf` and every value
/// below its minimum. GNU Radio's results there come from the machine's conversion
/// instructions and differ by block, and even by the item's place in the buffer (VOLK's vector
/// or scalar kernel): on x86-64, NaN gives 32767 or 0 in `float_to_short` and `i32::MIN` in
/// `float_to_int`; `+inf`, and every value beyond ±2^63, gives `i32::MIN` in `float_to_int`
/// and 0 in `float_to_uchar`.
pub trait FromScaled: Copy {
    /// `x` rounded to the nearest integer (ties to even) and saturated; NaN is 0.
    fn from_rounded(x: f32) -> Self;
    /// `self` as the nearest `f32`.
    fn to_f32(self) -> f32;
}

macro_rules! from_scaled {
    ($($t:ty),*) => {$(
        impl FromScaled for $t {
            #[inline]
            fn from_rounded(x: f32) -> Self {
                // `as` saturates and maps NaN to 0.
                x.round_ties_even() as $t
            }
            #[inline]
            fn to_f32(self) -> f32 {
                self as f32
            }
        }
    )*};
}

from_scaled!(i8, i16, i32, u8);

/// The factor VOLK's `..._s32f_convert_32f` kernels multiply by: `1.0 / scale` computed in
/// double precision, then rounded to `f32`.
#[inline]
fn reciprocal(scale: f32) -> f32 {
    (1.0 / f64::from(scale)) as f32
}

/// `output[i] = round(input[i] · scale)`, saturated (GNU Radio's `float_to_char`,
/// `float_to_short`, `float_to_int`; `float_to_uchar` with `scale` 1).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn float_to_int<T: FromScaled>(input: &[f32], scale: f32, output: &mut [T]) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = T::from_rounded(x * scale);
    }
}

/// `output[i] = input[i] · (1 / scale)` (GNU Radio's `char_to_float`, `short_to_float`,
/// `int_to_float`; `uchar_to_float` with `scale` 1). An `i32` beyond 2^24 is first rounded
/// to the nearest `f32`.
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn int_to_float<T: FromScaled>(input: &[T], scale: f32, output: &mut [f32]) {
    let factor = reciprocal(scale);
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = x.to_f32() * factor;
    }
}

/// `output[i] = input[i] · 256` (GNU Radio's `char_to_short`: the byte becomes the high byte).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn char_to_short(input: &[i8], output: &mut [i16]) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = i16::from(x) << 8;
    }
}

/// `output[i] = input[i] >> 8` (GNU Radio's `short_to_char`: the high byte, rounding toward
/// minus infinity).
///
/// # Panics
/// If `output` is shorter than `input`.
pub fn short_to_char(input: &[i16], output: &mut [i8]) {
    for (o, &x) in output[..input.len()].iter_mut().zip(input) {
        *o = (x >> 8) as i8;
    }
}

/// `output[2i] = round(Re input[i] · scale)`, `output[2i + 1] = round(Im input[i] · scale)`,
/// saturated as [`float_to_int`] (GNU Radio's `complex_to_interleaved_short` and
/// `complex_to_interleaved_char`).
///
/// # Panics
/// If `output` is shorter than twice `input`.
pub fn complex_to_interleaved<T: FromScaled>(input: &[Complex32], scale: f32, output: &mut [T]) {
    let parts: &[f32] = bytemuck::cast_slice(input);
    float_to_int(parts, scale, output);
}

/// `output[i] = (input[2i] + j·input[2i + 1]) · (1 / scale)`, the two parts exchanged if
/// `swap` (GNU Radio's `interleaved_short_to_complex` and `interleaved_char_to_complex`).
///
/// # Panics
/// If `input` has an odd length or `output` is shorter than half of it.
pub fn interleaved_to_complex<T: FromScaled>(
    input: &[T],
    scale: f32,
    swap: bool,
    output: &mut [Complex32],
) {
    assert!(
        input.len().is_multiple_of(2),
        "interleaved parts come in pairs"
    );
    let factor = reciprocal(scale);
    let (a, b) = if swap { (1, 0) } else { (0, 1) };
    for (o, pair) in output[..input.len() / 2]
        .iter_mut()
        .zip(input.chunks_exact(2))
    {
        *o = Complex32::new(pair[a].to_f32() * factor, pair[b].to_f32() * factor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_to_even_and_saturates_with_nan_at_zero() {
        let x = [
            0.5f32,
            1.5,
            2.5,
            -0.5,
            -1.5,
            127.5,
            -128.5,
            1e9,
            -1e9,
            f32::NAN,
        ];
        let mut o = [0i8; 10];
        float_to_int(&x, 1.0, &mut o);
        assert_eq!(o, [0, 2, 2, 0, -2, 127, -128, 127, -128, 0]);
        let mut o = [0i32; 4];
        float_to_int(
            &[2147483648.0, f32::INFINITY, -3e9, f32::NEG_INFINITY],
            1.0,
            &mut o,
        );
        assert_eq!(o, [i32::MAX, i32::MAX, i32::MIN, i32::MIN]);
        let mut o = [0u8; 4];
        float_to_int(&[-0.6, 255.5, 127.5, f32::INFINITY], 1.0, &mut o);
        assert_eq!(o, [0, 255, 128, 255]);
    }

    #[test]
    fn integers_scale_by_the_reciprocal_and_bytes_shift() {
        let mut f = [0.0f32; 3];
        int_to_float(&[i16::MIN, 3, -1], 32768.0, &mut f);
        assert_eq!(f, [-1.0, 3.0 / 32768.0, -1.0 / 32768.0]);
        let mut s = [0i16; 3];
        char_to_short(&[1, -1, -128], &mut s);
        assert_eq!(s, [256, -256, i16::MIN]);
        let mut c = [0i8; 4];
        short_to_char(&[256, 255, -1, i16::MIN], &mut c);
        assert_eq!(c, [1, 0, -1, -128]);
    }

    #[test]
    fn interleaving_goes_both_ways_and_swaps() {
        let z = [Complex32::new(0.5, -1.0), Complex32::new(2.0, 300.0)];
        let mut s = [0i16; 4];
        complex_to_interleaved(&z, 100.0, &mut s);
        assert_eq!(s, [50, -100, 200, 30000]);
        let mut back = [Complex32::default(); 2];
        interleaved_to_complex(&s, 100.0, false, &mut back);
        assert_eq!(back[1], Complex32::new(2.0, 300.0));
        interleaved_to_complex(&s, 100.0, true, &mut back);
        assert_eq!(back[1], Complex32::new(300.0, 2.0));
    }
}
