//! [`ControlLoop`]: GNU Radio's second-order `control_loop`, the loop filter its
//! synchronizers share (Costas loop, FLL, clock recovery), with its float32 arithmetic.

use crate::error::{check, Num, ParamError};
use std::f64::consts::PI;

/// The loop gains `(α, β)` for loop bandwidth `loop_bw` (rad/sample) and damping factor
/// `damping`: `α = 4ζB / d`, `β = 4B² / d`, `d = 1 + 2ζB + B²`, rounded as GNU Radio's
/// `control_loop::update_gains` rounds them (`d` summed in double from a float `B²`, the
/// rest in float), so that the same bandwidth gives bit-identical gains.
pub fn loop_gains(loop_bw: f32, damping: f32) -> (f32, f32) {
    let denom =
        (1.0 + 2.0 * f64::from(damping) * f64::from(loop_bw) + f64::from(loop_bw * loop_bw)) as f32;
    (
        4.0 * damping * loop_bw / denom,
        4.0 * loop_bw * loop_bw / denom,
    )
}

/// GNU Radio's `branchless_clip`: `x` limited to `[-clip, clip]`, computed as
/// `(|x + clip| - |x - clip|) / 2` in float, whose rounding the loops' outputs inherit.
pub fn branchless_clip(x: f32, clip: f32) -> f32 {
    0.5 * ((x + clip).abs() - (x - clip).abs())
}

/// GNU Radio's `tanhf_lut`: `tanh` from a 256-entry table over `[-2, 2]` (index
/// `⌊128 + 64x⌋`), ±1 beyond. The Costas loop's SNR-weighted detectors use it; its coarse
/// steps are part of what those loops compute.
pub fn tanh_lut(x: f32) -> f32 {
    if x > 2.0 {
        1.0
    } else if x <= -2.0 {
        -1.0
    } else {
        // Truncation toward zero, as C++'s float-to-int conversion; in [0, 255] here.
        let index = (128.0 + 64.0 * x) as i32;
        tanh_table(index as usize)
    }
}

/// The table's entry `i`: `tanh(-2 + 4i/255)` (GNU Radio prints it to 8 digits; the f32
/// nearest the exact value is within one unit in the last place of its entry).
fn tanh_table(i: usize) -> f32 {
    (-2.0 + 4.0 * i as f64 / 255.0).tanh() as f32
}

/// A second-order loop filter as GNU Radio's `control_loop`: a phase and a frequency driven
/// by an error, `f += β·e`, `φ += f + α·e`, the phase kept in `[-2π, 2π]` and the frequency
/// in `[min_freq, max_freq]` (rad/sample). Critically damped (`ζ = √2/2`) unless
/// [`set_damping_factor`](Self::set_damping_factor) says otherwise; gains from
/// [`loop_gains`]. All state is float32 and every step rounds as GNU Radio's does.
///
/// ```
/// use radioflow_dsp::ControlLoop;
/// // Tracking a carrier 0.02 rad/sample off, the error the phase difference's sine.
/// let mut l = ControlLoop::new(0.05, 1.0, -1.0)?;
/// let mut carrier = 0.0f32;
/// for _ in 0..2000 {
///     carrier += 0.02;
///     l.advance((carrier - l.phase()).sin());
/// }
/// assert!((l.frequency() - 0.02).abs() < 1e-4);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ControlLoop {
    phase: f32,
    freq: f32,
    max_freq: f32,
    min_freq: f32,
    damping: f32,
    loop_bw: f32,
    alpha: f32,
    beta: f32,
}

impl ControlLoop {
    /// A loop of bandwidth `loop_bw` (rad/sample, at least 0) keeping its frequency in
    /// `[min_freq, max_freq]`, at phase and frequency 0.
    ///
    /// # Errors
    /// If `loop_bw` is negative or not finite, or the frequency range is not finite.
    pub fn new(loop_bw: f32, max_freq: f32, min_freq: f32) -> Result<Self, ParamError> {
        check(max_freq.is_finite(), "max_freq", || {
            format!("{} must be finite", Num::from(max_freq))
        })?;
        check(min_freq.is_finite(), "min_freq", || {
            format!("{} must be finite", Num::from(min_freq))
        })?;
        let mut l = Self {
            phase: 0.0,
            freq: 0.0,
            max_freq,
            min_freq,
            damping: 2f32.sqrt() / 2.0,
            loop_bw: 0.0,
            alpha: 0.0,
            beta: 0.0,
        };
        l.set_loop_bandwidth(loop_bw)?;
        Ok(l)
    }

    /// Sets the loop bandwidth and recomputes the gains (GNU Radio's `set_loop_bandwidth`).
    ///
    /// # Errors
    /// If `loop_bw` is negative or not finite (GNU Radio refuses a negative one too).
    pub fn set_loop_bandwidth(&mut self, loop_bw: f32) -> Result<(), ParamError> {
        check(loop_bw.is_finite() && loop_bw >= 0.0, "loop_bw", || {
            format!("{} must be finite and at least 0", Num::from(loop_bw))
        })?;
        self.loop_bw = loop_bw;
        (self.alpha, self.beta) = loop_gains(loop_bw, self.damping);
        Ok(())
    }

    /// Sets the damping factor and recomputes the gains.
    ///
    /// # Errors
    /// If `damping` is negative or not finite.
    pub fn set_damping_factor(&mut self, damping: f32) -> Result<(), ParamError> {
        check(damping.is_finite() && damping >= 0.0, "damping", || {
            format!("{} must be finite and at least 0", Num::from(damping))
        })?;
        self.damping = damping;
        (self.alpha, self.beta) = loop_gains(self.loop_bw, damping);
        Ok(())
    }

    /// One step: the frequency and phase updated by `error`, then the phase wrapped into
    /// `[-2π, 2π]` and the frequency limited (GNU Radio's `advance_loop`, `phase_wrap`,
    /// `frequency_limit` in that order).
    #[inline]
    pub fn advance(&mut self, error: f32) {
        self.freq += self.beta * error;
        self.phase = self.phase + self.freq + self.alpha * error;
        // GNU Radio compares with and subtracts the double 2π, rounding back to float.
        while f64::from(self.phase) > 2.0 * PI {
            self.phase = (f64::from(self.phase) - 2.0 * PI) as f32;
        }
        while f64::from(self.phase) < -2.0 * PI {
            self.phase = (f64::from(self.phase) + 2.0 * PI) as f32;
        }
        if self.freq > self.max_freq {
            self.freq = self.max_freq;
        } else if self.freq < self.min_freq {
            self.freq = self.min_freq;
        }
    }

    /// The phase, in radians.
    pub fn phase(&self) -> f32 {
        self.phase
    }

    /// Sets the phase (a `phase_est` tag does).
    pub fn set_phase(&mut self, phase: f32) {
        self.phase = phase;
    }

    /// The frequency, in rad/sample.
    pub fn frequency(&self) -> f32 {
        self.freq
    }

    /// The gains `(α, β)`.
    pub fn gains(&self) -> (f32, f32) {
        (self.alpha, self.beta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_are_the_closed_form_within_float_rounding() {
        for (bw, z) in [(0.0628f32, 0.5f32), (0.01, 64.0), (1.0, 1.0), (0.0, 0.7)] {
            let (a, b) = loop_gains(bw, z);
            let (bw, z) = (f64::from(bw), f64::from(z));
            let d = 1.0 + 2.0 * z * bw + bw * bw;
            assert!((f64::from(a) - 4.0 * z * bw / d).abs() <= 1e-6 * (1.0 + 4.0 * z * bw / d));
            assert!((f64::from(b) - 4.0 * bw * bw / d).abs() <= 1e-6);
        }
    }

    #[test]
    fn the_table_tanh_is_within_its_step_of_tanh() {
        for i in -300..300 {
            let x = i as f32 / 100.0;
            let exact = x.tanh();
            // One table step is 4/255 in x, and tanh' ≤ 1.
            assert!((tanh_lut(x) - exact).abs() <= 4.0 / 255.0 + 0.04, "{x}");
        }
        assert_eq!(tanh_lut(2.5), 1.0);
        assert_eq!(tanh_lut(-2.0), -1.0);
        assert!((tanh_lut(-1.999) - (-2f32).tanh()).abs() < 1e-6);
    }

    #[test]
    fn clip_limits_and_passes() {
        assert_eq!(branchless_clip(3.0, 1.5), 1.5);
        assert_eq!(branchless_clip(-3.0, 1.5), -1.5);
        assert!((branchless_clip(0.3, 1.0) - 0.3).abs() < 1e-7);
    }

    #[test]
    fn a_constant_error_ramps_the_frequency_to_its_limit_and_wraps_the_phase() {
        let mut l = ControlLoop::new(0.2, 0.5, -0.25).unwrap();
        let (a, b) = l.gains();
        l.advance(1.0);
        assert_eq!(l.frequency(), b);
        assert_eq!(l.phase(), b + a);
        for _ in 0..1000 {
            l.advance(1.0);
            assert!(l.phase().abs() <= 2.0 * std::f32::consts::PI + 1e-6);
        }
        assert_eq!(l.frequency(), 0.5);
        for _ in 0..1000 {
            l.advance(-1.0);
        }
        assert_eq!(l.frequency(), -0.25);
        assert_eq!(
            ControlLoop::new(-0.1, 1.0, -1.0).unwrap_err().name,
            "loop_bw"
        );
    }
}
