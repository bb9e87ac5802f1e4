//! Channel LLRs from f32 to the decoder's i8.

/// Mean |LLR| after quantization. Normalized min-sum on max-log LLRs is invariant to a common
/// scale, so the scale only decides resolution against saturation: with the mean at 16 or
/// 24 the posteriors saturate at ±127 and the low-rate codes stop converging 1.5 dB above
/// their threshold (`ldpc_tests`), at 8 every code converges there.
const TARGET_MEAN: f32 = 8.0;
/// Channel LLRs are clipped below the posterior range.
const CHANNEL_MAX: f32 = 63.0;

/// Quantizes `src` into `dst[..src.len()]`, scaled so that the mean |LLR| becomes
/// 8 (see the constant `TARGET_MEAN`); returns the scale used. A frame of zeros (or NaNs) gives zeros.
///
/// # Panics
/// If `dst` is shorter than `src`.
pub fn quantize_llrs(src: &[f32], dst: &mut [i8]) -> f32 {
    let dst = &mut dst[..src.len()];
    let mean = src.iter().map(|v| v.abs()).sum::<f32>() / src.len().max(1) as f32;
    let scale = if mean.is_finite() && mean > 0.0 {
        TARGET_MEAN / mean
    } else {
        0.0
    };
    for (d, &s) in dst.iter_mut().zip(src) {
        // Round half away from zero by truncation (vectorizes; `round` is a libm call
        // without SSE4.1). `as` maps NaN to 0.
        let v = (s * scale).clamp(-CHANNEL_MAX, CHANNEL_MAX);
        *d = (v + 0.5f32.copysign(v)) as i8;
    }
    scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_to_the_target_mean_and_clips() {
        let src = [1.0f32, -1.0, 3.0, -3.0];
        let mut dst = [0i8; 100];
        assert_eq!(quantize_llrs(&src, &mut dst), 4.0);
        assert_eq!(dst[..4], [4, -4, 12, -12]);
        // 99 values of 1 and one of 1000: mean 10.99, the large one clipped.
        let mut src = [1.0f32; 100];
        src[7] = -1000.0;
        quantize_llrs(&src, &mut dst);
        assert_eq!((dst[0], dst[7]), (1, -63));
        src[3] = f32::NAN;
        assert_eq!(quantize_llrs(&src, &mut dst), 0.0);
        assert!(dst.iter().all(|&d| d == 0));
    }
}
