//! [`ClockRecoveryMm`]: GNU Radio's Mueller and Müller clock recovery (`clock_recovery_mm_ff`).

use radioflow_dsp::{branchless_clip, FirSample, MmseInterpolator, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Taps of the interpolator: each output reads this many inputs from its position.
const NTAPS: usize = 8;

/// The item type of [`ClockRecoveryMm`]: real samples (GNU Radio's `clock_recovery_mm_ff`;
/// its complex variant is another algorithm, not built yet).
pub trait MmSample: Item + FirSample {
    /// The sample as a number.
    fn value(self) -> f32;
}

impl MmSample for f32 {
    fn value(self) -> f32 {
        self
    }
}

/// Symbol timing recovery by Mueller and Müller's detector on real samples (GNU Radio 3.10's
/// `clock_recovery_mm_ff`, the GRC block `digital_clock_recovery_mm_xx` of type float), step
/// for step as GNU Radio: each output is the input interpolated at the fractional position
/// `mu` by GNU Radio's 8-tap MMSE interpolator (its window starting at the current input);
/// the error `e = sign(last)·out - sign(out)·last` moves `omega` by `gain_omega·e` (kept
/// within `omega_relative_limit·omega` of the initial `omega`) and the position by
/// `omega + gain_mu·e`. Like GNU Radio within a work call, an output needs the 8 inputs of
/// its window and one more, so the last inputs of a stream make none (GNU Radio may stop an
/// output or two earlier: it calls work only with `⌈omega + 8⌉` inputs). A tag moves to the first output whose
/// window starts at or after it.
///
/// # Errors
/// `omega` below 1, a negative gain, `mu` outside [0, 1] or `omega_relative_limit` negative,
/// naming the parameter.
#[library_block(
    id = "clock_recovery_mm",
    dtypes = [Float32],
    summary = "Symbol timing recovery on real samples by Mueller and Müller's detector and GNU Radio's MMSE interpolator (GNU Radio's clock_recovery_mm_ff).",
    make = Self::new(omega, gain_omega, mu, gain_mu, omega_relative_limit).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(omega: f32, example = 2.0, doc = "the initial samples per symbol, at least 1")]
#[param(gain_omega: f32 = 0.007_656_25, doc = "the gain of the error on omega (GNU Radio's example: 0.25·0.175²)")]
#[param(mu: f32 = 0.5, doc = "the initial fractional position, in [0, 1]")]
#[param(gain_mu: f32 = 0.175, doc = "the gain of the error on the position")]
#[param(omega_relative_limit: f32 = 0.005, doc = "how far omega may move from its initial value, relative to it")]
#[derive(Debug)]
pub struct ClockRecoveryMm<T: MmSample> {
    /// Samples, `omega` per symbol.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// One sample per symbol.
    #[output(name = "out")]
    output: StreamOutput<T>,
    interp: MmseInterpolator,
    mu: f32,
    omega: f32,
    omega_mid: f32,
    omega_lim: f32,
    gain_omega: f32,
    gain_mu: f32,
    last: f32,
    /// Inputs the position has moved past beyond those consumed.
    skip: usize,
}

#[block]
impl<T: MmSample> ClockRecoveryMm<T> {
    /// The recovery loop with GNU Radio's parameters.
    ///
    /// # Errors
    /// See the type's documentation.
    pub fn new(
        omega: f32,
        gain_omega: f32,
        mu: f32,
        gain_mu: f32,
        omega_relative_limit: f32,
    ) -> Result<Self, ParamError> {
        // `(a..).contains` is false for NaN too.
        if !(1.0..).contains(&omega) || !omega.is_finite() {
            return Err(ParamError::new(
                "omega",
                format!("is {omega}, must be at least 1"),
            ));
        }
        for (name, v) in [("gain_omega", gain_omega), ("gain_mu", gain_mu)] {
            if !(0.0..).contains(&v) {
                return Err(ParamError::new(
                    name,
                    format!("is {v}, must not be negative"),
                ));
            }
        }
        if !(0.0..=1.0).contains(&mu) {
            return Err(ParamError::new("mu", format!("is {mu}, outside [0, 1]")));
        }
        if !(0.0..).contains(&omega_relative_limit) {
            return Err(ParamError::new(
                "omega_relative_limit",
                format!("is {omega_relative_limit}, must not be negative"),
            ));
        }
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new(),
            interp: MmseInterpolator::new(),
            mu,
            omega,
            omega_mid: omega,
            omega_lim: omega * omega_relative_limit,
            gain_omega,
            gain_mu,
            last: 0.0,
            skip: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let avail = self.input.slice().len();
        if self.skip > 0 {
            let n = self.skip.min(avail);
            self.input.consume(n);
            self.skip -= n;
            if self.skip > 0 {
                return Ok(if self.input.is_finished() {
                    WorkStatus::Done
                } else {
                    WorkStatus::Continue
                });
            }
            return Ok(WorkStatus::Continue);
        }
        let slice = |s: f32| if s < 0.0 { -1.0 } else { 1.0 };
        let (from, to) = (self.input.offset(), self.output.offset());
        let room = self.output.slice().len();
        let mut tags = self.input.tags().iter().peekable();
        let (mut ii, mut oo) = (0usize, 0usize);
        // The slices are taken anew for each output so that tags can be added as they are
        // passed.
        while oo < room && ii + NTAPS < avail {
            let y = self.interp.interpolate(&self.input.slice()[ii..], self.mu);
            self.output.slice()[oo] = y;
            let y = y.value();
            let mm = slice(self.last) * y - slice(y) * self.last;
            self.last = y;
            self.omega += self.gain_omega * mm;
            self.omega =
                self.omega_mid + branchless_clip(self.omega - self.omega_mid, self.omega_lim);
            self.mu = self.mu + self.omega + self.gain_mu * mm;
            // Tags on the inputs this output's window starts at or has passed.
            while let Some(t) = tags.next_if(|t| t.offset <= from + ii as u64) {
                self.output
                    .add_tag(to + oo as u64, t.key.clone(), t.value.clone());
            }
            let step = self.mu.floor();
            ii += step as usize;
            self.mu -= step;
            oo += 1;
        }
        if oo == 0 {
            return Ok(if self.input.is_finished() {
                WorkStatus::Done
            } else {
                WorkStatus::Continue
            });
        }
        let consumed = ii.min(avail);
        self.skip = ii - consumed;
        self.input.consume(consumed);
        self.output.produce(oo);
        Ok(WorkStatus::Continue)
    }
}
