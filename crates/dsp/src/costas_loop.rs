//! [`CostasLoop`]: GNU Radio's Costas loop (`costas_loop_cc`), carrier phase recovery for
//! BPSK, QPSK and 8PSK.

use crate::control_loop::{branchless_clip, tanh_lut, ControlLoop};
use crate::error::{check, ParamError};
use num_complex::Complex32;

/// Carrier recovery for PSK as GNU Radio's `costas_loop_cc`, step for step in float32: each
/// sample is turned by the loop's phase (`x · e^{-jφ}`), a decision-directed phase detector
/// of order 2 (BPSK: `Re·Im`), 4 (QPSK) or 8 (8PSK, Huang et al.'s squashed QPSK) gives the
/// error, clipped to ±1, and a [`ControlLoop`] (frequency within ±1 rad/sample) follows it.
/// With `use_snr` the detectors weigh the decisions by `tanh(SNR·x)` (GNU Radio's table
/// `tanh`, [`tanh_lut`]), the SNR being `|y|²` over the noise floor set by
/// [`set_noise_db`](Self::set_noise_db) (1 at first).
///
/// ```
/// use radioflow_dsp::{Complex32, CostasLoop};
/// // BPSK symbols turned by a carrier 0.01 rad/sample off.
/// let x: Vec<Complex32> = (0..2000)
///     .map(|n| Complex32::from_polar(if n % 3 == 0 { 1.0 } else { -1.0 }, 0.01 * n as f32 + 0.5))
///     .collect();
/// let mut costas = CostasLoop::new(0.05, 2, false)?;
/// let mut y = vec![Complex32::default(); x.len()];
/// costas.process(&x, &mut y, None, None, None);
/// assert!((costas.frequency() - 0.01).abs() < 1e-3);
/// assert!(y[1999].im.abs() < 0.05 && (y[1999].re.abs() - 1.0).abs() < 0.05);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CostasLoop {
    control: ControlLoop,
    order: u32,
    use_snr: bool,
    noise: f32,
    error: f32,
}

impl CostasLoop {
    /// A loop of bandwidth `loop_bw` (rad/sample) for constellations of `order` 2, 4 or 8,
    /// the detectors weighted by the SNR where `use_snr`.
    ///
    /// # Errors
    /// If `order` is not 2, 4 or 8, or `loop_bw` is negative or not finite.
    pub fn new(loop_bw: f32, order: u32, use_snr: bool) -> Result<Self, ParamError> {
        check(matches!(order, 2 | 4 | 8), "order", || {
            format!("{order}: must be 2, 4 or 8")
        })?;
        Ok(Self {
            control: ControlLoop::new(loop_bw, 1.0, -1.0)?,
            order,
            use_snr,
            noise: 1.0,
            error: 0.0,
        })
    }

    /// Sets the noise floor from a level in dB (GNU Radio's `noise` message:
    /// `10^(dB/10)`, in float).
    pub fn set_noise_db(&mut self, db: f32) {
        self.noise = 10f32.powf(db / 10.0);
    }

    /// Sets the loop bandwidth.
    ///
    /// # Errors
    /// If it is negative or not finite.
    pub fn set_loop_bandwidth(&mut self, loop_bw: f32) -> Result<(), ParamError> {
        self.control.set_loop_bandwidth(loop_bw)
    }

    /// Sets the phase (a `phase_est` tag does).
    pub fn set_phase(&mut self, phase: f32) {
        self.control.set_phase(phase);
    }

    /// The loop's phase, in radians.
    pub fn phase(&self) -> f32 {
        self.control.phase()
    }

    /// The loop's frequency, in rad/sample.
    pub fn frequency(&self) -> f32 {
        self.control.frequency()
    }

    /// The last phase error.
    pub fn error(&self) -> f32 {
        self.error
    }

    /// The loop gains `(α, β)`.
    pub fn gains(&self) -> (f32, f32) {
        self.control.gains()
    }

    fn detect(&self, y: Complex32) -> f32 {
        let sign = |v: f32| if v > 0.0 { 1.0f32 } else { -1.0 };
        // √2 - 1: the squashed QPSK's slope.
        let k = 2f32.sqrt() - 1.0;
        if self.use_snr {
            let snr = y.norm_sqr() / self.noise;
            let (tr, ti) = (tanh_lut(snr * y.re), tanh_lut(snr * y.im));
            match self.order {
                2 => tr * y.im,
                4 => tr * y.im - ti * y.re,
                _ if y.re.abs() >= y.im.abs() => tr * y.im - ti * y.re * k,
                _ => tr * y.im * k - ti * y.re,
            }
        } else {
            match self.order {
                2 => y.re * y.im,
                4 => sign(y.re) * y.im - sign(y.im) * y.re,
                _ if y.re.abs() >= y.im.abs() => sign(y.re) * y.im - sign(y.im) * y.re * k,
                _ => sign(y.re) * y.im * k - sign(y.im) * y.re,
            }
        }
    }

    /// One sample: turned by the loop's phase, then the loop steps. Returns the turned
    /// sample.
    #[inline]
    pub fn step(&mut self, x: Complex32) -> Complex32 {
        let (s, c) = (-self.control.phase()).sin_cos();
        let y = x * Complex32::new(c, s);
        self.error = branchless_clip(self.detect(y), 1.0);
        self.control.advance(self.error);
        y
    }

    /// Turns `input` into the first `input.len()` samples of `output`; `frequency`,
    /// `phase` and `error`, where given, get the loop's frequency, phase and error after each
    /// sample (GNU Radio's optional outputs).
    ///
    /// # Panics
    /// If an output is shorter than `input`.
    pub fn process(
        &mut self,
        input: &[Complex32],
        output: &mut [Complex32],
        mut frequency: Option<&mut [f32]>,
        mut phase: Option<&mut [f32]>,
        mut error: Option<&mut [f32]>,
    ) {
        for (i, (&x, o)) in input.iter().zip(&mut output[..input.len()]).enumerate() {
            *o = self.step(x);
            if let Some(f) = frequency.as_deref_mut() {
                f[i] = self.control.frequency();
            }
            if let Some(p) = phase.as_deref_mut() {
                p[i] = self.control.phase();
            }
            if let Some(e) = error.as_deref_mut() {
                e[i] = self.error;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PSK of `order` points, turned by `offset` rad/sample.
    fn psk(order: u32, n: usize, offset: f32) -> Vec<Complex32> {
        let mut seed = 7u32;
        (0..n)
            .map(|i| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let k = (seed >> 16) % order;
                let base = if order == 4 {
                    std::f32::consts::FRAC_PI_4
                } else {
                    0.0
                };
                let a = base + 2.0 * std::f32::consts::PI * k as f32 / order as f32;
                Complex32::from_polar(1.0, a + offset * i as f32)
            })
            .collect()
    }

    #[test]
    fn every_order_locks_with_and_without_snr_weights() {
        for order in [2, 4, 8] {
            for use_snr in [false, true] {
                let x = psk(order, 4000, 0.005);
                let mut c = CostasLoop::new(0.02, order, use_snr).unwrap();
                let mut y = vec![Complex32::default(); x.len()];
                let mut f = vec![0.0; x.len()];
                c.process(&x, &mut y, Some(&mut f), None, None);
                // The 8PSK detector's decisions jitter the frequency: its mean is the offset.
                let mean = f[3000..].iter().sum::<f32>() / 1000.0;
                assert!(
                    (mean - 0.005).abs() < 2e-4,
                    "order {order} snr {use_snr}: {mean}"
                );
                // GNU Radio's 8PSK detector with SNR weights wants magnitudes above 1: at 1 its
                // error stays biased while the frequency is right.
                if (order, use_snr) != (8, true) {
                    assert!(c.error().abs() < 0.05, "order {order} snr {use_snr}");
                }
            }
        }
    }

    #[test]
    fn bad_orders_are_refused() {
        assert_eq!(CostasLoop::new(0.1, 3, false).unwrap_err().name, "order");
        assert_eq!(CostasLoop::new(-0.1, 2, false).unwrap_err().name, "loop_bw");
    }
}
