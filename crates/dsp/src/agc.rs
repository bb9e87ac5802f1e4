//! [`Agc`]: automatic gain control toward a reference amplitude.

use crate::error::{check, Num, ParamError};
use crate::fir::FirSample;
use num_complex::Complex32;

/// An automatic gain control loop, as GNU Radio's `agc_cc` / `agc_ff`: each sample is scaled
/// by the current gain, then the gain moves by `rate · (reference - |output|)`, limited to
/// `max_gain` when one is set. Arithmetic in `f32` in GNU Radio's order, so the outputs equal
/// its own.
///
/// ```
/// use radioflow_dsp::{Agc, Complex32};
/// let mut agc = Agc::new(1e-2, 1.0, 1.0, None)?;
/// let x = vec![Complex32::new(0.0, 0.25); 5000];
/// let mut y = vec![Complex32::default(); 5000];
/// agc.process(&x, &mut y);
/// assert!((y[4999].norm() - 1.0).abs() < 1e-3); // brought up to the reference
/// assert!((agc.gain() - 4.0).abs() < 1e-2);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Agc {
    rate: f32,
    reference: f32,
    gain: f32,
    /// 0 for no limit (GNU Radio's convention).
    max_gain: f32,
}

impl Agc {
    /// A loop adapting at `rate` (per sample) toward output amplitude `reference`, starting
    /// at `gain`, the gain never above `max_gain` if given.
    ///
    /// # Errors
    /// If `rate` is not in `(0, 1]`, or `reference`, `gain` or `max_gain` is not finite and
    /// positive.
    pub fn new(
        rate: f32,
        reference: f32,
        gain: f32,
        max_gain: Option<f32>,
    ) -> Result<Self, ParamError> {
        check(rate > 0.0 && rate <= 1.0, "rate", || {
            format!("{} must be in (0, 1]", Num::from(rate))
        })?;
        let positive = |v: f32| v.is_finite() && v > 0.0;
        check(positive(reference), "reference", || {
            format!("{} must be finite and positive", Num::from(reference))
        })?;
        check(positive(gain), "gain", || {
            format!("{} must be finite and positive", Num::from(gain))
        })?;
        if let Some(m) = max_gain {
            check(positive(m), "max_gain", || {
                format!("{m} must be finite and positive")
            })?;
        }
        Ok(Self {
            rate,
            reference,
            gain,
            max_gain: max_gain.unwrap_or(0.0),
        })
    }

    /// The current gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Sets the adaptation rate (GNU Radio's `set_rate`).
    pub fn set_rate(&mut self, rate: f32) {
        self.rate = rate;
    }

    /// Sets the output amplitude aimed at (GNU Radio's `set_reference`).
    pub fn set_reference(&mut self, reference: f32) {
        self.reference = reference;
    }

    /// Sets the current gain (GNU Radio's `set_gain`).
    pub fn set_gain(&mut self, gain: f32) {
        self.gain = gain;
    }

    /// Sets the largest gain, 0 for none (GNU Radio's `set_max_gain`).
    pub fn set_max_gain(&mut self, max_gain: f32) {
        self.max_gain = max_gain;
    }

    /// Scales `f32` or `Complex32` samples into the first `input.len()` of `output`
    /// ([`process_real`](Self::process_real) or [`process`](Self::process)).
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
            for (o, i) in o.iter_mut().zip(i) {
                *o = i * self.gain;
            }
            self.update(magnitude(o));
        }
    }

    /// Scales complex `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            *o = x * self.gain;
            let magnitude = (o.re * o.re + o.im * o.im).sqrt();
            self.update(magnitude);
        }
    }

    /// Scales real `input` into the first `input.len()` samples of `output` (`agc_ff`).
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process_real(&mut self, input: &[f32], output: &mut [f32]) {
        for (o, &x) in output[..input.len()].iter_mut().zip(input) {
            *o = x * self.gain;
            self.update(o.abs());
        }
    }

    #[inline]
    fn update(&mut self, magnitude: f32) {
        self.gain += self.rate * (self.reference - magnitude);
        if self.max_gain > 0.0 && self.gain > self.max_gain {
            self.gain = self.max_gain;
        }
    }
}

/// `|x|` of a sample's components, in f32 as GNU Radio: `sqrt(re·re + im·im)` or `fabsf`.
fn magnitude(c: &[f32]) -> f32 {
    match c {
        [re, im] => (re * re + im * im).sqrt(),
        [x] => x.abs(),
        _ => unreachable!("a sample has one or two components"),
    }
}

/// GNU Radio's `agc2_cc` / `agc2_ff`: as [`Agc`], with the gain moving by `attack_rate`
/// where the output's error is large and `decay_rate` otherwise. Each sample is scaled by the
/// gain; then with `e = |output| - reference` the gain moves by `-e · rate`, `rate` being
/// `attack_rate` where `e > gain` (complex; `|e| > gain` real, as GNU Radio's two kernels
/// differ), then is set to 1e-4 where it fell below 0 and limited to `max_gain` where that is
/// positive. Arithmetic in `f32` in GNU Radio's order, so the outputs equal its own.
///
/// ```
/// use radioflow_dsp::Agc2;
/// let mut agc = Agc2::new(0.1, 0.01, 1.0, 1.0, 0.0)?;
/// let x = vec![0.25f32; 3000];
/// let mut y = vec![0.0; 3000];
/// agc.process_samples(&x, &mut y);
/// assert!((y[2999] - 1.0).abs() < 1e-3);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Agc2 {
    attack_rate: f32,
    decay_rate: f32,
    reference: f32,
    gain: f32,
    /// 0 or less for no limit (GNU Radio's convention).
    max_gain: f32,
}

impl Agc2 {
    /// A loop with these rates toward output amplitude `reference`, starting at `gain`, the
    /// gain never above `max_gain` where that is positive.
    ///
    /// # Errors
    /// If a value is not finite (the error names it).
    pub fn new(
        attack_rate: f32,
        decay_rate: f32,
        reference: f32,
        gain: f32,
        max_gain: f32,
    ) -> Result<Self, ParamError> {
        for (name, v) in [
            ("attack_rate", attack_rate),
            ("decay_rate", decay_rate),
            ("reference", reference),
            ("gain", gain),
            ("max_gain", max_gain),
        ] {
            check(v.is_finite(), name, || {
                format!("{} must be finite", Num::from(v))
            })?;
        }
        Ok(Self {
            attack_rate,
            decay_rate,
            reference,
            gain,
            max_gain,
        })
    }

    /// The current gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Sets the attack rate (GNU Radio's `set_attack_rate`).
    pub fn set_attack_rate(&mut self, rate: f32) {
        self.attack_rate = rate;
    }

    /// Sets the decay rate (GNU Radio's `set_decay_rate`).
    pub fn set_decay_rate(&mut self, rate: f32) {
        self.decay_rate = rate;
    }

    /// Sets the output amplitude aimed at (GNU Radio's `set_reference`).
    pub fn set_reference(&mut self, reference: f32) {
        self.reference = reference;
    }

    /// Sets the current gain (GNU Radio's `set_gain`).
    pub fn set_gain(&mut self, gain: f32) {
        self.gain = gain;
    }

    /// Sets the largest gain, 0 or less for none (GNU Radio's `set_max_gain`).
    pub fn set_max_gain(&mut self, max_gain: f32) {
        self.max_gain = max_gain;
    }

    /// Scales `f32` or `Complex32` samples into the first `input.len()` of `output`.
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
            for (o, i) in o.iter_mut().zip(i) {
                *o = i * self.gain;
            }
            let error = magnitude(o) - self.reference;
            let large = if T::COMPONENTS == 2 {
                error > self.gain
            } else {
                error.abs() > self.gain
            };
            let rate = if large {
                self.attack_rate
            } else {
                self.decay_rate
            };
            self.gain -= error * rate;
            if self.gain < 0.0 {
                self.gain = 10e-5;
            }
            if self.max_gain > 0.0 && self.gain > self.max_gain {
                self.gain = self.max_gain;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn equals_gnu_radios_agc_cc() {
        let x = golden_complex("tone");
        for (max, key) in [(None, "agc"), (Some(2.0), "agc_max2")] {
            let mut agc = Agc::new(1e-2, 1.0, 1.0, max).unwrap();
            let mut y = vec![Complex32::default(); x.len()];
            agc.process(&x, &mut y);
            // Same f32 operations in the same order (the golden file holds 9 digits).
            assert_close_complex(&y, &golden_complex(key), 1e-6, key);
        }
    }

    #[test]
    fn equals_gnu_radios_agc_ff() {
        let x: Vec<f32> = golden_real("real").iter().map(|v| 0.3 * v).collect();
        let mut agc = Agc::new(1e-2, 1.0, 1.0, None).unwrap();
        let mut y = vec![0.0; x.len()];
        agc.process_real(&x, &mut y);
        assert_close_real(&y, &golden_real("agc_ff"), 1e-6, "agc_ff");
    }

    #[test]
    fn agc2_matches_gnu_radio_s_recurrence_in_f64() {
        // GNU Radio's agc2_ff and agc2_cc kernels written out, in f64.
        let x = random_complex(2, 2000);
        for complex in [false, true] {
            let mut agc = Agc2::new(0.2, 0.01, 0.7, 3.0, 4.0).unwrap();
            let (mut g, mut want) = (3.0f64, Vec::new());
            for z in &x {
                let (re, im) = (f64::from(z.re) * g, f64::from(z.im) * g);
                let e = if complex { re.hypot(im) } else { re.abs() } - 0.7;
                let large = if complex { e > g } else { e.abs() > g };
                g -= e * if large { 0.2 } else { 0.01 };
                if g < 0.0 {
                    g = 1e-4;
                }
                g = g.min(4.0);
                want.push(Complex32::new(re as f32, im as f32));
            }
            if complex {
                let mut y = vec![Complex32::default(); x.len()];
                agc.process_samples(&x, &mut y);
                assert_close_complex(&y, &want, 1e-3, "agc2_cc");
            } else {
                let re: Vec<f32> = x.iter().map(|z| z.re).collect();
                let mut y = vec![0.0; x.len()];
                agc.process_samples(&re, &mut y);
                let want: Vec<f32> = want.iter().map(|z| z.re).collect();
                assert_close_real(&y, &want, 1e-3, "agc2_ff");
            }
        }
        assert_eq!(
            Agc2::new(0.1, f32::NAN, 1.0, 1.0, 0.0).unwrap_err().name,
            "decay_rate"
        );
    }

    #[test]
    fn real_loop_matches_the_recurrence() {
        let x = random_real(1, 1000);
        let mut agc = Agc::new(0.05, 0.5, 2.0, Some(3.0)).unwrap();
        let mut y = vec![0.0; x.len()];
        agc.process_real(&x, &mut y);
        let mut g = 2.0f64;
        for (n, (&x, &y)) in x.iter().zip(&y).enumerate() {
            let want = f64::from(x) * g;
            assert!((f64::from(y) - want).abs() < 1e-4, "{n}");
            g = (g + 0.05 * (0.5 - want.abs())).min(3.0);
        }
        assert_eq!(Agc::new(0.0, 1.0, 1.0, None).unwrap_err().name, "rate");
        assert_eq!(
            Agc::new(0.1, 1.0, 1.0, Some(-1.0)).unwrap_err().name,
            "max_gain"
        );
    }
}
