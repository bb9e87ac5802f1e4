//! [`InterpResampler`]: the interpolators of GNU Radio's symbol synchronizer.

use crate::{FirSample, MmseInterpolator, ParamError};

/// GNU Radio's interpolating resamplers (`digital.IR_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResamplerKind {
    /// The 8-tap MMSE interpolator, delays quantized to 1/128 (`IR_MMSE_8TAP`).
    Mmse8Tap,
    /// The same MMSE filters as a bank of `nfilters` arms (`IR_PFB_NO_MF`).
    PfbMmse,
    /// A bank of `nfilters` arms of the given (matched) prototype filter (`IR_PFB_MF`).
    PfbMatchedFilter,
}

impl ResamplerKind {
    /// GNU Radio's names and enum numbers.
    pub const ALL: [(Self, &'static str, i64); 3] = [
        (Self::Mmse8Tap, "IR_MMSE_8TAP", 0),
        (Self::PfbMmse, "IR_PFB_NO_MF", 1),
        (Self::PfbMatchedFilter, "IR_PFB_MF", 2),
    ];

    /// The resampler of GNU Radio's enum number.
    pub fn from_number(n: i64) -> Option<Self> {
        Self::ALL.iter().find(|a| a.2 == n).map(|a| a.0)
    }
}

/// GNU Radio's name in lower case (`ir_mmse_8tap`), as the GRC loader's
/// constants give it.
impl std::str::FromStr for ResamplerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .find(|a| a.1.eq_ignore_ascii_case(s))
            .map(|a| a.0)
            .ok_or_else(|| {
                let names: Vec<String> = Self::ALL.iter().map(|a| a.1.to_lowercase()).collect();
                format!(
                    "'{s}' is not a interpolating resampler ({})",
                    names.join(", ")
                )
            })
    }
}

/// An interpolator (and differentiator) at a fractional delay `mu` in `[0, 1]` after a
/// window's `ntaps / 2 - 1`-th sample, with the phase bookkeeping of GNU Radio's
/// `interpolating_resampler`: each arm (of `arms + 1`, the last for `mu = 1`) is a filter in
/// window order, the arm `rint(mu · arms)`.
#[derive(Clone, Debug)]
pub struct InterpResampler {
    arms: usize,
    ntaps: usize,
    /// `(arms + 1) · ntaps` taps, arm after arm, each in window order.
    taps: Vec<f32>,
    /// The derivative filters, the same shape (empty where not wanted).
    slope: Vec<f32>,
    phase_wrapped: f32,
    phase_n: i64,
    prev_phase_wrapped: f32,
    prev_phase_n: i64,
}

impl InterpResampler {
    /// A resampler of `kind`; `nfilters` and `taps` for the filter banks, the derivative
    /// filters where `derivative`.
    ///
    /// # Errors
    /// `nfilters` below 2 for a bank, or fewer `taps` than `nfilters` for the matched filter.
    pub fn new(
        kind: ResamplerKind,
        derivative: bool,
        nfilters: usize,
        taps: &[f32],
    ) -> Result<Self, ParamError> {
        if kind != ResamplerKind::Mmse8Tap && nfilters < 2 {
            return Err(ParamError::new(
                "nfilters",
                format!("is {nfilters}, a filter bank needs at least 2 arms"),
            ));
        }
        let (arms, ntaps, bank, slope) = match kind {
            ResamplerKind::Mmse8Tap | ResamplerKind::PfbMmse => {
                // GNU Radio rounds the arms up to a power of 2, at most the table's 128 steps.
                let arms = if kind == ResamplerKind::Mmse8Tap {
                    128
                } else {
                    nfilters.next_power_of_two().min(128)
                };
                let step = 128 / arms;
                let rows = |m: &MmseInterpolator| -> Vec<f32> {
                    (0..=arms)
                        .flat_map(|a| *m.taps((a * step) as f32 / 128.0))
                        .collect()
                };
                let bank = rows(&MmseInterpolator::new());
                let slope = if derivative {
                    rows(&MmseInterpolator::differentiator())
                } else {
                    Vec::new()
                };
                (arms, MmseInterpolator::NTAPS, bank, slope)
            }
            ResamplerKind::PfbMatchedFilter => {
                if taps.len() < nfilters {
                    return Err(ParamError::new(
                        "taps",
                        format!(
                            "has {} taps, fewer than the {nfilters} filter arms",
                            taps.len()
                        ),
                    ));
                }
                let arms = nfilters;
                let per = taps.len().div_ceil(arms);
                let bank = polyphase(taps, arms, per);
                let slope = if derivative {
                    polyphase(&derivative_taps(taps, arms), arms, per)
                } else {
                    Vec::new()
                };
                (arms, per, bank, slope)
            }
        };
        Ok(Self {
            arms,
            ntaps,
            taps: bank,
            slope,
            phase_wrapped: 0.0,
            phase_n: 0,
            prev_phase_wrapped: 0.0,
            prev_phase_n: 0,
        })
    }

    /// Samples a window holds.
    pub fn ntaps(&self) -> usize {
        self.ntaps
    }

    fn arm(&self, mu: f32) -> usize {
        let a = (mu * self.arms as f32).round_ties_even();
        debug_assert!((0.0..=self.arms as f32).contains(&a), "mu {mu}");
        a.clamp(0.0, self.arms as f32) as usize
    }

    fn filter<T: FirSample>(bank: &[f32], ntaps: usize, arm: usize, x: &[T]) -> T {
        let taps = &bank[arm * ntaps..][..ntaps];
        let mut out = T::default();
        let x = T::components(&x[..ntaps]);
        let acc = T::components_mut(std::slice::from_mut(&mut out));
        for (k, &t) in taps.iter().enumerate() {
            for (c, a) in acc.iter_mut().enumerate() {
                *a += t * x[k * T::COMPONENTS + c];
            }
        }
        out
    }

    /// The signal at delay `mu` in the window `x[..ntaps]`.
    pub fn interpolate<T: FirSample>(&self, x: &[T], mu: f32) -> T {
        Self::filter(&self.taps, self.ntaps, self.arm(mu), x)
    }

    /// The signal's derivative there (zero without derivative filters).
    pub fn differentiate<T: FirSample>(&self, x: &[T], mu: f32) -> T {
        if self.slope.is_empty() {
            return T::default();
        }
        Self::filter(&self.slope, self.ntaps, self.arm(mu), x)
    }

    /// `(whole samples, fraction)` of the current phase plus `increment`.
    pub fn next_phase(&self, increment: f32) -> (i64, f32) {
        let phase = self.phase_wrapped + increment;
        let n = phase.floor();
        (n as i64, phase - n)
    }

    /// Moves the phase by `increment` samples.
    pub fn advance(&mut self, increment: f32) {
        self.prev_phase_wrapped = self.phase_wrapped;
        self.prev_phase_n = self.phase_n;
        (self.phase_n, self.phase_wrapped) = self.next_phase(increment);
    }

    /// Undoes the last [`advance`](Self::advance).
    pub fn revert(&mut self) {
        self.phase_wrapped = self.prev_phase_wrapped;
        self.phase_n = self.prev_phase_n;
    }

    /// The current fractional delay.
    pub fn phase_wrapped(&self) -> f32 {
        self.phase_wrapped
    }

    /// The fractional delay before the last advance.
    pub fn prev_phase_wrapped(&self) -> f32 {
        self.prev_phase_wrapped
    }

    /// Whole samples the last advance moved.
    pub fn phase_n(&self) -> i64 {
        self.phase_n
    }
}

/// Arm `i`'s taps `h[i + j·arms]`, reversed into window order (the newest sample last).
fn polyphase(h: &[f32], arms: usize, per: usize) -> Vec<f32> {
    let mut bank = vec![0.0f32; (arms + 1) * per];
    for i in 0..=arms {
        for j in 0..per {
            if let Some(&t) = h.get(i + j * arms) {
                bank[i * per + per - 1 - j] = t;
            }
        }
    }
    bank
}

/// GNU Radio's derivative prototype: `taps` convolved with the central difference
/// `[1, 0, -1]`, trimmed to their length, the end taps zeroed, scaled to `arms / Σ|d|`.
fn derivative_taps(taps: &[f32], arms: usize) -> Vec<f32> {
    let n = taps.len();
    let at = |k: usize| taps.get(k).copied().unwrap_or(0.0);
    let mut d: Vec<f32> = (0..n)
        .map(|i| {
            // The full convolution's sample i + 1 (the trim drops one each end).
            let below = if i + 1 >= 2 { at(i - 1) } else { 0.0 };
            at(i + 1) - below
        })
        .collect();
    d[0] = 0.0;
    d[n - 1] = 0.0;
    let mag: f32 = d.iter().map(|x| x.abs()).sum();
    for x in &mut d {
        *x *= arms as f32 / mag;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matched_filter_bank_is_the_prototype_s_polyphase_split() {
        let taps: Vec<f32> = (0..10).map(|k| k as f32 + 1.0).collect();
        let r = InterpResampler::new(ResamplerKind::PfbMatchedFilter, true, 4, &taps).unwrap();
        assert_eq!(r.ntaps(), 3);
        // Arm 1 is h[1], h[5], h[9], newest sample last: Σ h[1 + 4j]·x[2 - j].
        let x = [1.0f32, 10.0, 100.0];
        assert_eq!(r.interpolate(&x, 0.25), 2.0 * 100.0 + 6.0 * 10.0 + 10.0);
        // A ramp's central difference is 2 inside, zeroed at the ends, scaled to 4 / Σ|d|.
        let d = derivative_taps(&taps, 4);
        assert_eq!(d[0], 0.0);
        assert_eq!(d[9], 0.0);
        assert!(
            d[1..9].iter().all(|&v| (v - 4.0 / 8.0).abs() < 1e-6),
            "{d:?}"
        );
    }

    #[test]
    fn a_bank_of_mmse_filters_rounds_to_its_arms() {
        let full = InterpResampler::new(ResamplerKind::Mmse8Tap, false, 0, &[]).unwrap();
        let bank = InterpResampler::new(ResamplerKind::PfbMmse, false, 5, &[]).unwrap();
        let x: Vec<f32> = (0..8).map(|n| (0.4 * n as f32).sin()).collect();
        // 5 arms round up to 8: mu 0.3 is arm 2, the 128-step filter 32.
        assert_eq!(bank.interpolate(&x, 0.3), full.interpolate(&x, 0.25));
        assert!(InterpResampler::new(ResamplerKind::PfbMmse, false, 1, &[]).is_err());
        assert!(
            InterpResampler::new(ResamplerKind::PfbMatchedFilter, false, 8, &[1.0; 4]).is_err()
        );
    }
}
