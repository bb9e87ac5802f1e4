//! [`Window`]: the window functions of the windowed FIR designs, with GNU Radio's conventions.

use crate::error::{check, Num, ParamError};
use std::f64::consts::PI;

/// A window for the windowed-sinc designs of [`firdes`](crate::firdes), defined as in GNU Radio's
/// `fft::window` (symmetric: `M = ntaps - 1` in the cosine terms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Window {
    /// All ones (21 dB stop band).
    Rectangular,
    /// `0.54 - 0.46 cos(2πn/M)` (53 dB).
    Hamming,
    /// `0.5 - 0.5 cos(2πn/M)` (44 dB).
    Hann,
    /// `0.42 - 0.5 cos(2πn/M) + 0.08 cos(4πn/M)` (74 dB).
    Blackman,
    /// Kaiser with shape `beta` (`I0(β√(1-(2n/M-1)²)) / I0(β)`, about `β/0.1102 + 8.7` dB).
    Kaiser {
        /// Shape parameter, at least 0; GNU Radio's default is 6.76.
        beta: f64,
    },
    /// The four-term Blackman-Harris window of 92 dB, GNU Radio's `WIN_BLACKMAN_HARRIS`
    /// (`0.35875 - 0.48829 cos x + 0.14128 cos 2x - 0.01168 cos 3x`, `x = 2πn/M`).
    BlackmanHarris,
    /// The five-term flat-top window of 93 dB, GNU Radio's `WIN_FLATTOP` (`(1 - 1.93 cos x +
    /// 1.29 cos 2x - 0.388 cos 3x + 0.028 cos 4x) / 4.63867`): a tone's peak reads its true
    /// power wherever it falls between bins.
    FlatTop,
}

impl Window {
    /// The stop-band attenuation in dB that GNU Radio's `window::max_attenuation` assigns to this
    /// window; [`firdes`](crate::firdes) derives the number of taps from it.
    pub fn max_attenuation(&self) -> f64 {
        match *self {
            Window::Rectangular => 21.0,
            Window::Hamming => 53.0,
            Window::Hann => 44.0,
            Window::Blackman => 74.0,
            Window::Kaiser { beta } => beta / 0.1102 + 8.7,
            Window::BlackmanHarris => 92.0,
            Window::FlatTop => 93.0,
        }
    }

    pub(crate) fn validate(&self) -> Result<(), ParamError> {
        if let Window::Kaiser { beta } = *self {
            check(beta.is_finite() && beta >= 0.0, "beta", || {
                format!("{} must be finite and at least 0", Num(beta))
            })?;
        }
        Ok(())
    }

    /// The `ntaps` window coefficients (a single tap is 1).
    ///
    /// # Panics
    /// If `ntaps` is 0.
    pub fn coefficients(&self, ntaps: usize) -> Vec<f64> {
        assert!(ntaps > 0, "a window needs at least one tap");
        if ntaps == 1 {
            return vec![1.0];
        }
        match *self {
            Window::Rectangular => vec![1.0; ntaps],
            Window::Hamming => cosine_sum(ntaps, &[0.54, 0.46]),
            Window::Hann => cosine_sum(ntaps, &[0.5, 0.5]),
            Window::Blackman => cosine_sum(ntaps, &[0.42, 0.5, 0.08]),
            Window::BlackmanHarris => cosine_sum(ntaps, &[0.35875, 0.48829, 0.14128, 0.01168]),
            Window::FlatTop => {
                const SCALE: f64 = 4.63867;
                let c = [1.0, 1.93, 1.29, 0.388, 0.028].map(|c| c / SCALE);
                cosine_sum(ntaps, &c)
            }
            Window::Kaiser { beta } => {
                let m = (ntaps - 1) as f64;
                let norm = bessel_i0(beta);
                (0..ntaps)
                    .map(|n| {
                        let r = 2.0 * n as f64 / m - 1.0;
                        bessel_i0(beta * (1.0 - r * r).max(0.0).sqrt()) / norm
                    })
                    .collect()
            }
        }
    }
}

/// The cosine-sum window of `ntaps` (at least 2) with coefficients `c`, GNU Radio's
/// `fft::window::coswindow`: `c[0] - c[1] cos x + c[2] cos 2x - c[3] cos 3x + ...`, `x =
/// 2πn/(ntaps - 1)` (symmetric). GNU Radio's named windows are such sums: Hamming `[0.54,
/// 0.46]`, Hann `[0.5, 0.5]`, Blackman `[0.42, 0.5, 0.08]`, Blackman-Harris (92 dB) `[0.35875,
/// 0.48829, 0.14128, 0.01168]`, Nuttall `[0.3635819, 0.4891775, 0.1365995, 0.0106411]` and
/// others.
///
/// # Panics
/// If `ntaps` is below 2 (the cosines divide by `ntaps - 1`).
pub fn cosine_sum(ntaps: usize, c: &[f64]) -> Vec<f64> {
    assert!(ntaps >= 2, "a cosine window needs at least two taps");
    let m = (ntaps - 1) as f64;
    (0..ntaps)
        .map(|n| {
            let x = 2.0 * PI * n as f64 / m;
            c.iter().enumerate().skip(1).fold(c[0], |sum, (i, &ci)| {
                let term = ci * (i as f64 * x).cos();
                if i % 2 == 1 {
                    sum - term
                } else {
                    sum + term
                }
            })
        })
        .collect()
}

/// The triangular window of `ntaps` (at least 2), zero at both ends, GNU Radio's
/// `fft::window::bartlett`: `1 - |2n/(ntaps - 1) - 1|`.
///
/// # Panics
/// If `ntaps` is below 2.
pub fn bartlett(ntaps: usize) -> Vec<f64> {
    assert!(ntaps >= 2, "a Bartlett window needs at least two taps");
    let m = (ntaps - 1) as f64;
    (0..ntaps)
        .map(|n| 1.0 - (2.0 * n as f64 / m - 1.0).abs())
        .collect()
}

/// The parabolic window of `ntaps`, GNU Radio's `fft::window::welch`: `1 - ((n - (ntaps -
/// 1)/2) / ((ntaps + 1)/2))²` (not zero at the ends).
pub fn welch(ntaps: usize) -> Vec<f64> {
    let (mid, half) = ((ntaps as f64 - 1.0) / 2.0, (ntaps as f64 + 1.0) / 2.0);
    (0..ntaps)
        .map(|n| {
            let r = (n as f64 - mid) / half;
            1.0 - r * r
        })
        .collect()
}

/// The modified Bessel function of the first kind, order 0, by its power series
/// `Σ ((x/2)^k / k!)²`, summed until a term no longer changes the sum.
fn bessel_i0(x: f64) -> f64 {
    let half = x / 2.0;
    let (mut sum, mut term, mut k) = (1.0f64, 1.0f64, 1.0f64);
    loop {
        let r = half / k;
        term *= r * r;
        sum += term;
        if term < 1e-21 * sum {
            return sum;
        }
        k += 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bessel_i0_matches_known_values() {
        // Abramowitz and Stegun, table 9.8: I0(1), I0(5) and e^-10 I0(10).
        assert!((bessel_i0(0.0) - 1.0).abs() < 1e-15);
        assert!((bessel_i0(1.0) - 1.266_065_877_752_008_4).abs() < 1e-14);
        assert!((bessel_i0(5.0) - 27.239_871_823_604_45).abs() < 1e-11);
        assert!((bessel_i0(10.0) * (-10.0f64).exp() - 0.127_833_337_163).abs() < 1e-11);
    }

    #[test]
    fn windows_are_symmetric_and_peak_in_the_middle() {
        for w in [
            Window::Rectangular,
            Window::Hamming,
            Window::Hann,
            Window::Blackman,
            Window::Kaiser { beta: 6.76 },
            Window::BlackmanHarris,
        ] {
            for n in [1, 2, 5, 64, 101] {
                let c = w.coefficients(n);
                for i in 0..n {
                    assert!((c[i] - c[n - 1 - i]).abs() < 1e-12, "{w:?} {n} {i}");
                    assert!(c[i] <= 1.0 + 1e-12);
                }
                if n % 2 == 1 {
                    assert!((c[n / 2] - 1.0).abs() < 1e-12, "{w:?} {n}");
                }
            }
        }
        assert_eq!(Window::Hann.coefficients(3), vec![0.0, 1.0, 0.0]);
    }

    #[test]
    fn flat_top_is_gnu_radios() {
        // `/usr/bin/python3 -c "from gnuradio.fft import window; print(window.flattop(9))"`
        // (GNU Radio 3.10.5, computed in single precision).
        let gnuradio = [
            -1.629_814_5e-8,
            -0.025_515_662,
            -0.056_481_682,
            0.444_601_27,
            0.999_424_46,
            0.444_601_39,
            -0.056_481_697,
            -0.025_515_614,
            -1.629_814_5e-8,
        ];
        for (ours, theirs) in Window::FlatTop.coefficients(9).iter().zip(gnuradio) {
            assert!((ours - theirs).abs() < 1e-6, "{ours} vs {theirs}");
        }
    }
}
