//! [`SymbolSync`]: GNU Radio's symbol synchronizer (`symbol_sync_cc`/`_ff`).

use crate::{
    ClockTrackingLoop, FirSample, InterpResampler, ParamError, ResamplerKind, Slicer, TedKind,
    TimingErrorDetector,
};
use num_complex::Complex32;

/// A sample the synchronizer takes: real or complex.
pub trait SyncSample: FirSample {
    /// Whether the detectors use GNU Radio's `_ff` formulas.
    const REAL: bool;
    /// The sample as a complex number.
    fn to_complex(self) -> Complex32;
}

impl SyncSample for f32 {
    const REAL: bool = true;
    fn to_complex(self) -> Complex32 {
        Complex32::new(self, 0.0)
    }
}

impl SyncSample for Complex32 {
    const REAL: bool = false;
    fn to_complex(self) -> Complex32 {
        self
    }
}

/// The parameters of a [`SymbolSync`], as GNU Radio's `symbol_sync_xx` takes them.
pub struct SymbolSyncConfig {
    /// The timing error detector.
    pub ted: TedKind,
    /// Nominal samples per symbol (above 1).
    pub sps: f32,
    /// The loop's normalized natural frequency (`ω_n·T`, at least 0).
    pub loop_bw: f32,
    /// The loop's damping factor (at least 0).
    pub damping: f32,
    /// The detector's expected gain (above 0).
    pub ted_gain: f32,
    /// How far the average period may move from `sps`.
    pub max_deviation: f32,
    /// Outputs per symbol (at least 1).
    pub osps: usize,
    /// The slicer of decision-directed detectors.
    pub slicer: Option<Slicer>,
    /// The interpolating resampler.
    pub resampler: ResamplerKind,
    /// Arms of a filter-bank resampler.
    pub nfilters: usize,
    /// The matched filter's prototype taps (for [`ResamplerKind::PfbMatchedFilter`]).
    pub taps: Vec<f32>,
}

/// Symbol timing recovery as GNU Radio's `symbol_sync_cc`/`_ff`, step for step: an
/// interpolating resampler makes `lcm(detector inputs per symbol, osps)` interpolants per
/// symbol; the detector reads its inputs among them (and the next symbol's, for early-late),
/// and once per symbol its error advances a [`ClockTrackingLoop`] whose instantaneous period
/// sets the next interpolants' spacing. Each output is one of the interpolants (`osps` per
/// symbol), with the error, the instantaneous and the average period at it.
///
/// Like GNU Radio it keeps `ntaps` samples unread at the end of its input (the filter's
/// window) and stops before a symbol it could not step past.
pub struct SymbolSync<T: SyncSample> {
    ted: TimingErrorDetector,
    clock: ClockTrackingLoop,
    interp: InterpResampler,
    per_symbol: usize,
    per_ted_input: usize,
    per_output: usize,
    osps: usize,
    interp_clock: usize,
    inst_clock_period: f32,
    avg_clock_period: f32,
    inst_interp_period: f32,
    /// Input samples per output, for tag placement.
    inst_output_period: f32,
    _sample: std::marker::PhantomData<T>,
}

impl<T: SyncSample> std::fmt::Debug for SymbolSync<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SymbolSync")
            .field("ted", &self.ted)
            .field("per_symbol", &self.per_symbol)
            .finish()
    }
}

/// A resynchronization point (GNU Radio's `time_est` or `clock_est` tag): the symbol
/// instant is `timing` samples (in `[-1, 1]`) from input `offset`, the clock period
/// `period` from there (`None`, for `time_est`: the nominal period).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SyncTag {
    /// Input index, in the call's input.
    pub offset: i64,
    /// Offset of the symbol instant from it, in samples.
    pub timing: f32,
    /// The clock period from there.
    pub period: Option<f32>,
}

/// One output's diagnostics: the detector's error, the instantaneous and average period.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SyncState {
    /// The timing error detector's latest error.
    pub error: f32,
    /// The instantaneous clock period, in samples.
    pub inst_period: f32,
    /// The average clock period, in samples.
    pub avg_period: f32,
    /// The input index (in the call's input) up to which tags belong on this output: the
    /// interpolation instant plus half an output period, past the filter's delay (GNU
    /// Radio's tag rule).
    pub tags_until: i64,
}

impl<T: SyncSample> SymbolSync<T> {
    /// A synchronizer.
    ///
    /// # Errors
    /// A parameter out of its range (named as in [`SymbolSyncConfig`]).
    pub fn new(config: SymbolSyncConfig) -> Result<Self, ParamError> {
        let SymbolSyncConfig {
            ted,
            sps,
            loop_bw,
            damping,
            ted_gain,
            max_deviation,
            osps,
            slicer,
            resampler,
            nfilters,
            taps,
        } = config;
        if !(sps > 1.0 && sps.is_finite()) {
            return Err(ParamError::new("sps", format!("is {sps}, must be above 1")));
        }
        if osps < 1 {
            return Err(ParamError::new("osps", "is 0, must be at least 1"));
        }
        let ted = TimingErrorDetector::new(ted, T::REAL, slicer)?;
        let clock = ClockTrackingLoop::new(loop_bw, damping, ted_gain, sps, max_deviation)?;
        let interp = InterpResampler::new(resampler, ted.needs_derivative(), nfilters, &taps)?;
        let ips = ted.inputs_per_symbol();
        let per_symbol = lcm(ips, osps);
        Ok(Self {
            per_ted_input: per_symbol / ips,
            per_output: per_symbol / osps,
            osps,
            per_symbol,
            interp_clock: per_symbol - 1,
            inst_clock_period: sps,
            avg_clock_period: sps,
            inst_interp_period: sps / per_symbol as f32,
            inst_output_period: sps / osps as f32,
            ted,
            clock,
            interp,
            _sample: std::marker::PhantomData,
        })
    }

    /// Samples the resampler's window holds (kept unread at the end of the input).
    pub fn ntaps(&self) -> usize {
        self.interp.ntaps()
    }

    /// The loop's proportional and integral gains.
    pub fn gains(&self) -> (f32, f32) {
        self.clock.gains()
    }

    /// Synchronizes `input` into `out` (and each output's diagnostics into `state`, if
    /// given, as long as `out`), resynchronizing at `sync` (in offset order): returns
    /// (samples consumed, outputs made).
    pub fn process(
        &mut self,
        input: &[T],
        out: &mut [T],
        mut state: Option<&mut [SyncState]>,
        sync: &[SyncTag],
    ) -> (usize, usize) {
        let ntaps = self.interp.ntaps();
        let delay = (ntaps as i64 + 1) / 2;
        // Sync tags before this index are behind (or used).
        let mut next_sync = 0;
        if input.len() <= ntaps {
            return (0, 0);
        }
        let ni = (input.len() - ntaps) as i64;
        let mut ii: i64 = 0;
        let mut oo = 0usize;
        while oo < out.len() {
            self.interp_clock = (self.interp_clock + 1) % self.per_symbol;
            let symbol = self.interp_clock == 0;
            let at_output = self.interp_clock.is_multiple_of(self.per_output);
            let at_ted = self.interp_clock.is_multiple_of(self.per_ted_input);
            let mu = self.interp.phase_wrapped();
            let x = &input[ii as usize..];
            let y = self.interp.interpolate(x, mu);
            if at_output {
                out[oo] = y;
            }
            if at_ted {
                let dy = if self.ted.needs_derivative() {
                    self.interp.differentiate(x, mu)
                } else {
                    T::default()
                };
                self.ted.input(y.to_complex(), dy.to_complex());
            }
            if symbol && self.ted.needs_lookahead() {
                let (n, mu) = self.interp.next_phase(
                    self.per_ted_input as f32 * (self.clock.inst_period() / self.per_symbol as f32),
                );
                if ii + n >= ni {
                    self.ted.revert(true);
                    self.revert_clock();
                    break;
                }
                let x = &input[(ii + n) as usize..];
                let y = self.interp.interpolate(x, mu);
                let dy = if self.ted.needs_derivative() {
                    self.interp.differentiate(x, mu)
                } else {
                    T::default()
                };
                self.ted.input_lookahead(y.to_complex(), dy.to_complex());
            }
            let error = self.ted.error();
            if symbol {
                self.clock.advance(error);
                self.inst_clock_period = self.clock.inst_period();
                self.avg_clock_period = self.clock.avg_period();
                self.inst_interp_period = self.inst_clock_period / self.per_symbol as f32;
                self.inst_output_period = self.inst_clock_period / self.osps as f32;
                let (n, _) = self.interp.next_phase(self.inst_clock_period);
                if ii + n >= ni {
                    self.clock.revert();
                    self.ted.revert(false);
                    self.revert_clock();
                    // GNU Radio leaves its period variables at the reverted step's values.
                    break;
                }
            }
            self.interp.advance(self.inst_interp_period);
            let mut error = error;
            // A sync tag between this interpolant and the next restarts the clock there.
            let from = ii + delay + 1;
            let to = from + self.interp.phase_n();
            if let Some(t) = find_sync(sync, &mut next_sync, from, to) {
                self.interp_clock = self.per_symbol - 1;
                self.ted.reset();
                error = self.ted.error();
                // GNU Radio's empirical + 1 (its comment: "experiment trumps theory").
                self.inst_clock_period =
                    (t.offset - delay - ii + 1) as f32 + t.timing - self.interp.phase_wrapped();
                let avg = t.period.unwrap_or(self.clock.nominal_period());
                self.clock.set_periods(self.inst_clock_period, avg);
                self.avg_clock_period = avg;
                self.inst_interp_period = self.inst_clock_period;
                self.inst_output_period = self.inst_clock_period;
                self.interp.revert();
                self.interp.advance(self.inst_interp_period);
            }
            if at_output {
                if let Some(s) = state.as_deref_mut() {
                    let half = self.interp.prev_phase_wrapped() + self.inst_output_period / 2.0;
                    s[oo] = SyncState {
                        error,
                        inst_period: self.inst_clock_period,
                        avg_period: self.avg_clock_period,
                        tags_until: ii + (ntaps as i64 + 1) / 2 + half.round() as i64,
                    };
                }
                oo += 1;
            }
            ii += self.interp.phase_n();
        }
        (ii as usize, oo)
    }

    fn revert_clock(&mut self) {
        self.interp_clock = if self.interp_clock == 0 {
            self.per_symbol - 1
        } else {
            self.interp_clock - 1
        };
    }
}

/// GNU Radio's search for a sync tag in `[from, to]`: the first valid one, skipping tags
/// behind `from`, with a timing outside `[-1, 1]`, before the instant at `from` (handled
/// by the previous interpolant) or after it at `to` (left for the next).
fn find_sync(sync: &[SyncTag], next: &mut usize, from: i64, to: i64) -> Option<SyncTag> {
    while let Some(&t) = sync.get(*next) {
        if t.offset > to {
            return None;
        }
        if t.offset < from || !(-1.0..=1.0).contains(&t.timing) {
            *next += 1;
            continue;
        }
        if t.offset == from && t.timing < 0.0 {
            *next += 1;
            continue;
        }
        if t.offset == to && t.timing >= 0.0 {
            return None;
        }
        *next += 1;
        return Some(t);
    }
    None
}

fn lcm(a: usize, b: usize) -> usize {
    let gcd = |mut a: usize, mut b: usize| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(ted: TedKind) -> SymbolSyncConfig {
        SymbolSyncConfig {
            ted,
            sps: 4.0,
            loop_bw: 0.045,
            damping: 1.0,
            ted_gain: 1.0,
            max_deviation: 1.5,
            osps: 1,
            slicer: None,
            resampler: ResamplerKind::Mmse8Tap,
            nfilters: 128,
            taps: Vec::new(),
        }
    }

    /// Alternating ±1 symbols, 4 samples each, smoothed by a raised half-sine per symbol.
    fn symbols(n: usize) -> Vec<f32> {
        (0..n * 4)
            .map(|i| {
                let s = if (i / 4) % 2 == 0 { 1.0 } else { -1.0 };
                s * (std::f32::consts::PI * ((i % 4) as f32 + 0.5) / 4.0).sin()
            })
            .collect()
    }

    #[test]
    fn gardner_settles_on_the_symbols_peaks() {
        let mut s = SymbolSync::<f32>::new(config(TedKind::Gardner)).unwrap();
        let x = symbols(300);
        let mut out = vec![0.0; 400];
        let (consumed, made) = s.process(&x, &mut out, None, &[]);
        assert!(consumed <= x.len() - s.ntaps());
        assert!((290..=300).contains(&made), "{made}");
        // Locked: the last symbols alternate at nearly their peak.
        for w in out[made - 40..made].windows(2) {
            assert!(w[0] * w[1] < 0.0 && w[0].abs() > 0.9, "{w:?}");
        }
    }

    #[test]
    fn a_clock_est_tag_sets_the_period() {
        let mut s = SymbolSync::<f32>::new(config(TedKind::SignalTimesSlopeMl)).unwrap();
        let x = symbols(50);
        let mut out = vec![0.0; 60];
        let mut state = vec![SyncState::default(); 60];
        let tag = SyncTag {
            offset: 41,
            timing: 0.25,
            period: Some(4.5),
        };
        let (_, made) = s.process(&x, &mut out, Some(&mut state), &[tag]);
        let at = state[..made]
            .iter()
            .position(|s| s.avg_period == 4.5)
            .expect("the tag's period");
        // The reset clears the detector: the error there is 0.
        assert_eq!(state[at].error, 0.0);
        assert!((8..=11).contains(&at), "{at}");
    }

    #[test]
    fn sync_tags_follow_gnu_radio_s_window_rules() {
        let t = |offset, timing| SyncTag {
            offset,
            timing,
            period: None,
        };
        // Behind the window, out of range, negative at its start: skipped.
        let tags = [t(3, 0.1), t(5, 1.5), t(5, -0.2), t(6, 0.3)];
        let mut next = 0;
        assert_eq!(find_sync(&tags, &mut next, 5, 8), Some(t(6, 0.3)));
        // A non-negative timing at the window's end waits for the next window.
        let tags = [t(8, 0.0)];
        let mut next = 0;
        assert_eq!(find_sync(&tags, &mut next, 5, 8), None);
        assert_eq!(find_sync(&tags, &mut next, 8, 11), Some(t(8, 0.0)));
    }
}
