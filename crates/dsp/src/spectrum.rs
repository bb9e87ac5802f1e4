//! [`Spectrum`]: the windowed log-power spectrum of a frame of samples.

use crate::error::{check, ParamError};
use crate::window::Window;
use num_complex::Complex32;
use radioflow_fftplan::Fft;
use std::sync::Arc;

/// The power spectrum of `size` complex samples in dB, windowed, normalized as GNU Radio's
/// `logpwrfft_c` (with `ref_scale` 2): bin `k` is `10·log10(|X[k]|² / (size · Σw²))`, where
/// `X` is the DFT of the windowed frame. The bins' powers add up to the frame's power, whatever
/// the window: white noise of power `σ²` reads `10·log10(σ²/size)` in every bin, and a unit
/// tone on a bin reads 0 dB with the rectangular window (less the window's processing loss
/// with the others).
///
/// Bins are in FFT order (DC first), or with DC in the middle (`shift`), negative
/// frequencies first, as a display wants them. The FFT plan and buffers are made in `new`.
///
/// ```
/// use radioflow_dsp::{firdes::Window, Complex32, Nco, Spectrum};
/// let mut spectrum = Spectrum::new(256, Window::Blackman, true)?;
/// // A unit tone on bin 32 above DC (1/8 of the sample rate).
/// let mut x = vec![Complex32::default(); 256];
/// Nco::new(1.0, 8.0).fill_exp(&mut x, 1.0, Complex32::default());
/// let mut db = vec![0.0; 256];
/// spectrum.process(&x, &mut db);
/// let peak = (0..256).max_by(|&a, &b| db[a].total_cmp(&db[b])).unwrap();
/// assert_eq!(peak, 128 + 32);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone)]
pub struct Spectrum {
    fft: Arc<dyn Fft<f32>>,
    window: Vec<f32>,
    /// `-10·log10(size · Σw²)`, or `-10·log10(size)` on GNU Radio's QT sinks' scale.
    offset_db: f32,
    shift: bool,
    buf: Vec<Complex32>,
    scratch: Vec<Complex32>,
}

impl std::fmt::Debug for Spectrum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spectrum")
            .field("size", &self.window.len())
            .field("shift", &self.shift)
            .finish_non_exhaustive()
    }
}

impl Spectrum {
    /// A spectrum of `size` bins with this window, DC in the middle if `shift`.
    ///
    /// # Errors
    /// If `size` is 0 or the window's parameter is out of range.
    pub fn new(size: usize, window: Window, shift: bool) -> Result<Self, ParamError> {
        check(size > 0, "size", || "must be at least 1".into())?;
        window.validate()?;
        let w = window.coefficients(size);
        let power: f64 = w.iter().map(|v| v * v).sum();
        Ok(Self::with_window(
            &w,
            -10.0 * (size as f64 * power).log10(),
            shift,
        ))
    }

    /// A spectrum on the scale of GNU Radio's QT frequency and waterfall sinks: bin `k` is
    /// `10·log10(|X[k]|² / size)` (volk's power spectral density with GNU Radio's arguments),
    /// the window as `fft::window::build` makes it, divided by its root mean square when
    /// `normalize` (the sinks' `norm_window`).
    /// A unit tone on a bin reads `10·log10(size)` dB with the rectangular window.
    ///
    /// # Errors
    /// As [`Spectrum::new`].
    pub fn gnuradio(
        size: usize,
        window: Window,
        normalize: bool,
        shift: bool,
    ) -> Result<Self, ParamError> {
        check(size > 0, "size", || "must be at least 1".into())?;
        window.validate()?;
        let mut w = window.coefficients(size);
        if normalize {
            let rms = (w.iter().map(|v| v * v).sum::<f64>() / size as f64).sqrt();
            if rms > 0.0 {
                w.iter_mut().for_each(|v| *v /= rms);
            }
        }
        Ok(Self::with_window(&w, -10.0 * (size as f64).log10(), shift))
    }

    fn with_window(w: &[f64], offset_db: f64, shift: bool) -> Self {
        let size = w.len();
        let fft = radioflow_fftplan::forward(size);
        let scratch = vec![Complex32::default(); fft.get_inplace_scratch_len()];
        Self {
            fft,
            window: w.iter().map(|&v| v as f32).collect(),
            offset_db: offset_db as f32,
            shift,
            buf: vec![Complex32::default(); size],
            scratch,
        }
    }

    /// The number of bins (and of samples per frame).
    pub fn size(&self) -> usize {
        self.window.len()
    }

    /// The spectrum of `frame` in dB into the first `size` entries of `output`; a bin with
    /// no power is `-inf`.
    ///
    /// # Panics
    /// If `frame` is not `size` samples long or `output` is shorter.
    pub fn process(&mut self, frame: &[Complex32], output: &mut [f32]) {
        let size = self.window.len();
        assert_eq!(frame.len(), size, "a frame is {size} samples");
        for ((b, &x), &w) in self.buf.iter_mut().zip(frame).zip(&self.window) {
            *b = x * w;
        }
        self.fft
            .process_with_scratch(&mut self.buf, &mut self.scratch);
        // Shifted, bin k goes to (k + size/2) mod size: the upper half (negative
        // frequencies) first.
        let half = if self.shift { size / 2 } else { 0 };
        let output = &mut output[..size];
        let (low, high) = output.split_at_mut(half);
        let (neg, pos) = self.buf.split_at(size - half);
        for (o, x) in high.iter_mut().zip(neg).chain(low.iter_mut().zip(pos)) {
            *o = 10.0 * x.norm_sqr().log10() + self.offset_db;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex64;
    use std::f64::consts::PI;

    #[test]
    fn matches_the_naive_dft() {
        for (size, window, shift) in [
            (64, Window::Hann, false),
            (100, Window::Kaiser { beta: 6.0 }, true),
            (7, Window::Rectangular, true),
            (1, Window::Hamming, false),
        ] {
            let x = random_complex(size as u64, size);
            let w = window.coefficients(size);
            let power: f64 = w.iter().map(|v| v * v).sum();
            let mut s = Spectrum::new(size, window, shift).unwrap();
            let mut got = vec![0.0; size];
            s.process(&x, &mut got);
            for (i, g) in got.iter().enumerate() {
                let k = if shift {
                    (i + size - size / 2) % size
                } else {
                    i
                };
                let xk: Complex64 = to64(&x)
                    .iter()
                    .zip(&w)
                    .enumerate()
                    .map(|(n, (v, w))| {
                        v * w * Complex64::from_polar(1.0, -2.0 * PI * (k * n) as f64 / size as f64)
                    })
                    .sum();
                let want = 10.0 * (xk.norm_sqr() / (size as f64 * power)).log10();
                // f32 FFT: 1e-3 dB unless the bin is deep in the noise of the rounding.
                assert!(
                    (f64::from(*g) - want).abs() < 1e-3,
                    "{size} bin {i}: {g} vs {want}"
                );
            }
        }
    }

    #[test]
    fn equals_gnu_radios_logpwrfft_c() {
        let x = golden_complex("noise");
        for (window, shift, key) in [
            (Window::Hamming, false, "logpwrfft_hamming"),
            (Window::Hann, true, "logpwrfft_hann_shifted"),
        ] {
            let want = golden_real(key);
            let mut s = Spectrum::new(64, window, shift).unwrap();
            let mut got = vec![0.0; 64];
            for (f, frame) in x[..256].chunks(64).enumerate() {
                s.process(frame, &mut got);
                // Both f32 FFTs (GNU Radio's FFTW): within 1e-3 dB.
                for (k, (g, w)) in got.iter().zip(&want[f * 64..]).enumerate() {
                    assert!((g - w).abs() < 1e-3, "{key} frame {f} bin {k}: {g} vs {w}");
                }
            }
        }
    }

    #[test]
    fn white_noise_reads_its_power_in_every_window() {
        // Complex noise of power 2/3 (uniform ±1 per component): the bins' powers, summed
        // over a frame, average 2/3.
        let x = random_complex(5, 256 * 200);
        for window in [
            Window::Rectangular,
            Window::Blackman,
            Window::Kaiser { beta: 9.0 },
        ] {
            let mut s = Spectrum::new(256, window, false).unwrap();
            let mut db = vec![0.0; 256];
            let mut mean = 0.0;
            for frame in x.chunks(256) {
                s.process(frame, &mut db);
                mean += db
                    .iter()
                    .map(|d| 10f64.powf(f64::from(*d) / 10.0))
                    .sum::<f64>();
            }
            mean /= 200.0;
            assert!((mean - 2.0 / 3.0).abs() < 0.02, "{window:?}: {mean}");
        }
    }

    #[test]
    fn gnuradio_scale_is_the_qt_sinks() {
        // GNU Radio's normalized flat-top window of 9 taps (`window.build(window.WIN_FLATTOP,
        // 9, 6.76, True)` under /usr/bin/python3, GNU Radio 3.10.5) and the QT sinks' formula
        // 10·log10(|X[k]|² / size) (freq_sink_c_impl::fft: volk's power spectral density with
        // normalization 1 and rbw = size), by a naive DFT.
        let w = [
            -4.129_573_5e-8,
            -0.064_650_796,
            -0.143_111_54,
            1.126_516_9,
            2.532_310_7,
            1.126_517_2,
            -0.143_111_57,
            -0.064_650_67,
            -4.129_573_5e-8,
        ];
        let x = random_complex(3, 9);
        let mut s = Spectrum::gnuradio(9, Window::FlatTop, true, false).unwrap();
        let mut got = vec![0.0; 9];
        s.process(&x, &mut got);
        for (k, g) in got.iter().enumerate() {
            let xk: Complex64 = to64(&x)
                .iter()
                .zip(&w)
                .enumerate()
                .map(|(n, (v, w))| {
                    v * w * Complex64::from_polar(1.0, -2.0 * PI * (k * n) as f64 / 9.0)
                })
                .sum();
            let want = 10.0 * (xk.norm_sqr() / 9.0).log10();
            assert!(
                (f64::from(*g) - want).abs() < 1e-3,
                "bin {k}: {g} vs {want}"
            );
        }
        // Not normalized, rectangular: a unit tone on a bin reads 10·log10(size).
        let mut s = Spectrum::gnuradio(64, Window::Rectangular, false, false).unwrap();
        let tone: Vec<Complex32> = (0..64)
            .map(|n| Complex32::from_polar(1.0, 2.0 * std::f32::consts::PI * 5.0 * n as f32 / 64.0))
            .collect();
        let mut db = vec![0.0; 64];
        s.process(&tone, &mut db);
        assert!((db[5] - 10.0 * 64f32.log10()).abs() < 1e-3, "{}", db[5]);
    }
}
