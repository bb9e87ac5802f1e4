//! [`FllBandEdge`]: GNU Radio's band-edge frequency-locked loop (`fll_band_edge_cc`).

use crate::control_loop::ControlLoop;
use crate::error::{check, Num, ParamError};
use num_complex::Complex32;
use std::f64::consts::PI;

/// Coarse carrier frequency recovery as GNU Radio's `fll_band_edge_cc`: each sample is
/// turned by the loop's phase (`x · e^{jφ}`), two band-edge filters (a sum of two sincs
/// moved to `±(1 + rolloff)/(2·sps)` cycles/sample, GNU Radio's `design_filter`) take the
/// power at the signal's upper and lower edges, and their difference
/// `|upper|² - |lower|²` drives a [`ControlLoop`] (frequency within ±`2π·2/sps`). The
/// input is read after `filter_size` zeros, as GNU Radio's block reads it after its
/// history, so the outputs are `filter_size` samples late. The filters sum in another order
/// than VOLK's, so the outputs differ from GNU Radio's by float32 rounding.
///
/// ```
/// use radioflow_dsp::{Complex32, FllBandEdge};
/// // A carrier 0.05 rad/sample off: the loop's frequency goes to -0.05 to cancel it.
/// let x: Vec<Complex32> = (0..20_000)
///     .map(|n| Complex32::from_polar(if (n / 4) % 3 == 0 { 1.0 } else { -1.0 }, 0.05 * n as f32))
///     .collect();
/// let mut fll = FllBandEdge::new(4.0, 0.35, 45, 0.05)?;
/// let mut y = vec![Complex32::default(); x.len()];
/// fll.process(&x, &mut y, None, None, None);
/// assert!((fll.frequency() + 0.05).abs() < 0.01, "{}", fll.frequency());
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct FllBandEdge {
    control: ControlLoop,
    upper: Vec<Complex32>,
    lower: Vec<Complex32>,
    /// The last `filter_size` outputs, twice over (a ring whose window is always one slice).
    hist: Vec<Complex32>,
    at: usize,
    /// The last `filter_size` inputs: GNU Radio's block reads its input after
    /// `filter_size` zeros of history, so its outputs come that much late.
    delay: Vec<Complex32>,
    delay_at: usize,
}

impl FllBandEdge {
    /// GNU Radio's `fll_band_edge_cc(samps_per_sym, rolloff, filter_size, bandwidth)`.
    ///
    /// # Errors
    /// If `samps_per_sym` is not above 0, `rolloff` not in `[0, 1]`, `filter_size` 0, or
    /// `bandwidth` negative; the error names the parameter.
    pub fn new(
        samps_per_sym: f32,
        rolloff: f32,
        filter_size: usize,
        bandwidth: f32,
    ) -> Result<Self, ParamError> {
        check(
            samps_per_sym.is_finite() && samps_per_sym > 0.0,
            "samps_per_sym",
            || format!("{} must be above 0", Num::from(samps_per_sym)),
        )?;
        check((0.0..=1.0).contains(&rolloff), "rolloff", || {
            format!("{} must be in [0, 1]", Num::from(rolloff))
        })?;
        check(filter_size > 0, "filter_size", || {
            "must be at least 1".into()
        })?;
        let max = (2.0 * PI * (2.0 / f64::from(samps_per_sym))) as f32;
        let control = ControlLoop::new(bandwidth, max, -max)?;
        let (upper, lower) = design(samps_per_sym, rolloff, filter_size);
        Ok(Self {
            control,
            upper,
            lower,
            hist: vec![Complex32::default(); 2 * filter_size],
            at: 0,
            delay: vec![Complex32::default(); filter_size],
            delay_at: 0,
        })
    }

    /// Sets the loop bandwidth from the next sample on, the phase and frequency kept (GNU
    /// Radio's `set_loop_bandwidth`).
    ///
    /// # Errors
    /// If it is negative or not finite (nothing changes).
    pub fn set_loop_bandwidth(&mut self, loop_bw: f32) -> Result<(), ParamError> {
        self.control.set_loop_bandwidth(loop_bw)
    }

    /// The loop's frequency, in rad/sample.
    pub fn frequency(&self) -> f32 {
        self.control.frequency()
    }

    /// The loop's phase, in radians.
    pub fn phase(&self) -> f32 {
        self.control.phase()
    }

    /// The upper and lower band-edge filters' taps, as GNU Radio's `print_taps` lists them.
    pub fn taps(&self) -> (&[Complex32], &[Complex32]) {
        (&self.upper, &self.lower)
    }

    /// Turns `input` into the first `input.len()` samples of `output`; `frequency`,
    /// `phase` and `error`, where given, get the loop's state after each sample.
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
        let n = self.upper.len();
        for (i, (&new, o)) in input.iter().zip(&mut output[..input.len()]).enumerate() {
            let x = std::mem::replace(&mut self.delay[self.delay_at], new);
            self.delay_at = (self.delay_at + 1) % n;
            let (s, c) = self.control.phase().sin_cos();
            let y = x * Complex32::new(c, s);
            *o = y;
            self.hist[self.at] = y;
            self.hist[self.at + n] = y;
            self.at = (self.at + 1) % n;
            // Oldest first: the newest output meets the first tap.
            let window = &self.hist[self.at..self.at + n];
            let dot = |taps: &[Complex32]| {
                window
                    .iter()
                    .zip(taps.iter().rev())
                    .fold(Complex32::default(), |acc, (w, t)| acc + w * t)
            };
            // GNU Radio's error: the upper filter's power less the lower's (its code names
            // them the other way round).
            let e = dot(&self.upper).norm_sqr() - dot(&self.lower).norm_sqr();
            self.control.advance(e);
            if let Some(f) = frequency.as_deref_mut() {
                f[i] = self.control.frequency();
            }
            if let Some(p) = phase.as_deref_mut() {
                p[i] = self.control.phase();
            }
            if let Some(v) = error.as_deref_mut() {
                v[i] = e;
            }
        }
    }
}

/// GNU Radio's band-edge filters: the baseband `sinc(r·k - ½) + sinc(r·k + ½)` at
/// `k = -M + 2i/sps` (`M = rint(filter_size / sps)`), normalized to sum 1, moved to
/// `±(1 + r)` at `k = (i - N)/(2·sps)`, each list reversed.
fn design(sps: f32, rolloff: f32, filter_size: usize) -> (Vec<Complex32>, Vec<Complex32>) {
    let sinc = |x: f32| {
        if x == 0.0 {
            1.0
        } else {
            let px = std::f32::consts::PI * x;
            px.sin() / px
        }
    };
    let m = (filter_size as f32 / sps).round_ties_even() as i32;
    let bb: Vec<f32> = (0..filter_size)
        .map(|i| {
            let k = (-m as f64 + i as f64 * 2.0 / f64::from(sps)) as f32;
            sinc(rolloff * k - 0.5) + sinc(rolloff * k + 0.5)
        })
        .collect();
    let power: f32 = bb.iter().sum();
    let half = ((filter_size as f64 - 1.0) / 2.0) as i64;
    let mut upper = vec![Complex32::default(); filter_size];
    let mut lower = vec![Complex32::default(); filter_size];
    for (i, b) in bb.iter().enumerate() {
        let tap = b / power;
        let k = (i as i64 - half) as f64 / (2.0 * f64::from(sps));
        let a = (2.0 * PI * (1.0 + f64::from(rolloff)) * k) as f32;
        lower[filter_size - i - 1] = Complex32::from_polar(tap, -a);
        upper[filter_size - i - 1] = Complex32::from_polar(tap, a);
    }
    (upper, lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_are_gnu_radio_s() {
        // GNU Radio 3.10's print_taps for (4, 0.35, 9): the upper filter, to its 5 digits.
        let want = [
            (-3.7166e-02, -7.2942e-02),
            (-1.0227e-01, -4.0181e-03),
            (-6.2188e-02, 1.0148e-01),
            (6.3480e-02, 1.1335e-01),
            (1.3370e-01, 0.0),
        ];
        let f = FllBandEdge::new(4.0, 0.35, 9, 0.01).unwrap();
        let (up, lo) = f.taps();
        for (i, &(re, im)) in want.iter().enumerate() {
            assert!(
                (up[i].re - re).abs() < 1e-5 && (up[i].im - im).abs() < 1e-5,
                "{i}: {}",
                up[i]
            );
            assert!((lo[i] - up[i].conj()).norm() < 1e-6);
        }
    }

    #[test]
    fn bad_parameters_are_named() {
        assert_eq!(
            FllBandEdge::new(0.0, 0.35, 9, 0.01).unwrap_err().name,
            "samps_per_sym"
        );
        assert_eq!(
            FllBandEdge::new(4.0, 1.5, 9, 0.01).unwrap_err().name,
            "rolloff"
        );
        assert_eq!(
            FllBandEdge::new(4.0, 0.35, 0, 0.01).unwrap_err().name,
            "filter_size"
        );
        assert_eq!(
            FllBandEdge::new(4.0, 0.35, 9, -1.0).unwrap_err().name,
            "loop_bw"
        );
    }
}
