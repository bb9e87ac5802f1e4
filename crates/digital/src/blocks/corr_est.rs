//! [`CorrEst`]: GNU Radio's correlation estimator (`corr_est_cc`).

use radioflow_dsp::{phase, ComplexFir};
use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::prelude::*;
use radioflow_runtime::Pmt;
use std::str::FromStr;

/// How [`CorrEst`] decides that a correlation is a detection (GNU Radio's
/// `digital.THRESHOLD_ABSOLUTE` and `digital.THRESHOLD_DYNAMIC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorrThreshold {
    /// `|corr|² > threshold · (Σ|s|²)²`: a fraction of the matched filter's peak.
    Absolute,
    /// `(|corr[i]|² + |corr[i+1]|²) / 2 > 2 · mean(|corr|²) · -ln(1 - threshold)`, the mean
    /// over the window being searched: `threshold` a probability of false alarm's complement.
    Dynamic,
}

impl FromStr for CorrThreshold {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "absolute" => Ok(CorrThreshold::Absolute),
            "dynamic" => Ok(CorrThreshold::Dynamic),
            other => Err(format!(
                "'{other}' is not a threshold method (absolute or dynamic)"
            )),
        }
    }
}

/// The item type of [`CorrEst`]: complex samples (GNU Radio has only `corr_est_cc`).
pub trait CorrSample: Item {
    /// The samples as complex numbers.
    fn complex(s: &[Self]) -> &[Complex32];
    /// The samples as complex numbers, mutably.
    fn complex_mut(s: &mut [Self]) -> &mut [Complex32];
}

impl CorrSample for Complex32 {
    fn complex(s: &[Self]) -> &[Complex32] {
        s
    }
    fn complex_mut(s: &mut [Self]) -> &mut [Complex32] {
        s
    }
}

/// Finds a known symbol sequence in a complex stream and tags it (GNU Radio 3.10's
/// `corr_est_cc`). The input comes out delayed by the sequence's length `N` (zeros first),
/// so that the correlation peak lines up with the sequence in the output; the optional
/// `corr` output is the correlation itself, `corr[j] = Σ_m conj(s[m]) · x[j - N + 1 + m]`.
///
/// The detector works as GNU Radio's does, window by window, the window being GNU Radio's
/// FFT filter block (`2^(⌈log2 N⌉ + 1) - N + 1` samples, its output multiple; the last
/// window of a stream may be shorter). In each window, from `i = 0`: where `|corr[i]|²`
/// (absolute) or the mean of it and the next (dynamic; the next beyond the window counts as
/// 0) exceeds the threshold, `i` walks up to the peak (within the window) and the output gets
/// `corr_start` (`|corr[i]|²`) at `i`, and `phase_est` (`arg corr[i]`), `time_est` (the
/// centre of mass of `|corr|²` at `i - 1, i, i + 1`, less 2, so -1 to 1; the sample before
/// the window is the previous window's last), `corr_est` (`|corr[i]|²`) and `amp_est`
/// (`1 / |x|` of the window's output sample of largest magnitude) at `i + mark_delay`,
/// all as doubles; the `corr` output gets the last four at `i`. The search goes on
/// `round(sps)` samples after the peak. Input tags come out `N` samples later on both
/// outputs, as GNU Radio's declared sample delay moves them.
///
/// GNU Radio computes the correlation by FFT (within float rounding of this direct sum)
/// and never processes a stream's last window when it is shorter than its output
/// multiple; here it is processed. Its dynamic threshold averages over whatever its
/// scheduler hands one work call (a multiple of the window): radioflow's is the window
/// alone, which GNU Radio does with `set_max_noutput_items(window)`.
///
/// # Errors
/// No symbols, `sps` not above 0 or `threshold` outside [0, 1] (dynamic: [0, 1)), naming
/// the parameter. `mark_delay` at or beyond `N` is `N - 1`, as in GNU Radio.
#[library_block(
    id = "corr_est",
    dtypes = [Complex32],
    summary = "Finds a known symbol sequence and tags its start, phase, timing and amplitude; the input delayed by its length, the correlation on an optional output (GNU Radio's corr_est_cc).",
    make = Self::new(&symbols, sps, mark_delay, threshold, threshold_method).map_err(|e| Refused::param(e.0, e.1))
)]
#[param(symbols: Vec<T>, doc = "the sequence to find, as sampled (modulated and shaped)")]
#[param(sps: f32, doc = "samples per symbol: the search skips round(sps) samples past a peak")]
#[param(mark_delay: u32 = 0, doc = "samples after the correlation peak that phase_est, time_est, corr_est and amp_est mark (at most N - 1)")]
#[param(threshold: f32 = 0.9, doc = "the detection threshold: a fraction of the peak (absolute) or 1 - a false-alarm probability (dynamic)")]
#[param(threshold_method: CorrThreshold = "absolute", words = ["absolute", "dynamic"], doc = "absolute or dynamic threshold")]
#[derive(Debug)]
pub struct CorrEst<T: CorrSample> {
    /// The samples to search.
    #[input(name = "in")]
    input: StreamInput<T>,
    /// The input delayed by the sequence's length, tagged.
    #[output(name = "out")]
    output: StreamOutput<T>,
    /// The correlation, tagged at the peaks.
    #[output(name = "corr")]
    corr: StreamOutput<T>,
    filter: ComplexFir,
    /// The last `N` inputs (the delay line), oldest first.
    delay: Vec<Complex32>,
    /// The window's correlations and their squared magnitudes.
    scratch: Vec<Complex32>,
    mags: Vec<f32>,
    /// The previous window's last squared magnitude.
    last_mag: f32,
    window: usize,
    skip: usize,
    mark_delay: usize,
    method: CorrThreshold,
    /// Absolute: the magnitude to exceed. Dynamic: -ln(1 - threshold).
    threshold: f32,
}

#[block]
impl<T: CorrSample> CorrEst<T> {
    /// A correlator for `symbols`.
    ///
    /// # Errors
    /// The parameter at fault and why (see the type's documentation).
    pub fn new(
        symbols: &[T],
        sps: f32,
        mark_delay: u32,
        threshold: f32,
        method: CorrThreshold,
    ) -> Result<Self, (&'static str, String)> {
        if symbols.is_empty() {
            return Err(("symbols", "is empty".into()));
        }
        if !(sps > 0.0 && sps.is_finite()) {
            return Err(("sps", format!("is {sps}, not above 0")));
        }
        let bad = match method {
            CorrThreshold::Absolute => !(0.0..=1.0).contains(&threshold),
            CorrThreshold::Dynamic => !(0.0..1.0).contains(&threshold),
        };
        if bad {
            return Err((
                "threshold",
                format!("is {threshold}, outside [0, 1] (dynamic: [0, 1))"),
            ));
        }
        let symbols = T::complex(symbols);
        let n = symbols.len();
        // The matched filter: the sequence reversed and conjugated.
        let taps: Vec<Complex32> = symbols.iter().rev().map(|s| s.conj()).collect();
        let threshold = match method {
            CorrThreshold::Absolute => {
                // GNU Radio sums |s·conj(s)| in f32.
                let peak: f32 = taps.iter().map(|s| (s * s.conj()).norm()).sum();
                threshold * peak * peak
            }
            CorrThreshold::Dynamic => -(1.0 - threshold).ln(),
        };
        let window = 2 * n.next_power_of_two() - n + 1;
        Ok(Self {
            input: StreamInput::new(),
            output: StreamOutput::new().with_min_items(window),
            corr: StreamOutput::optional(),
            filter: ComplexFir::new(&taps).map_err(|e| ("symbols", e.to_string()))?,
            delay: vec![Complex32::default(); n],
            scratch: vec![Complex32::default(); window],
            mags: vec![0.0; window],
            last_mag: 0.0,
            window,
            skip: (sps + 0.5) as usize,
            mark_delay: (mark_delay as usize).min(n - 1),
            method,
            threshold,
        })
    }

    fn work(&mut self) -> Result<WorkStatus, BlockError> {
        loop {
            let avail = self.input.slice().len();
            let finished = self.input.is_finished();
            if avail < self.window && !(finished && avail > 0) {
                return Ok(if finished && avail == 0 {
                    WorkStatus::Done
                } else {
                    WorkStatus::Continue
                });
            }
            let n = avail.min(self.window);
            if self.output.slice().len() < n
                || (self.corr.is_connected() && self.corr.slice().len() < n)
            {
                return Ok(WorkStatus::Continue);
            }
            // The stream's end: tags beyond its last sample are dropped, as GNU Radio's are
            // never read.
            let end = (finished && n == avail).then(|| self.output.offset() + n as u64);
            self.window_of(n, end);
        }
    }

    /// Processes the next `n` inputs (one window, or the stream's last part, which ends the
    /// output at `end`).
    fn window_of(&mut self, n: usize, end: Option<u64>) {
        let within = |offset: u64| end.is_none_or(|e| offset < e);
        let big_n = self.delay.len();
        let x = &T::complex(self.input.slice())[..n];
        let corr = &mut self.scratch[..n];
        self.filter.process(x, corr);
        for (m, c) in self.mags.iter_mut().zip(corr.iter()) {
            *m = c.norm_sqr();
        }
        // The delayed output: the delay line, then the window's inputs.
        let out = &mut T::complex_mut(self.output.slice())[..n];
        let held = big_n.min(n);
        out[..held].copy_from_slice(&self.delay[..held]);
        if n > big_n {
            out[big_n..].copy_from_slice(&x[..n - big_n]);
        }
        if n >= big_n {
            self.delay.copy_from_slice(&x[n - big_n..]);
        } else {
            self.delay.rotate_left(n);
            self.delay[big_n - n..].copy_from_slice(x);
        }
        if self.corr.is_connected() {
            T::complex_mut(self.corr.slice())[..n].copy_from_slice(&self.scratch[..n]);
        }
        let mags = &self.mags[..n];
        let threshold = match self.method {
            CorrThreshold::Absolute => self.threshold,
            CorrThreshold::Dynamic => {
                // GNU Radio sums in f32, in order.
                let mut sum = 0.0f32;
                for m in mags {
                    sum += m;
                }
                2.0 * (sum / n as f32 * self.threshold)
            }
        };
        let next = |i: usize| mags.get(i + 1).copied().unwrap_or(0.0);
        let (at, corr_at) = (self.output.offset(), self.corr.offset());
        let mut amp = None;
        let mut i = 0;
        while i < n {
            let level = match self.method {
                CorrThreshold::Absolute => mags[i],
                CorrThreshold::Dynamic => (mags[i] + next(i)) * 0.5,
            };
            if level <= threshold {
                i += 1;
                continue;
            }
            while i + 1 < n && mags[i] < mags[i + 1] {
                i += 1;
            }
            let peak = mags[i];
            let before = if i == 0 { self.last_mag } else { mags[i - 1] };
            // In f64, as GNU Radio's centre of mass.
            let (b, p, a) = (f64::from(before), f64::from(peak), f64::from(next(i)));
            let center = (b + 2.0 * p + 3.0 * a) / (b + p + a) - 2.0;
            // The first sample of largest |x|² among the window's outputs (GNU Radio's
            // generic volk_32fc_index_max_32u), once per window.
            let scale = *amp.get_or_insert_with(|| {
                let out = &T::complex_mut(self.output.slice())[..n];
                let mut best = 0;
                for (k, v) in out.iter().enumerate() {
                    if v.norm_sqr() > out[best].norm_sqr() {
                        best = k;
                    }
                }
                1.0 / out[best].norm()
            });
            let ph = phase(self.scratch[i]);
            let mark = at + (i + self.mark_delay) as u64;
            let values = [
                ("phase_est", f64::from(ph)),
                ("time_est", center),
                ("corr_est", f64::from(peak)),
                ("amp_est", f64::from(scale)),
            ];
            self.output
                .add_tag(at + i as u64, "corr_start", Pmt::Double(f64::from(peak)));
            if within(mark) {
                for (key, value) in values {
                    self.output.add_tag(mark, key, Pmt::Double(value));
                }
            }
            if self.corr.is_connected() {
                for (key, value) in values {
                    self.corr
                        .add_tag(corr_at + i as u64, key, Pmt::Double(value));
                }
            }
            i += self.skip;
        }
        self.last_mag = mags[n - 1];
        // Input tags come out `N` samples later (GNU Radio's declared sample delay).
        let from = self.input.offset();
        for t in self.input.tags() {
            if t.offset >= from + n as u64 {
                break;
            }
            let to = t.offset - from + big_n as u64;
            if !within(at + to) {
                break;
            }
            self.output.add_tag_at(at + to, t);
            if self.corr.is_connected() {
                self.corr.add_tag_at(corr_at + to, t);
            }
        }
        self.input.consume(n);
        self.output.produce(n);
        if self.corr.is_connected() {
            self.corr.produce(n);
        }
    }
}
