//! [`ClockRecoveryMm`]: GNU Radio's Mueller and Müller clock recovery (`clock_recovery_mm_ff`).

use radioflow_dsp::{branchless_clip, FirSample, MmseInterpolator, ParamError};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;

/// Taps of the interpolator: each output reads this many inputs from its position.
const NTAPS: usize = 8;

/// The item type of [`ClockRecoveryMm`], with its timing error detector: GNU Radio's
/// `clock_recovery_mm_ff` for `f32`, `clock_recovery_mm_cc` for `Complex32`.
pub trait MmSample: Item + FirSample {
    /// Samples before the current input that an interpolation window starts at (GNU Radio's
    /// `history() - 1`; zeros before the stream).
    const HISTORY: usize;
    /// Inputs an output needs beyond its window's 8 and 1 (GNU Radio's `FUDGE`).
    const FUDGE: usize;
    /// The smallest `omega` GNU Radio takes (`_ff`: 1; `_cc`: anything above 0).
    fn omega_ok(omega: f32) -> bool;
    /// The detector's error for the new output `y`, `last` holding the detector's state
    /// (its previous outputs and decisions), updated.
    fn error(last: &mut [Self; 4], y: Self) -> f32;
}

impl MmSample for f32 {
    const HISTORY: usize = 0;
    const FUDGE: usize = 0;
    fn omega_ok(omega: f32) -> bool {
        omega >= 1.0
    }
    fn error(last: &mut [f32; 4], y: f32) -> f32 {
        let slice = |s: f32| if s < 0.0 { -1.0 } else { 1.0 };
        let e = slice(last[0]) * y - slice(y) * last[0];
        last[0] = y;
        e
    }
}

impl MmSample for Complex32 {
    const HISTORY: usize = 2;
    const FUDGE: usize = 16;
    fn omega_ok(omega: f32) -> bool {
        omega > 0.0
    }
    /// `last` is `[p_2T, p_1T, c_2T, c_1T]`: the two previous outputs and their decisions
    /// (GNU Radio's 0° slicer: 1 where a part is positive, else 0); the error
    /// `re((p_0 - p_2T)·conj(c_1T) - (c_0 - c_2T)·conj(p_1T))`, clipped to ±1.
    fn error(last: &mut [Complex32; 4], y: Complex32) -> f32 {
        let [p2, p1, c2, c1] = *last;
        let c0 = Complex32::new(
            if y.re > 0.0 { 1.0 } else { 0.0 },
            if y.im > 0.0 { 1.0 } else { 0.0 },
        );
        let x = (c0 - c2) * p1.conj();
        let v = (y - p2) * c1.conj();
        *last = [p1, y, c1, c0];
        branchless_clip((v - x).re, 1.0)
    }
}

/// Symbol timing recovery by Mueller and Müller's detector (GNU Radio 3.10's
/// `clock_recovery_mm_ff` and `clock_recovery_mm_cc`, the GRC block
/// `digital_clock_recovery_mm_xx`), step for step as GNU Radio: each output is the input
/// interpolated at the fractional position `mu` by GNU Radio's 8-tap MMSE interpolator; the
/// detector's error `e` ([`MmSample::error`]: real, `sign(last)·out - sign(out)·last`;
/// complex, on 0° decisions, clipped to ±1) moves `omega` by `gain_omega·e` (kept within
/// `omega_relative_limit·omega` of the initial `omega`) and the position by
/// `omega + gain_mu·e`. The complex variant's window starts 2 samples before the current
/// input (zeros before the stream), as its history does in GNU Radio.
///
/// Like GNU Radio within a work call, an output needs its window's 8 inputs and one more
/// (complex: 16 more), so the last inputs of a stream make none (GNU Radio may stop an output
/// or two earlier: it calls work only with `⌈omega + 8⌉` inputs, complex 16 more). A tag
/// moves to the first output whose window starts at or after it. GNU Radio's complex block
/// has an optional second output, the error, which its GRC block does not offer: not here.
///
/// # Errors
/// `omega` below 1 (real) or not above 0 (complex), a negative gain, `mu` outside [0, 1] or
/// `omega_relative_limit` negative, naming the parameter.
#[library_block(
    id = "clock_recovery_mm",
    dtypes = [Float32, Complex32],
    summary = "Symbol timing recovery by Mueller and Müller's detector and GNU Radio's MMSE interpolator (GNU Radio's clock_recovery_mm_ff and _cc).",
    make = Self::new(omega, gain_omega, mu, gain_mu, omega_relative_limit).map_err(|e| Refused::param(e.name, e.reason))
)]
#[param(omega: f32, example = 2.0, doc = "the initial samples per symbol: at least 1 (float), above 0 (complex)")]
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
    /// The detector's state.
    last: [T; 4],
    /// The `T::HISTORY` inputs before the current one.
    before: [T; 2],
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
        if !T::omega_ok(omega) || !omega.is_finite() {
            return Err(ParamError::new(
                "omega",
                format!("is {omega}, must be at least 1 (float) or above 0 (complex)"),
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
            last: [T::default(); 4],
            before: [T::default(); 2],
            skip: 0,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        let avail = self.input.slice().len();
        if self.skip > 0 {
            let n = self.skip.min(avail);
            self.keep_before(n);
            // Tags on skipped inputs go to the next output.
            self.pass_tags(n, self.output.offset(), None);
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
        let (from, to) = (self.input.offset(), self.output.offset());
        let room = self.output.slice().len();
        let mut tags = self.input.tags().iter().peekable();
        let (mut ii, mut oo) = (0usize, 0usize);
        let mut passed = None;
        let h = T::HISTORY;
        // GNU Radio's `ii < ninput - ntaps - FUDGE`, its input counting the history.
        // The slices are taken anew for each output so that tags can be added as they are
        // passed.
        while oo < room && ii + NTAPS + T::FUDGE < avail + h {
            let y = if ii >= h {
                self.interp
                    .interpolate(&self.input.slice()[ii - h..], self.mu)
            } else {
                // The window starts in the samples before this call's.
                let mut w = [T::default(); NTAPS];
                let x = self.input.slice();
                for (k, v) in w.iter_mut().enumerate() {
                    let at = ii + k;
                    *v = if at < h {
                        self.before[2 - h + at]
                    } else {
                        x[at - h]
                    };
                }
                self.interp.interpolate(&w, self.mu)
            };
            self.output.slice()[oo] = y;
            let mm = T::error(&mut self.last, y);
            self.omega += self.gain_omega * mm;
            self.omega =
                self.omega_mid + branchless_clip(self.omega - self.omega_mid, self.omega_lim);
            self.mu = self.mu + self.omega + self.gain_mu * mm;
            // Tags on the inputs this output's window starts at or has passed.
            while let Some(t) = tags.next_if(|t| t.offset <= from + ii as u64) {
                self.output.add_tag_at(to + oo as u64, t);
            }
            passed = Some(from + ii as u64);
            let step = self.mu.floor();
            ii += step as usize;
            self.mu -= step;
            oo += 1;
        }
        if oo == 0 {
            drop(tags);
            return Ok(if self.input.is_finished() {
                WorkStatus::Done
            } else {
                WorkStatus::Continue
            });
        }
        let consumed = ii.min(avail);
        self.skip = ii - consumed;
        drop(tags);
        self.keep_before(consumed);
        // Tags the last step passed go to the next output.
        self.pass_tags(consumed, to + oo as u64, passed);
        self.input.consume(consumed);
        self.output.produce(oo);
        Ok(WorkStatus::Continue)
    }

    /// Puts the tags on the next `n` inputs not yet passed on at output `at`.
    /// `done`: the tags up to this offset were passed on already.
    fn pass_tags(&mut self, n: usize, at: u64, done: Option<u64>) {
        let from = self.input.offset();
        for t in self.input.tags() {
            if t.offset >= from + n as u64 {
                break;
            }
            if done.is_none_or(|d| t.offset > d) {
                self.output.add_tag_at(at, t);
            }
        }
    }

    /// Keeps the last 2 of the inputs before the next `n` are consumed and those `n`.
    fn keep_before(&mut self, n: usize) {
        let x = &self.input.slice()[..n];
        for &v in x.iter().rev().take(2).rev() {
            self.before = [self.before[1], v];
        }
    }
}
