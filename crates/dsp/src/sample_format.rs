//! Conversions between `Complex32` and the interleaved I/Q formats SDR recordings come in.
//!
//! | format | one sample | to `Complex32` |
//! |---|---|---|
//! | `cu8` (rtl_sdr) | two `u8` | `(v - 127.5) / 127.5` |
//! | `cs8` (HackRF) | two `i8` | `v / 128` |
//! | `cs16` (many SDRs, SigMF `ci16_le`) | two little-endian `i16` | `v / 32768`, as GNU Radio's `interleaved_short_to_complex` with scale 32768 |
//! | `cf32` (GNU Radio's file sink, SigMF `cf32_le`) | two little-endian `f32` | as is |
//!
//! The conversions back round to nearest and saturate at the format's range; byte slices
//! need not be aligned.

use num_complex::Complex32;

/// `cu8` bytes (I, Q, I, Q, ...) to samples: `(v - 127.5) / 127.5`, so 0 and 255 map to ∓1.
///
/// # Panics
/// If `bytes` is not a whole number of samples, or `output` holds fewer than
/// `bytes.len() / 2`.
pub fn cu8_to_complex(bytes: &[u8], output: &mut [Complex32]) {
    convert_in::<2>(bytes, output, |b| (f32::from(b[0]) - 127.5) / 127.5);
}

/// `cs8` bytes to samples: `v / 128`.
///
/// # Panics
/// As for [`cu8_to_complex`].
pub fn cs8_to_complex(bytes: &[u8], output: &mut [Complex32]) {
    convert_in::<2>(bytes, output, |b| f32::from(b[0] as i8) / 128.0);
}

/// `cs16` little-endian bytes to samples: `v / 32768`.
///
/// # Panics
/// As for [`cu8_to_complex`], with 4 bytes per sample.
pub fn cs16_to_complex(bytes: &[u8], output: &mut [Complex32]) {
    convert_in::<4>(bytes, output, |b| {
        f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0
    });
}

/// `cf32` little-endian bytes to samples.
///
/// # Panics
/// As for [`cu8_to_complex`], with 8 bytes per sample.
pub fn cf32_to_complex(bytes: &[u8], output: &mut [Complex32]) {
    convert_in::<8>(bytes, output, |b| {
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    });
}

/// Samples to `cu8` bytes: `round(v·127.5 + 127.5)`, saturating to 0..=255.
///
/// # Panics
/// If `bytes` holds fewer than `2 · input.len()`.
pub fn complex_to_cu8(input: &[Complex32], bytes: &mut [u8]) {
    convert_out::<2>(input, bytes, |v, b| {
        b[0] = (v * 127.5 + 127.5).round().clamp(0.0, 255.0) as u8;
    });
}

/// Samples to `cs8` bytes: `round(v·128)`, saturating to -128..=127.
///
/// # Panics
/// If `bytes` holds fewer than `2 · input.len()`.
pub fn complex_to_cs8(input: &[Complex32], bytes: &mut [u8]) {
    convert_out::<2>(input, bytes, |v, b| {
        b[0] = (v * 128.0).round().clamp(-128.0, 127.0) as i8 as u8;
    });
}

/// Samples to `cs16` little-endian bytes: `round(v·32768)`, saturating.
///
/// # Panics
/// If `bytes` holds fewer than `4 · input.len()`.
pub fn complex_to_cs16(input: &[Complex32], bytes: &mut [u8]) {
    convert_out::<4>(input, bytes, |v, b| {
        let s = (v * 32768.0).round().clamp(-32768.0, 32767.0) as i16;
        b.copy_from_slice(&s.to_le_bytes());
    });
}

/// Samples to `cf32` little-endian bytes.
///
/// # Panics
/// If `bytes` holds fewer than `8 · input.len()`.
pub fn complex_to_cf32(input: &[Complex32], bytes: &mut [u8]) {
    convert_out::<8>(input, bytes, |v, b| b.copy_from_slice(&v.to_le_bytes()));
}

/// Each `SAMPLE`-byte sample of `bytes` to one output, its halves through `component`.
#[inline]
fn convert_in<const SAMPLE: usize>(
    bytes: &[u8],
    output: &mut [Complex32],
    component: impl Fn(&[u8]) -> f32,
) {
    assert!(
        bytes.len().is_multiple_of(SAMPLE),
        "{} bytes are not whole {SAMPLE}-byte samples",
        bytes.len()
    );
    let n = bytes.len() / SAMPLE;
    assert!(
        output.len() >= n,
        "output holds {} samples, {n} needed",
        output.len()
    );
    for (o, b) in output[..n].iter_mut().zip(bytes.chunks_exact(SAMPLE)) {
        let (i, q) = b.split_at(SAMPLE / 2);
        *o = Complex32::new(component(i), component(q));
    }
}

/// Each input sample to `SAMPLE` bytes, each half through `component(value, half)`.
#[inline]
fn convert_out<const SAMPLE: usize>(
    input: &[Complex32],
    bytes: &mut [u8],
    component: impl Fn(f32, &mut [u8]),
) {
    let n = input.len() * SAMPLE;
    assert!(
        bytes.len() >= n,
        "output holds {} bytes, {n} needed",
        bytes.len()
    );
    for (z, b) in input.iter().zip(bytes[..n].chunks_exact_mut(SAMPLE)) {
        let (i, q) = b.split_at_mut(SAMPLE / 2);
        component(z.re, i);
        component(z.im, q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_8_bit_value_round_trips() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        let mut z = vec![Complex32::default(); 128];
        let mut back = vec![0u8; 256];
        cu8_to_complex(&bytes, &mut z);
        assert_eq!(z[0], Complex32::new(-1.0, -1.0 + 2.0 / 255.0));
        assert_eq!(z[127].im, 1.0);
        complex_to_cu8(&z, &mut back);
        assert_eq!(back, bytes);
        cs8_to_complex(&bytes, &mut z);
        assert_eq!(z[64].re, -1.0); // byte 128 is -128
        assert_eq!(z[0].im, 1.0 / 128.0);
        complex_to_cs8(&z, &mut back);
        assert_eq!(back, bytes);
    }

    #[test]
    fn cs16_and_cf32_round_trip_and_saturate() {
        let shorts: Vec<i16> = vec![i16::MIN, -1, 0, 1, 12345, i16::MAX];
        let bytes: Vec<u8> = shorts.iter().flat_map(|s| s.to_le_bytes()).collect();
        let mut z = vec![Complex32::default(); 3];
        cs16_to_complex(&bytes, &mut z);
        assert_eq!(z[0], Complex32::new(-1.0, -1.0 / 32768.0));
        assert_eq!(z[2].im, 32767.0 / 32768.0);
        let mut back = vec![0u8; 12];
        complex_to_cs16(&z, &mut back);
        assert_eq!(back, bytes);
        complex_to_cs16(&[Complex32::new(2.0, -2.0)], &mut back);
        assert_eq!(back[..4], [0xff, 0x7f, 0x00, 0x80]);

        let mut f = vec![0u8; 24];
        complex_to_cf32(&z, &mut f);
        let mut again = vec![Complex32::default(); 3];
        // Unaligned on purpose.
        let mut shifted = [0u8; 25];
        shifted[1..].copy_from_slice(&f);
        cf32_to_complex(&shifted[1..], &mut again);
        assert_eq!(again, z);
        assert_eq!(f[..4], (-1.0f32).to_le_bytes());
    }

    #[test]
    #[should_panic(expected = "whole")]
    fn a_partial_sample_panics() {
        cs16_to_complex(&[0; 6], &mut [Complex32::default(); 2]);
    }
}
