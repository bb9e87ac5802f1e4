//! [`Iir`], [`SinglePoleIir`] and [`Biquad`]: recursive filters, and the FM de-emphasis.

use crate::error::{check, positive, Num, ParamError};
use crate::fir::FirSample;

/// A general IIR filter `Σ_k a[k]·y[n-k] = Σ_k b[k]·x[n-k]` in direct form I, with `f64`
/// coefficients and state, as GNU Radio's `iir_filter_ffd` with `oldstyle = false`. The
/// coefficients are divided by `a[0]` (GNU Radio assumes it is 1).
///
/// ```
/// use radioflow_dsp::Iir;
/// // An accumulator: y[n] = x[n] + y[n-1].
/// let mut acc = Iir::new(&[1.0], &[1.0, -1.0])?;
/// let mut y = [0.0; 4];
/// acc.process(&[1.0, 2.0, 3.0, 4.0], &mut y);
/// assert_eq!(y, [1.0, 3.0, 6.0, 10.0]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Iir {
    b: Vec<f64>,
    /// `a[1..] / a[0]`.
    a: Vec<f64>,
    /// The last `b.len() - 1` inputs, newest first.
    x: Vec<f64>,
    /// The last `a.len()` outputs, newest first.
    y: Vec<f64>,
}

impl Iir {
    /// A filter with feed-forward taps `b` and feedback taps `a` (`a[0]` weighs `y[n]`).
    ///
    /// # Errors
    /// If `b` or `a` is empty, `a[0]` is 0, or a coefficient is not finite.
    pub fn new(b: &[f64], a: &[f64]) -> Result<Self, ParamError> {
        check(!b.is_empty(), "b", || "need at least one tap".into())?;
        check(!a.is_empty() && a[0] != 0.0, "a", || {
            "need at least one tap, a[0] not 0".into()
        })?;
        check(b.iter().chain(a).all(|c| c.is_finite()), "a", || {
            "coefficients must be finite".into()
        })?;
        Ok(Self {
            b: b.iter().map(|c| c / a[0]).collect(),
            a: a[1..].iter().map(|c| c / a[0]).collect(),
            x: vec![0.0; b.len() - 1],
            y: vec![0.0; a.len() - 1],
        })
    }

    /// GNU Radio's `fm_deemph`: the bilinear transform of the RC low-pass `1 / (1 + s·tau)`,
    /// its corner pre-warped, so the response is 1 at DC and -3 dB at `1/(2π·tau)` Hz. `tau`
    /// is 75 µs in the Americas, 50 µs elsewhere.
    ///
    /// # Errors
    /// If `sample_rate` or `tau` is not finite and positive, or the corner is above
    /// Nyquist.
    pub fn fm_deemphasis(sample_rate: f64, tau: f64) -> Result<Self, ParamError> {
        let (b, a) = Self::fm_deemphasis_taps(sample_rate, tau)?;
        Self::new(&b, &a)
    }

    /// The feed-forward and feedback taps `(b, a)` of
    /// [`fm_deemphasis`](Self::fm_deemphasis) (`a[0]` = 1), for an IIR filter block.
    ///
    /// # Errors
    /// As [`fm_deemphasis`](Self::fm_deemphasis).
    pub fn fm_deemphasis_taps(
        sample_rate: f64,
        tau: f64,
    ) -> Result<([f64; 2], [f64; 2]), ParamError> {
        positive("sample_rate", sample_rate)?;
        positive("tau", tau)?;
        let half_angle = 1.0 / (tau * 2.0 * sample_rate);
        check(half_angle < std::f64::consts::FRAC_PI_2, "tau", || {
            format!("{} puts the corner above half the sample rate", Num(tau))
        })?;
        // Pre-warped corner w_a = 2fs·tan(w_c/2fs); with k = w_a/2fs the pole is (1-k)/(1+k)
        // and both zeros' weights k/(1+k), for unit gain at DC.
        let k = half_angle.tan();
        let b0 = k / (1.0 + k);
        let pole = (1.0 - k) / (1.0 + k);
        Ok(([b0, b0], [1.0, -pole]))
    }

    /// GNU Radio's `fm_preemph`: the bilinear transform of the shelf `(s + 1/tau) / (s +
    /// 2π·fh)` (both corners pre-warped), scaled to gain 1 at DC, rising 6 dB per octave from
    /// `1/(2π·tau)` Hz and flat again from `fh` Hz. An `fh` not in `(0, fs/2)` means GNU
    /// Radio's default, `0.925·fs/2`. Returns the taps `(b, a)` (`a[0]` = 1).
    ///
    /// # Errors
    /// If `sample_rate` or `tau` is not finite and positive, or the low corner is above
    /// Nyquist.
    pub fn fm_preemphasis_taps(
        sample_rate: f64,
        tau: f64,
        fh: f64,
    ) -> Result<([f64; 2], [f64; 2]), ParamError> {
        positive("sample_rate", sample_rate)?;
        positive("tau", tau)?;
        check(fh.is_finite(), "fh", || "must be finite".into())?;
        check(
            1.0 / (tau * 2.0 * sample_rate) < std::f64::consts::FRAC_PI_2,
            "tau",
            || format!("{} puts the corner above half the sample rate", Num(tau)),
        )?;
        let fh = if fh <= 0.0 || fh >= sample_rate / 2.0 {
            0.925 * sample_rate / 2.0
        } else {
            fh
        };
        // Each corner pre-warped, w_a = 2fs·tan(w/2fs); k = -w_a/2fs puts the zero at
        // (1+kl)/(1-kl) and the pole at (1+kh)/(1-kh), and g makes the gain at DC 1.
        let prewarp = |w: f64| -(w / (2.0 * sample_rate)).tan();
        let (kl, kh) = (prewarp(1.0 / tau), prewarp(2.0 * std::f64::consts::PI * fh));
        let z1 = (1.0 + kl) / (1.0 - kl);
        let p1 = (1.0 + kh) / (1.0 - kh);
        let b0 = (1.0 - kl) / (1.0 - kh);
        let g = (1.0 - p1).abs() / (b0 * (1.0 - z1).abs());
        Ok(([g * b0, -g * b0 * z1], [1.0, -p1]))
    }

    /// Filters `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[f32], output: &mut [f32]) {
        let output = &mut output[..input.len()];
        for (o, &x) in output.iter_mut().zip(input) {
            *o = self.step(f64::from(x)) as f32;
        }
    }

    /// Filters `data` where it is.
    pub fn process_in_place(&mut self, data: &mut [f32]) {
        for v in data {
            *v = self.step(f64::from(*v)) as f32;
        }
    }

    fn step(&mut self, x: f64) -> f64 {
        let mut acc = self.b[0] * x;
        for (b, px) in self.b[1..].iter().zip(&self.x) {
            acc += b * px;
        }
        for (a, py) in self.a.iter().zip(&self.y) {
            acc -= a * py;
        }
        shift_in(&mut self.x, x);
        shift_in(&mut self.y, acc);
        acc
    }
}

/// Puts `v` first in `state`, dropping the oldest (last) value.
fn shift_in(state: &mut [f64], v: f64) {
    if !state.is_empty() {
        state.copy_within(..state.len() - 1, 1);
        state[0] = v;
    }
}

/// An exponential smoother `y[n] = α·x[n] + (1 - α)·y[n-1]` from `y[-1] = 0`, as GNU Radio's
/// `single_pole_iir_filter_ff` (`f64` state).
///
/// ```
/// use radioflow_dsp::SinglePoleIir;
/// let mut s = SinglePoleIir::new(0.5)?;
/// let mut y = [0.0; 3];
/// s.process(&[1.0, 1.0, 1.0], &mut y);
/// assert_eq!(y, [0.5, 0.75, 0.875]);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SinglePoleIir {
    alpha: f64,
    /// The last output of each component (a complex sample's two; GNU Radio keeps complex
    /// state in `f64` too).
    last: [f64; 2],
}

impl SinglePoleIir {
    /// A smoother with weight `alpha` on the new sample.
    ///
    /// # Errors
    /// If `alpha` is not in `[0, 1]`.
    pub fn new(alpha: f64) -> Result<Self, ParamError> {
        check((0.0..=1.0).contains(&alpha), "alpha", || {
            format!("{} must be in [0, 1]", Num(alpha))
        })?;
        Ok(Self {
            alpha,
            last: [0.0; 2],
        })
    }

    /// Weighs the samples from now on with `alpha`; the state stays (GNU Radio's
    /// `set_taps`).
    ///
    /// # Errors
    /// If `alpha` is not in `[0, 1]` (nothing changes).
    pub fn set_alpha(&mut self, alpha: f64) -> Result<(), ParamError> {
        *self = Self {
            last: self.last,
            ..Self::new(alpha)?
        };
        Ok(())
    }

    /// One step on a single stream: the next output for input `x`.
    pub fn step(&mut self, x: f64) -> f64 {
        self.last[0] = self.alpha * x + (1.0 - self.alpha) * self.last[0];
        self.last[0]
    }

    /// Filters `f32` or `Complex32` samples (each component on its own, as GNU Radio's
    /// `single_pole_iir_filter_cc` does) into the first `input.len()` of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process_samples<T: FirSample>(&mut self, input: &[T], output: &mut [T]) {
        let x = T::components(input);
        let y = &mut T::components_mut(output)[..x.len()];
        for (o, i) in y
            .chunks_exact_mut(T::COMPONENTS)
            .zip(x.chunks_exact(T::COMPONENTS))
        {
            for c in 0..T::COMPONENTS {
                self.last[c] = self.alpha * f64::from(i[c]) + (1.0 - self.alpha) * self.last[c];
                o[c] = self.last[c] as f32;
            }
        }
    }

    /// Filters `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[f32], output: &mut [f32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            *o = self.step(f64::from(x)) as f32;
        }
    }
}

/// A second-order section `(b0 + b1·z⁻¹ + b2·z⁻²) / (1 + a1·z⁻¹ + a2·z⁻²)` in transposed
/// direct form II with `f64` state, with the low-pass, high-pass, band-pass and notch designs
/// of R. Bristow-Johnson's "Audio EQ cookbook".
///
/// ```
/// use radioflow_dsp::Biquad;
/// // A 60 Hz notch at 48 kHz removes a steady 60 Hz hum.
/// let mut notch = Biquad::notch(48e3, 60.0, 5.0)?;
/// let hum: Vec<f32> = (0..96_000)
///     .map(|n| (2.0 * std::f32::consts::PI * 60.0 * n as f32 / 48e3).sin())
///     .collect();
/// let mut y = vec![0.0; hum.len()];
/// notch.process(&hum, &mut y);
/// assert!(y[90_000..].iter().all(|v| v.abs() < 1e-3));
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Biquad {
    b: [f64; 3],
    a: [f64; 2],
    s: [f64; 2],
}

impl Biquad {
    /// A section with these coefficients (`a0 = 1`).
    pub fn new(b: [f64; 3], a: [f64; 2]) -> Self {
        Self { b, a, s: [0.0; 2] }
    }

    /// Low-pass with corner `f` Hz and quality `q` (`FRAC_1_SQRT_2` for Butterworth).
    ///
    /// # Errors
    /// If `f` is not in `(0, fs/2)` or `q` is not positive.
    pub fn low_pass(fs: f64, f: f64, q: f64) -> Result<Self, ParamError> {
        let (c, alpha) = rbj(fs, f, q)?;
        Ok(Self::normalized(
            [(1.0 - c) / 2.0, 1.0 - c, (1.0 - c) / 2.0],
            c,
            alpha,
        ))
    }

    /// High-pass with corner `f` Hz and quality `q`.
    ///
    /// # Errors
    /// As for [`low_pass`](Self::low_pass).
    pub fn high_pass(fs: f64, f: f64, q: f64) -> Result<Self, ParamError> {
        let (c, alpha) = rbj(fs, f, q)?;
        Ok(Self::normalized(
            [(1.0 + c) / 2.0, -(1.0 + c), (1.0 + c) / 2.0],
            c,
            alpha,
        ))
    }

    /// Band-pass centred on `f` Hz with unit peak gain and quality `q`.
    ///
    /// # Errors
    /// As for [`low_pass`](Self::low_pass).
    pub fn band_pass(fs: f64, f: f64, q: f64) -> Result<Self, ParamError> {
        let (c, alpha) = rbj(fs, f, q)?;
        Ok(Self::normalized([alpha, 0.0, -alpha], c, alpha))
    }

    /// Notch at `f` Hz with quality `q`.
    ///
    /// # Errors
    /// As for [`low_pass`](Self::low_pass).
    pub fn notch(fs: f64, f: f64, q: f64) -> Result<Self, ParamError> {
        let (c, alpha) = rbj(fs, f, q)?;
        Ok(Self::normalized([1.0, -2.0 * c, 1.0], c, alpha))
    }

    /// The cookbook's shared denominator `1 + α - 2cos(ω)z⁻¹ + (1 - α)z⁻²`, divided out.
    fn normalized(b: [f64; 3], c: f64, alpha: f64) -> Self {
        let a0 = 1.0 + alpha;
        Self::new(
            [b[0] / a0, b[1] / a0, b[2] / a0],
            [-2.0 * c / a0, (1.0 - alpha) / a0],
        )
    }

    /// Filters `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[f32], output: &mut [f32]) {
        let ([b0, b1, b2], [a1, a2]) = (self.b, self.a);
        let [mut s0, mut s1] = self.s;
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            let x = f64::from(x);
            let y = b0 * x + s0;
            s0 = b1 * x - a1 * y + s1;
            s1 = b2 * x - a2 * y;
            *o = y as f32;
        }
        self.s = [s0, s1];
    }
}

/// `(cos ω, sin ω / 2q)` for the cookbook designs, checked.
fn rbj(fs: f64, f: f64, q: f64) -> Result<(f64, f64), ParamError> {
    positive("fs", fs)?;
    check(f > 0.0 && f < fs / 2.0, "f", || {
        format!("{} must be in (0, {})", Num(f), Num(fs / 2.0))
    })?;
    positive("q", q)?;
    let w = 2.0 * std::f64::consts::PI * f / fs;
    Ok((w.cos(), w.sin() / (2.0 * q)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    /// `Σ a[k] y[n-k] = Σ b[k] x[n-k]` solved for `y[n]`, in f64, by the textbook loop.
    fn naive(b: &[f64], a: &[f64], x: &[f32]) -> Vec<f64> {
        let mut y = vec![0.0f64; x.len()];
        for n in 0..x.len() {
            let mut acc = 0.0;
            for (k, bk) in b.iter().enumerate().take(n + 1) {
                acc += bk * f64::from(x[n - k]);
            }
            for (k, ak) in a.iter().enumerate().skip(1).take(n) {
                acc -= ak * y[n - k];
            }
            y[n] = acc / a[0];
        }
        y
    }

    fn run(f: impl FnMut(&[f32], &mut [f32]), x: &[f32]) -> Vec<f32> {
        run_split_sync(4, x, 300, f)
    }

    #[test]
    fn iir_matches_the_difference_equation_across_calls() {
        let x = random_real(1, 3000);
        for (b, a) in [
            (vec![0.2, 0.3, -0.1], vec![2.0, -0.5, 0.3]),
            (vec![1.0], vec![1.0, -0.9]),
            (vec![0.5, 0.5], vec![1.0]),
            (vec![0.1, 0.2, 0.3, 0.2, 0.1], vec![1.0, -1.2, 0.8, -0.3]),
        ] {
            let want = naive(&b, &a, &x);
            let mut iir = Iir::new(&b, &a).unwrap();
            let got = run(|i, o| iir.process(i, o), &x);
            for (n, (g, w)) in got.iter().zip(&want).enumerate() {
                // f64 state, rounded to f32 on output.
                assert!((f64::from(*g) - w).abs() <= 1e-6 * w.abs().max(1.0), "{n}");
            }
        }
        assert!(Iir::new(&[1.0], &[0.0]).is_err());
        assert!(Iir::new(&[], &[1.0]).is_err());
    }

    #[test]
    fn deemphasis_equals_gnu_radios_fm_deemph() {
        let x = golden_real("real");
        for tau in [50, 75] {
            let mut d = Iir::fm_deemphasis(48e3, tau as f64 * 1e-6).unwrap();
            let mut y = vec![0.0; x.len()];
            d.process(&x, &mut y);
            // Same design and f64 arithmetic; the golden file holds 9 digits.
            assert_close_real(&y, &golden_real(&format!("deemph_{tau}")), 1e-6, "deemph");
        }
    }

    #[test]
    fn deemphasis_is_3_db_down_at_the_corner() {
        let (fs, tau) = (240e3, 75e-6);
        let d = Iir::fm_deemphasis(fs, tau).unwrap();
        let w = 1.0 / (tau * fs); // the corner in rad/sample
        let z = num_complex::Complex64::from_polar(1.0, -w);
        let h = (d.b[0] + d.b[1] * z) / (1.0 + d.a[0] * z);
        assert!((h.norm() - 0.5f64.sqrt()).abs() < 1e-9, "{}", h.norm());
        assert!(Iir::fm_deemphasis(1e3, 1e-5).is_err());
    }

    #[test]
    fn single_pole_equals_gnu_radios() {
        let x = golden_real("real");
        let mut s = SinglePoleIir::new(0.1).unwrap();
        let mut y = vec![0.0; x.len()];
        s.process(&x, &mut y);
        assert_close_real(&y, &golden_real("single_pole"), 1e-6, "single pole");
        assert!(SinglePoleIir::new(1.5).is_err());
    }

    #[test]
    fn biquad_matches_the_difference_equation_and_its_design() {
        let x = random_real(2, 3000);
        let mut bq = Biquad::low_pass(48e3, 3e3, std::f64::consts::FRAC_1_SQRT_2).unwrap();
        let (b, a) = (bq.b, [1.0, bq.a[0], bq.a[1]]);
        let want = naive(&b, &a, &x);
        let got = run(|i, o| bq.process(i, o), &x);
        for (n, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((f64::from(*g) - w).abs() <= 1e-6 * w.abs().max(1.0), "{n}");
        }
        // Responses: unit gain in the pass band, -3 dB at a Butterworth corner, zero at a
        // notch.
        let gain = |bq: &Biquad, f: f64, fs: f64| {
            let z = num_complex::Complex64::from_polar(1.0, -2.0 * std::f64::consts::PI * f / fs);
            ((bq.b[0] + bq.b[1] * z + bq.b[2] * z * z) / (1.0 + bq.a[0] * z + bq.a[1] * z * z))
                .norm()
        };
        let lp = Biquad::low_pass(48e3, 3e3, 0.5f64.sqrt()).unwrap();
        assert!((gain(&lp, 0.0, 48e3) - 1.0).abs() < 1e-12);
        assert!((gain(&lp, 3e3, 48e3) - 0.5f64.sqrt()).abs() < 1e-9);
        let hp = Biquad::high_pass(48e3, 3e3, 0.5f64.sqrt()).unwrap();
        assert!((gain(&hp, 24e3, 48e3) - 1.0).abs() < 1e-12);
        let bp = Biquad::band_pass(48e3, 3e3, 2.0).unwrap();
        assert!((gain(&bp, 3e3, 48e3) - 1.0).abs() < 1e-12);
        let notch = Biquad::notch(48e3, 3e3, 2.0).unwrap();
        assert!(gain(&notch, 3e3, 48e3) < 1e-12);
        assert_eq!(Biquad::notch(48e3, 30e3, 1.0).unwrap_err().name, "f");
    }
}
