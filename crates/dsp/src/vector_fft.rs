//! [`VectorFft`]: the FFT of whole vectors, windowed and shifted as GNU Radio's `fft_vcc` /
//! `fft_vfc` do it.

use crate::error::{check, ParamError};
use num_complex::Complex32;
use radioflow_fftplan::Fft;
use std::sync::Arc;

/// A sample [`VectorFft`] takes: complex, or real (GNU Radio's `fft_vfc`, whose reverse
/// transform with `shift` rotates its input its own way: see [`VectorFft::process`]).
pub trait FftSample: Copy {
    /// Whether the samples are real.
    const REAL: bool;
    /// The sample times a window coefficient.
    fn scaled(self, w: f32) -> Complex32;
}

impl FftSample for Complex32 {
    const REAL: bool = false;
    #[inline]
    fn scaled(self, w: f32) -> Complex32 {
        self * w
    }
}

impl FftSample for f32 {
    const REAL: bool = true;
    #[inline]
    fn scaled(self, w: f32) -> Complex32 {
        Complex32::new(self * w, 0.0)
    }
}

/// The forward or reverse FFT of `size` samples at a time, not normalized (a forward then a
/// reverse transform multiply by `size`), as GNU Radio's `fft_vcc` and `fft_vfc`:
/// - the input is multiplied by the window first (none: by 1);
/// - reverse with `shift`, the input is rotated so that its middle sample comes first
///   (`ifftshift`: the input has DC in the middle);
/// - forward with `shift`, the output is rotated so that DC comes to the middle (`fftshift`).
///
/// The plan and buffers are made in `new`; [`process`](Self::process) does not allocate.
///
/// ```
/// use radioflow_dsp::{Complex32, VectorFft};
/// let mut fft = VectorFft::new(4, true, &[], false)?;
/// let mut y = [Complex32::default(); 4];
/// fft.process(&[1.0f32, 0.0, 0.0, 0.0], &mut y);
/// assert_eq!(y, [Complex32::new(1.0, 0.0); 4]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone)]
pub struct VectorFft {
    fft: Arc<dyn Fft<f32>>,
    /// `size` coefficients (all 1 where no window was given).
    window: Vec<f32>,
    forward: bool,
    shift: bool,
    buf: Vec<Complex32>,
    scratch: Vec<Complex32>,
}

impl std::fmt::Debug for VectorFft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VectorFft")
            .field("size", &self.buf.len())
            .field("forward", &self.forward)
            .field("shift", &self.shift)
            .finish_non_exhaustive()
    }
}

impl VectorFft {
    /// The FFT of `size` samples, forward or reverse, with this window (empty: none) and
    /// DC in the middle if `shift`.
    ///
    /// # Errors
    /// If `size` is 0 (names `size`) or the window is neither empty nor `size` long (names
    /// `window`).
    pub fn new(
        size: usize,
        forward: bool,
        window: &[f32],
        shift: bool,
    ) -> Result<Self, ParamError> {
        check(size > 0, "size", || "must be at least 1".into())?;
        check(window.is_empty() || window.len() == size, "window", || {
            format!(
                "{} coefficients for an FFT of {size}: give {size} or none",
                window.len()
            )
        })?;
        let fft = if forward {
            radioflow_fftplan::forward(size)
        } else {
            radioflow_fftplan::inverse(size)
        };
        let scratch = vec![Complex32::default(); fft.get_inplace_scratch_len()];
        Ok(Self {
            fft,
            window: if window.is_empty() {
                vec![1.0; size]
            } else {
                window.to_vec()
            },
            forward,
            shift,
            buf: vec![Complex32::default(); size],
            scratch,
        })
    }

    /// Samples per transform.
    pub fn size(&self) -> usize {
        self.buf.len()
    }

    /// Transforms every whole vector of `size` samples of `input` into the same place of
    /// `output`.
    ///
    /// Reverse with `shift` on real samples of an odd `size`, GNU Radio 3.10's `fft_vfc`
    /// rotates by `size / 2` into a buffer one longer than that half: input `size / 2`
    /// lands both first and last and the last input is dropped. It is done the same way
    /// here, so that outputs equal GNU Radio's.
    ///
    /// # Panics
    /// If `input` is not a whole number of vectors or `output` is shorter.
    pub fn process<T: FftSample>(&mut self, input: &[T], output: &mut [Complex32]) {
        let size = self.buf.len();
        assert!(
            input.len().is_multiple_of(size),
            "the input is whole vectors of {size}"
        );
        for (x, y) in input.chunks_exact(size).zip(output.chunks_exact_mut(size)) {
            self.one(x, y);
        }
    }

    fn one<T: FftSample>(&mut self, x: &[T], y: &mut [Complex32]) {
        let size = self.buf.len();
        let w = &self.window;
        if !self.forward && self.shift {
            let half = size / 2;
            // Complex: buf[j] = x[(j + half) mod size]. Real (GNU Radio's rotation): the
            // first size - half inputs go from buf[half] on, inputs half..2·half to the front.
            let (front, back) = if T::REAL {
                (half..2 * half, 0..size - half)
            } else {
                (half..size, 0..half)
            };
            let at = size - back.len();
            for (b, k) in self.buf[..front.len()].iter_mut().zip(front) {
                *b = x[k].scaled(w[k]);
            }
            for (b, k) in self.buf[at..].iter_mut().zip(back) {
                *b = x[k].scaled(w[k]);
            }
        } else {
            for ((b, &v), &c) in self.buf.iter_mut().zip(x).zip(w) {
                *b = v.scaled(c);
            }
        }
        self.fft
            .process_with_scratch(&mut self.buf, &mut self.scratch);
        // Shifted, output j is bin (j + ceil(size/2)) mod size: negative frequencies first.
        let lead = if self.forward && self.shift {
            size.div_ceil(2)
        } else {
            0
        };
        let (low, high) = y.split_at_mut(size - lead);
        low.copy_from_slice(&self.buf[lead..]);
        high.copy_from_slice(&self.buf[..lead]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex64;
    use std::f64::consts::PI;

    /// The DFT of `x`, in f64.
    fn dft(x: &[Complex64], forward: bool) -> Vec<Complex64> {
        let n = x.len();
        let sign = if forward { -1.0 } else { 1.0 };
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .map(|(t, v)| {
                        v * Complex64::from_polar(
                            1.0,
                            sign * 2.0 * PI * (k * t % n) as f64 / n as f64,
                        )
                    })
                    .sum()
            })
            .collect()
    }

    #[test]
    fn complex_vectors_match_the_naive_dft_shifted_and_windowed() {
        for size in [1, 2, 5, 8, 12, 63] {
            let x = random_complex(size as u64, 3 * size);
            let window = random_real(100 + size as u64, size);
            for forward in [true, false] {
                for shift in [false, true] {
                    for win in [&[][..], &window[..]] {
                        let mut fft = VectorFft::new(size, forward, win, shift).unwrap();
                        let mut y = vec![Complex32::default(); x.len()];
                        fft.process(&x, &mut y);
                        for (v, got) in x.chunks(size).zip(y.chunks(size)) {
                            let mut v: Vec<Complex64> = to64(v)
                                .iter()
                                .enumerate()
                                .map(|(k, z)| z * f64::from(*win.get(k).unwrap_or(&1.0)))
                                .collect();
                            if !forward && shift {
                                v.rotate_left(size / 2);
                            }
                            let mut want = dft(&v, forward);
                            if forward && shift {
                                want.rotate_left(size.div_ceil(2));
                            }
                            for (g, w) in got.iter().zip(&want) {
                                let e = (Complex64::new(g.re.into(), g.im.into()) - w).norm();
                                assert!(
                                    e < 1e-4 * size as f64,
                                    "{size} {forward} {shift}: {g} vs {w}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn real_reverse_shift_of_odd_size_rotates_as_gnu_radio() {
        // GNU Radio 3.10's fft_vfc(5, False, [], True) reads [x2, x3, x0, x1, x2].
        let x = [1.0f32, 10.0, 100.0, 1000.0, 10000.0];
        let mut fft = VectorFft::new(5, false, &[], true).unwrap();
        let mut y = [Complex32::default(); 5];
        fft.process(&x, &mut y);
        let v: Vec<Complex64> = [100.0, 1000.0, 1.0, 10.0, 100.0]
            .iter()
            .map(|&r| Complex64::new(r, 0.0))
            .collect();
        for (g, w) in y.iter().zip(dft(&v, false)) {
            assert!((Complex64::new(g.re.into(), g.im.into()) - w).norm() < 1e-2);
        }
        // Even sizes rotate as complex samples do.
        let mut fft = VectorFft::new(4, false, &[], true).unwrap();
        let mut real = [Complex32::default(); 4];
        fft.process(&[1.0f32, 2.0, 3.0, 4.0], &mut real);
        let mut complex = [Complex32::default(); 4];
        let c: Vec<Complex32> = (1..=4).map(|k| Complex32::new(k as f32, 0.0)).collect();
        fft.process(&c, &mut complex);
        assert_eq!(real, complex);
    }

    #[test]
    fn bad_parameters_are_named() {
        assert_eq!(
            VectorFft::new(0, true, &[], false).unwrap_err().name,
            "size"
        );
        assert_eq!(
            VectorFft::new(4, true, &[1.0; 3], false).unwrap_err().name,
            "window"
        );
    }
}
