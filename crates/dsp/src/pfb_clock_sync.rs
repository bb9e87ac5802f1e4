//! [`PfbClockSync`]: GNU Radio's polyphase filterbank clock recovery
//! (`pfb_clock_sync_ccf`/`_fff`).

use crate::control_loop::{branchless_clip, loop_gains};
use crate::error::{check, Num, ParamError};
use crate::fir::{Fir, FirSample};
use crate::history::{History, CHUNK};
use std::collections::VecDeque;

/// `time_est` tags waiting for the symbol they fall in; older ones are dropped beyond this.
const TAG_QUEUE: usize = 64;

/// A sample type the clock sync takes: the timing error it computes from a symbol's output
/// and the derivative filter's output there.
pub trait ClockSample: FirSample {
    /// GNU Radio's error: `(Re y·Re d + Im y·Im d) / 2` for complex samples, `y·d` for real.
    fn timing_error(y: Self, d: Self) -> f32;
}

impl ClockSample for f32 {
    fn timing_error(y: f32, d: f32) -> f32 {
        y * d
    }
}

impl ClockSample for num_complex::Complex32 {
    fn timing_error(y: Self, d: Self) -> f32 {
        (y.im * d.im + y.re * d.re) / 2.0
    }
}

/// Symbol timing recovery by a bank of `filter_size` matched filters at fractional delays
/// (GNU Radio's `pfb_clock_sync_ccf`/`_fff`, same state, same float32 steps): for each
/// symbol it takes `osps` outputs from the filter of phase `k` (filter `⌊k⌋`, advancing by
/// the rate `sps·filter_size` per output), then steers `k` and the rate with the product of
/// the output and the derivative filter's output (a second-order loop, damping
/// `2·filter_size`, gains [`loop_gains`]; the rate's deviation clipped to
/// `max_rate_deviation`). `taps` are the prototype filter at `filter_size` times the sample
/// rate (a root-raised-cosine matched filter, usually); the derivative filter is their
/// central difference normalized to `filter_size / Σ|d|`.
///
/// The input is read as GNU Radio's block reads it: after `taps_per_filter + 2·⌊sps⌋ - 1`
/// zeros of history. A `time_est` estimate (see [`time_est`](Self::time_est)) sets `k` when
/// a symbol starts within `⌊sps⌋` samples before its offset, as GNU Radio compares the tag's
/// stream offset with a position that counts the history; so a symbol is made only once the
/// input `⌊sps⌋` past its position is in (the last few symbols of a stream are not made:
/// GNU Radio stops earlier still, its forecast asking for more input than it reads).
///
/// GNU Radio 3.10 steps its loop `⌊sps⌋` times per symbol with that symbol's error (found
/// on its outputs: the rate moves by `⌊sps⌋·β·e` per symbol); so does this kernel. The filters' dot products are
/// summed in another order than VOLK's, so outputs differ from GNU Radio's by float32
/// rounding, which the loop then carries (the tests allow 1e-3 over a few thousand symbols).
///
/// ```
/// use radioflow_dsp::{firdes, PfbClockSync};
/// // BPSK at 4 samples per symbol, 32 filters, RRC matched filter.
/// let taps = firdes::root_raised_cosine(32.0, 128.0, 1.0, 0.35, 11 * 4 * 32)?;
/// let mut sync = PfbClockSync::<f32>::new(4.0, 0.01, &taps, 32, 16.0, 1.5, 1)?;
/// // Pseudo-random bits (Knuth's multiplicative hash).
/// let symbols: Vec<f32> = (0..400u32)
///     .map(|i| if i.wrapping_mul(2_654_435_761) >> 31 == 0 { 1.0 } else { -1.0 })
///     .collect();
/// let shaped = firdes::root_raised_cosine(4.0, 4.0, 1.0, 0.35, 45)?;
/// let mut x = vec![0.0f32; 1600 + 45];
/// for (i, s) in symbols.iter().enumerate() {
///     for (j, t) in shaped.iter().enumerate() {
///         x[4 * i + j] += s * t;
///     }
/// }
/// let mut y = vec![0.0f32; 400];
/// let (_, n) = sync.process(&x, &mut y, None, None, None);
/// // Once locked, each output is one symbol at full amplitude.
/// assert!(n > 380, "{n}");
/// let worst = y[200..n].iter().map(|v| (v.abs() - 1.0).abs()).fold(0.0, f32::max);
/// assert!(worst < 0.2, "{worst}");
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PfbClockSync<T: ClockSample> {
    filters: Vec<Fir<T>>,
    diff_filters: Vec<Fir<T>>,
    taps_per_filter: usize,
    nfilters: usize,
    sps: usize,
    osps: usize,
    loop_bw: f32,
    alpha: f32,
    beta: f32,
    max_dev: f32,
    /// The phase: filter `⌊k⌋`, in filter steps.
    k: f32,
    rate_i: i32,
    rate_f: f32,
    error: f32,
    /// The filter the last output came from (the derivative filter of the same number
    /// gives the error).
    filtnum: usize,
    history: History<T>,
    /// Zeros of history before the input (GNU Radio's `history() - 1`).
    zeros: usize,
    /// Index in `history.pending()` of the next symbol's first window.
    pos: usize,
    /// Position in GNU Radio's input (history included) of `history.pending()[0]`.
    base: i64,
    /// `time_est` estimates: input offset, value.
    tags: VecDeque<(u64, f32)>,
}

/// Samples kept before the next symbol's window: the phase may step back over a sample.
fn margin(sps: usize) -> usize {
    sps + 2
}

impl<T: ClockSample> PfbClockSync<T> {
    /// GNU Radio's `pfb_clock_sync_xxx(sps, loop_bw, taps, filter_size, init_phase,
    /// max_rate_deviation, osps)`.
    ///
    /// # Errors
    /// If `sps` is not in [1, 1e6], `filter_size` or `osps` is 0, `taps` has fewer
    /// than 3 taps or a derivative that is all zeros (GNU Radio's "produced NaN"), `loop_bw`
    /// is negative, or `init_phase`/`max_rate_deviation` is not finite; the error names the
    /// parameter.
    pub fn new(
        sps: f32,
        loop_bw: f32,
        taps: &[f32],
        filter_size: usize,
        init_phase: f32,
        max_rate_deviation: f32,
        osps: usize,
    ) -> Result<Self, ParamError> {
        // The history holds two symbols: a bound keeps its size reasonable (and its index in
        // range) for any finite `sps`.
        check((1.0..=1e6).contains(&sps), "sps", || {
            format!("{} must be in [1, 1e6]", Num::from(sps))
        })?;
        check(filter_size > 0, "filter_size", || {
            "must be at least 1".into()
        })?;
        check(osps > 0, "osps", || "must be at least 1".into())?;
        check(init_phase.is_finite(), "init_phase", || {
            format!("{} must be finite", Num::from(init_phase))
        })?;
        check(
            max_rate_deviation.is_finite() && max_rate_deviation >= 0.0,
            "max_rate_deviation",
            || {
                format!(
                    "{} must be finite and at least 0",
                    Num::from(max_rate_deviation)
                )
            },
        )?;
        let (filters, diff_filters, taps_per_filter) = Self::banks(taps, filter_size)?;
        let sps_int = sps.floor() as usize;
        // GNU Radio's d_rate: the fraction of a sample per symbol, in filter steps, a float.
        let rate = (f64::from(sps - sps.floor()) * filter_size as f64) as f32;
        let rate_i = rate.floor() as i32;
        let zeros = taps_per_filter + 2 * sps_int - 1;
        let m = margin(sps_int);
        let mut s = Self {
            filters,
            diff_filters,
            taps_per_filter,
            nfilters: filter_size,
            sps: sps_int,
            osps,
            loop_bw: 0.0,
            alpha: 0.0,
            beta: 0.0,
            max_dev: max_rate_deviation,
            k: init_phase,
            rate_i,
            rate_f: rate - rate_i as f32,
            error: 0.0,
            filtnum: 0,
            history: History::new(
                m + zeros,
                CHUNK.max(8 * (taps_per_filter + sps_int + osps + m)),
            ),
            zeros,
            pos: m,
            base: -(m as i64),
            tags: VecDeque::with_capacity(TAG_QUEUE),
        };
        s.set_loop_bandwidth(loop_bw)?;
        Ok(s)
    }

    /// The polyphase banks of `taps` and of their derivative, and the taps per filter.
    #[allow(clippy::type_complexity)]
    fn banks(
        taps: &[f32],
        nfilters: usize,
    ) -> Result<(Vec<Fir<T>>, Vec<Fir<T>>, usize), ParamError> {
        check(taps.len() >= 3, "taps", || {
            format!("{} taps: need at least 3", taps.len())
        })?;
        check(taps.iter().all(|t| t.is_finite()), "taps", || {
            "must all be finite".into()
        })?;
        let mut diff = vec![0.0f32; taps.len()];
        let mut pwr = 0.0f32;
        for i in 0..taps.len() - 2 {
            let tap = -taps[i] + 0.0 * taps[i + 1] + taps[i + 2];
            diff[i + 1] = tap;
            pwr += tap.abs();
        }
        check(pwr > 0.0, "taps", || {
            "their derivative is all zeros (GNU Radio: produced NaN)".into()
        })?;
        let scale = nfilters as f32 / pwr;
        for d in &mut diff {
            *d *= scale;
        }
        let per = taps.len().div_ceil(nfilters);
        let bank = |t: &[f32]| -> Vec<Fir<T>> {
            (0..nfilters)
                .map(|i| {
                    let branch: Vec<f32> = (0..per)
                        .map(|j| t.get(i + j * nfilters).copied().unwrap_or(0.0))
                        .collect();
                    Fir::new(&branch)
                })
                .collect()
        };
        Ok((bank(taps), bank(&diff), per))
    }

    /// Sets the loop bandwidth (GNU Radio's `set_loop_bandwidth`).
    ///
    /// # Errors
    /// If it is negative or not finite.
    pub fn set_loop_bandwidth(&mut self, loop_bw: f32) -> Result<(), ParamError> {
        check(loop_bw.is_finite() && loop_bw >= 0.0, "loop_bw", || {
            format!("{} must be finite and at least 0", Num::from(loop_bw))
        })?;
        self.loop_bw = loop_bw;
        (self.alpha, self.beta) = loop_gains(loop_bw, 2.0 * self.nfilters as f32);
        Ok(())
    }

    /// The loop gains `(α, β)`.
    pub fn gains(&self) -> (f32, f32) {
        (self.alpha, self.beta)
    }

    /// The taps per filter of the bank.
    pub fn taps_per_filter(&self) -> usize {
        self.taps_per_filter
    }

    /// A timing estimate `center` (a `time_est` tag's value, in samples) on input item
    /// `offset`; it applies to the symbol that starts within `⌊sps⌋` positions before
    /// `offset` (positions counting the history, as GNU Radio's block counts them). Give
    /// them in offset order and before the input they are on.
    pub fn time_est(&mut self, offset: u64, center: f32) {
        if self.tags.len() == TAG_QUEUE {
            self.tags.pop_front();
        }
        self.tags.push_back((offset, center));
    }

    /// Makes whole symbols (`osps` outputs each) from `input` into `output` while the input
    /// and the output's room last; `err`, `rate` and `phase`, where given, get each output's
    /// loop error (of the symbol before), fractional rate and phase `k` (GNU Radio writes
    /// them on a symbol's first output; here every output of the symbol has them). Returns
    /// (inputs consumed, outputs made); inputs are taken ahead of the outputs.
    ///
    /// # Panics
    /// If a given `err`, `rate` or `phase` is shorter than `output`.
    pub fn process(
        &mut self,
        input: &[T],
        output: &mut [T],
        mut err: Option<&mut [f32]>,
        mut rate: Option<&mut [f32]>,
        mut phase: Option<&mut [f32]>,
    ) -> (usize, usize) {
        let (mut consumed, mut produced) = (0, 0);
        let nf = self.nfilters as i64;
        let tpf = self.taps_per_filter;
        loop {
            while produced + self.osps <= output.len() {
                let pending = self.history.pending();
                let mut k = self.k;
                let mut pos = self.pos as i64;
                // A `time_est` on an input up to `sps` after the symbol's position applies
                // to it: wait until those inputs (and so their tags) are in.
                if pos + self.sps as i64 + self.zeros as i64 > pending.len() as i64 {
                    break;
                }
                let mut tag_used = false;
                while let Some(&(offset, center)) = self.tags.front() {
                    let at = self.base + pos;
                    if (offset as i64) < at {
                        // Passed: GNU Radio drops it too by the next work call.
                        self.tags.pop_front();
                        continue;
                    }
                    if (offset as i64) < at + self.sps as i64 {
                        k = self.nfilters as f32 * (center + (offset as i64 - at) as f32);
                        tag_used = true;
                    }
                    break;
                }
                let mut filtnum = 0usize;
                let mut ok = true;
                let mut k_out = [0f32; 1];
                for o in 0..self.osps {
                    let mut f = k.floor() as i64;
                    while f >= nf {
                        k -= self.nfilters as f32;
                        f -= nf;
                        pos += 1;
                    }
                    while f < 0 {
                        k += self.nfilters as f32;
                        f += nf;
                        pos -= 1;
                    }
                    let start = (pos + o as i64).max(0) as usize;
                    if start + tpf > pending.len() {
                        ok = false;
                        break;
                    }
                    filtnum = f as usize;
                    self.filters[filtnum].filter(
                        &pending[start..start + tpf],
                        &mut output[produced + o..produced + o + 1],
                    );
                    k = k + self.rate_i as f32 + self.rate_f;
                    k_out[0] = k;
                }
                if !ok {
                    break;
                }
                let start = pos.max(0) as usize;
                let mut d = [T::default()];
                self.diff_filters[filtnum].filter(&pending[start..start + tpf], &mut d);
                let symbol = produced..produced + self.osps;
                for (slot, v) in [
                    (err.as_deref_mut(), self.error),
                    (rate.as_deref_mut(), self.rate_f),
                    (phase.as_deref_mut(), k_out[0]),
                ] {
                    if let Some(s) = slot {
                        s[symbol.clone()].fill(v);
                    }
                }
                self.error = T::timing_error(output[produced], d[0]);
                // GNU Radio 3.10 steps its loop `⌊sps⌋` times per symbol with the symbol's
                // error (measured on its outputs: rate and phase move by that much).
                for _ in 0..self.sps {
                    self.rate_f += self.beta * self.error;
                    k = k + self.rate_f + self.alpha * self.error;
                }
                self.rate_f = branchless_clip(self.rate_f, self.max_dev);
                if tag_used {
                    self.tags.pop_front();
                }
                self.k = k;
                self.filtnum = filtnum;
                self.pos = (pos + self.sps as i64).max(0) as usize;
                produced += self.osps;
            }
            // Keep a margin before the next window; load more input.
            let m = margin(self.sps);
            let drop = self.pos.saturating_sub(m).min(self.history.pending().len());
            self.history.advance(drop);
            self.pos -= drop;
            self.base += drop as i64;
            if produced + self.osps > output.len() {
                break;
            }
            let took = self.history.extend(&input[consumed..]);
            consumed += took;
            if took == 0 {
                break;
            }
        }
        (consumed, produced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firdes;
    use num_complex::Complex32;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// QPSK at `sps` samples per symbol through an RRC pulse, delayed by `delay` samples.
    fn qpsk(seed: u64, symbols: usize, sps: usize, delay: f32) -> Vec<Complex32> {
        let mut rng = StdRng::seed_from_u64(seed);
        let pulse =
            firdes::root_raised_cosine(sps as f64, sps as f64, 1.0, 0.35, 11 * sps + 1).unwrap();
        let mut x = vec![Complex32::default(); symbols * sps + pulse.len()];
        for i in 0..symbols {
            let s = Complex32::new(
                if rng.r#gen::<bool>() { 1.0 } else { -1.0 },
                if rng.r#gen::<bool>() { 1.0 } else { -1.0 },
            );
            for (j, &t) in pulse.iter().enumerate() {
                x[i * sps + j] += s * t;
            }
        }
        // A fractional delay by linear interpolation: enough for a timing offset.
        let (n, f) = (delay.floor() as usize, delay.fract());
        (0..x.len())
            .map(|i| {
                let a = if i >= n {
                    x[i - n]
                } else {
                    Complex32::default()
                };
                let b = if i > n {
                    x[i - n - 1]
                } else {
                    Complex32::default()
                };
                a * (1.0 - f) + b * f
            })
            .collect()
    }

    fn sync(osps: usize) -> PfbClockSync<Complex32> {
        let taps = firdes::root_raised_cosine(32.0, 128.0, 1.0, 0.35, 11 * 4 * 32).unwrap();
        PfbClockSync::new(4.0, 0.0628, &taps, 32, 16.0, 1.5, osps).unwrap()
    }

    #[test]
    fn locks_onto_the_symbols_whatever_the_delay() {
        for delay in [0.0, 1.3, 2.7] {
            let x = qpsk(1, 600, 4, delay);
            let mut s = sync(1);
            let mut y = vec![Complex32::default(); 700];
            let (_, n) = s.process(&x, &mut y, None, None, None);
            assert!(n >= 590, "{n}");
            let worst = y[300..n - 20]
                .iter()
                .map(|z| (z.re.abs() - 1.0).abs().max((z.im.abs() - 1.0).abs()))
                .fold(0.0f32, f32::max);
            assert!(worst < 0.25, "delay {delay}: worst {worst}");
        }
    }

    #[test]
    fn the_same_outputs_however_the_calls_are_split() {
        let x = qpsk(2, 300, 4, 1.5);
        for osps in [1, 2] {
            let mut whole = sync(osps);
            let mut y = vec![Complex32::default(); 2000];
            let mut e = vec![0.0; 2000];
            let (_, n) = whole.process(&x, &mut y, Some(&mut e), None, None);
            let mut split = sync(osps);
            let (mut at, mut got, mut got_e) = (0, Vec::new(), Vec::new());
            let mut rng = StdRng::seed_from_u64(osps as u64);
            loop {
                let (i, o) = (rng.gen_range(0..40), rng.gen_range(0..6));
                let mut yy = vec![Complex32::default(); o];
                let mut ee = vec![0.0; o];
                let end = (at + i).min(x.len());
                let (c, p) = split.process(&x[at..end], &mut yy, Some(&mut ee), None, None);
                at += c;
                got.extend_from_slice(&yy[..p]);
                got_e.extend_from_slice(&ee[..p]);
                if at == x.len() && c == 0 && p == 0 && o >= osps {
                    break;
                }
            }
            assert_eq!(got, y[..n], "osps {osps}");
            assert_eq!(got_e, e[..n], "osps {osps}");
        }
    }

    #[test]
    fn bad_parameters_are_named() {
        let taps = [0.1, 0.5, 1.0, 0.5, 0.1];
        let e = |r: Result<PfbClockSync<f32>, ParamError>| r.unwrap_err().name;
        assert_eq!(e(PfbClockSync::new(0.5, 0.1, &taps, 4, 0.0, 1.5, 1)), "sps");
        assert_eq!(
            e(PfbClockSync::new(2.0, -0.1, &taps, 4, 0.0, 1.5, 1)),
            "loop_bw"
        );
        assert_eq!(
            e(PfbClockSync::new(2.0, 0.1, &[1.0, 1.0], 4, 0.0, 1.5, 1)),
            "taps"
        );
        assert_eq!(
            e(PfbClockSync::new(2.0, 0.1, &[1.0; 5], 4, 0.0, 1.5, 1)),
            "taps"
        );
        assert_eq!(
            e(PfbClockSync::new(2.0, 0.1, &taps, 0, 0.0, 1.5, 1)),
            "filter_size"
        );
        assert_eq!(
            e(PfbClockSync::new(2.0, 0.1, &taps, 4, 0.0, 1.5, 0)),
            "osps"
        );
    }
}
