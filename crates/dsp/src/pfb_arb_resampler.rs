//! [`PfbArbResampler`]: GNU Radio's polyphase arbitrary resampler, output for output.

use crate::error::{check, ParamError};
use crate::fir::FirSample;
use crate::history::{History, CHUNK};

/// A streaming arbitrary-ratio resampler computed as GNU Radio's `pfb_arb_resampler_xxf`
/// kernel computes it, so that its outputs equal GNU Radio's to float rounding.
///
/// The prototype `taps` (designed at `N` times the input rate, gain `N`) are split into
/// `N = filters` polyphase branches of `L = ⌈taps/N⌉` taps (`branch[i][k] = taps[i + k·N]`),
/// each with a "derivative" branch made from the differences `taps[i+1] - taps[i]`. For each
/// input window (the `L` newest inputs, from `L - 1` zero samples of history), outputs are made
/// at branches `j < N`: `y = branch[j]·x + acc · diff[j]·x`, then `acc += N/rate - ⌊N/rate⌋`,
/// `j += ⌊N/rate⌋ + ⌊acc⌋`, `acc = acc mod 1`; when `j` reaches `N` the window moves
/// `⌊j/N⌋` inputs on and `j` wraps. Like GNU Radio, the first branch is `(taps/2) mod N` and
/// the step and accumulator are `f32` (so the phase drifts exactly as GNU Radio's does).
///
/// [`ArbResampler`](crate::ArbResampler) is the same filter with an exact position and a
/// vectorized dot product; this kernel is the one a GNU Radio flowgraph's numbers are
/// reproduced with.
///
/// State is kept between calls and nothing allocates after [`new`](Self::new); the output
/// does not depend on how the input is split.
///
/// ```
/// use radioflow_dsp::{firdes, PfbArbResampler};
/// let taps = firdes::low_pass(32.0, 32.0, 0.4, 0.2, firdes::Window::Hamming)?;
/// let mut rs = PfbArbResampler::<f32>::new(&taps, 32, 1.5)?;
/// let x = vec![1.0f32; 1000];
/// let mut y = vec![0.0f32; 2000];
/// let (consumed, produced) = rs.process(&x, &mut y);
/// assert_eq!(consumed, 1000);
/// assert!((1495..=1500).contains(&produced)); // 3 per 2 in
/// assert!((y[1000] - 1.0).abs() < 1e-3); // DC passes at unit gain
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PfbArbResampler<T: FirSample> {
    /// `N` branches of `L` taps each, reversed (`kernel[m]` weighs the `m`-th, oldest first,
    /// sample of the window).
    filters: Vec<f32>,
    /// The derivative branches, laid out as `filters`.
    diffs: Vec<f32>,
    taps: Vec<f32>,
    /// `N`.
    nfilts: usize,
    /// `L`.
    len: usize,
    rate: f32,
    /// `⌊N/rate⌋` and `N/rate - ⌊N/rate⌋`, in `f32` as GNU Radio keeps them.
    dec_rate: usize,
    flt_rate: f32,
    /// The fraction between the branch `j` and the next, in `[0, 1)`.
    acc: f32,
    /// The branch of the next output, below `N` between windows.
    j: usize,
    history: History<T>,
}

impl<T: FirSample> PfbArbResampler<T> {
    /// A resampler by `rate` (outputs per input) with `filters` branches of the prototype
    /// `taps`.
    ///
    /// # Errors
    /// If `taps` is empty, `filters` is 0 or `rate` is not finite and positive.
    pub fn new(taps: &[f32], filters: usize, rate: f64) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        check(filters > 0, "filters", || "must be at least 1".into())?;
        let rate = rate as f32;
        check(rate.is_finite() && rate > 0.0, "rate", || {
            format!("{rate} must be finite and positive")
        })?;
        let len = taps.len().div_ceil(filters);
        let diff: Vec<f32> = taps
            .windows(2)
            .map(|w| -w[0] + w[1])
            .chain(std::iter::once(0.0))
            .collect();
        let bank = |h: &[f32]| -> Vec<f32> {
            (0..filters)
                .flat_map(|i| {
                    (0..len)
                        .rev()
                        .map(move |k| h.get(i + k * filters).copied().unwrap_or(0.0))
                })
                .collect()
        };
        let step = filters as f32 / rate;
        let dec_rate = step.floor() as usize;
        Ok(Self {
            filters: bank(taps),
            diffs: bank(&diff),
            taps: taps.to_vec(),
            nfilts: filters,
            len,
            rate,
            dec_rate,
            flt_rate: step - dec_rate as f32,
            acc: 0.0,
            j: (taps.len() / 2) % filters,
            history: History::new(len - 1, CHUNK.max(len)),
        })
    }

    /// The prototype taps GNU Radio's `pfb.arb_resampler_xxx` designs when given none
    /// (`create_taps`): for `rate >= 1`, an equiripple low-pass ([`optfir::low_pass`],
    /// pass to 0.4, stop from 0.6 of the input rate, 0.1 dB ripple raised by 0.01 dB until
    /// the design converges); below, `firdes::low_pass_2` with a Blackman-Harris window,
    /// pass to `0.4·rate`, transition `0.2·rate`. Both at `filters` times the input rate
    /// with gain `filters`, `atten_db` down in the stop band.
    ///
    /// # Errors
    /// If `rate` or `atten_db` is not positive, `filters` is 0, or no ripple below 1 dB gives
    /// a design (GNU Radio's "optfir could not generate an appropriate filter").
    ///
    /// [`optfir::low_pass`]: crate::optfir::low_pass
    pub fn default_taps(rate: f64, filters: usize, atten_db: f64) -> Result<Vec<f32>, ParamError> {
        check(filters > 0, "filters", || "must be at least 1".into())?;
        check(rate.is_finite() && rate > 0.0, "rate", || {
            format!("{rate} must be finite and positive")
        })?;
        let (n, percent) = (filters as f64, 0.80);
        if rate < 1.0 {
            let halfband = 0.5 * rate;
            let (bw, tb) = (percent * halfband, (percent / 2.0) * halfband);
            return crate::firdes::low_pass_2(
                n,
                n,
                bw,
                tb,
                atten_db,
                crate::firdes::Window::BlackmanHarris,
            );
        }
        let halfband = 0.5;
        let (bw, tb) = (percent * halfband, (percent / 2.0) * halfband);
        let mut ripple = 0.1;
        loop {
            match crate::optfir::low_pass(n, n, bw, bw + tb, ripple, atten_db, 2) {
                Ok(taps) => return Ok(taps.into_iter().map(|t| t as f32).collect()),
                Err(e) if e.name != "bands" => return Err(e),
                Err(_) => {
                    ripple += 0.01;
                    check(ripple < 1.0, "atten", || {
                        format!(
                            "no equiripple design of {atten_db} dB with {filters} filters \
                             converges (pass the taps instead)"
                        )
                    })?;
                }
            }
        }
    }

    /// The prototype taps, as given.
    pub fn taps(&self) -> &[f32] {
        &self.taps
    }

    /// The number of branches.
    pub fn filters(&self) -> usize {
        self.nfilts
    }

    /// Taps per branch: GNU Radio's `taps_per_filter`, the block's history.
    pub fn taps_per_filter(&self) -> usize {
        self.len
    }

    /// Resamples by `rate` from the next output on, as GNU Radio's `set_rate`: the branch
    /// steps change; the filter index, its fraction and the history run on.
    ///
    /// # Errors
    /// If `rate` is not finite and positive; the kernel is unchanged.
    pub fn set_rate(&mut self, rate: f64) -> Result<(), ParamError> {
        let rate = rate as f32;
        check(rate.is_finite() && rate > 0.0, "rate", || {
            format!("{rate} must be finite and positive")
        })?;
        let step = self.nfilts as f32 / rate;
        self.rate = rate;
        self.dec_rate = step.floor() as usize;
        self.flt_rate = step - self.dec_rate as f32;
        Ok(())
    }

    /// The rate, outputs per input, as the kernel keeps it (`f32`, as GNU Radio does).
    pub fn rate(&self) -> f32 {
        self.rate
    }

    /// Resamples `input` into `output`: returns `(consumed, produced)`. An input window's
    /// outputs are made all together, so an `output` with less room than that window
    /// needs (at most `⌈rate⌉ + 1`) gets nothing more.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let (n, l, c) = (self.nfilts, self.len, T::COMPONENTS);
        let room = self.rate.ceil() as usize + 1;
        let (mut consumed, mut produced) = (0, 0);
        loop {
            while output.len() - produced >= room {
                let pending = self.history.pending();
                if pending.len() < l {
                    break;
                }
                let x = T::components(&pending[..l]);
                while self.j < n {
                    let at = self.j * l;
                    let out = T::components_mut(&mut output[produced..produced + 1]);
                    for (ci, o) in out.iter_mut().enumerate() {
                        let o0 = dot(&self.filters[at..at + l], x, c, ci);
                        let o1 = dot(&self.diffs[at..at + l], x, c, ci);
                        *o = o0 + o1 * self.acc;
                    }
                    produced += 1;
                    self.acc += self.flt_rate;
                    self.j += self.dec_rate + self.acc.floor() as usize;
                    self.acc %= 1.0;
                }
                self.history.advance(self.j / n);
                self.j %= n;
            }
            if output.len() - produced < room {
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

/// `Σ_m kernel[m] · x[m]` over component `ci` of samples of `c` components.
fn dot(kernel: &[f32], x: &[f32], c: usize, ci: usize) -> f32 {
    kernel
        .iter()
        .zip(x.iter().skip(ci).step_by(c))
        .fold(0.0, |s, (k, v)| s + k * v)
}

#[cfg(test)]
mod tests {
    #[test]
    fn set_rate_keeps_the_filter_index_fraction_and_history_as_gnu_radio_s() {
        let taps = PfbArbResampler::<f32>::default_taps(1.37, 16, 80.0).unwrap();
        let x: Vec<f32> = (0..3000).map(|n| (n as f32 * 0.05).sin()).collect();
        let mut a = PfbArbResampler::<f32>::new(&taps, 16, 1.37).unwrap();
        let mut y = vec![0.0f32; 8000];
        let (c, _) = a.process(&x[..1000], &mut y);
        assert_eq!(c, 1000);
        let at_change = a.clone();
        a.set_rate(0.61).unwrap();
        assert!(a.set_rate(-1.0).is_err() && a.rate() == 0.61f32);
        // A kernel made at the new rate, in the state the old one had reached.
        let mut b = PfbArbResampler::<f32>::new(&taps, 16, 0.61).unwrap();
        b.j = at_change.j;
        b.acc = at_change.acc;
        b.history = at_change.history.clone();
        let (mut ya, mut yb) = (vec![0.0f32; 4000], vec![0.0f32; 4000]);
        let (ca, pa) = a.process(&x[1000..], &mut ya);
        let (cb, pb) = b.process(&x[1000..], &mut yb);
        assert_eq!((ca, pa), (cb, pb));
        assert!((1215..=1225).contains(&pa), "{pa}: 0.61 per input");
        assert_eq!(ya[..pa], yb[..pb]);
    }

    use super::*;
    use crate::test_util::*;
    use num_complex::Complex32;

    /// GNU Radio's loop written out directly over the whole input, zero history prepended.
    fn naive(taps: &[f32], n: usize, rate: f32, x: &[Complex32]) -> Vec<Complex32> {
        let l = taps.len().div_ceil(n);
        let h = |i: usize| taps.get(i).copied().unwrap_or(0.0);
        let d = |i: usize| {
            if i + 1 < taps.len() {
                h(i + 1) - h(i)
            } else {
                0.0
            }
        };
        let mut padded = vec![Complex32::default(); l - 1];
        padded.extend_from_slice(x);
        let step = n as f32 / rate;
        let (dec, flt) = (step.floor() as usize, step - step.floor());
        let (mut j, mut acc, mut i_in, mut y) = ((taps.len() / 2) % n, 0f32, 0, Vec::new());
        while i_in < x.len() {
            while j < n {
                let (mut o0, mut o1) = (Complex32::default(), Complex32::default());
                for k in 0..l {
                    let s = padded[i_in + l - 1 - k];
                    o0 += s * h(j + k * n);
                    o1 += s * d(j + k * n);
                }
                y.push(o0 + o1 * acc);
                acc += flt;
                j += dec + acc.floor() as usize;
                acc %= 1.0;
            }
            i_in += j / n;
            j %= n;
        }
        y
    }

    #[test]
    fn equals_gnu_radios_loop_whatever_the_calls() {
        let x = random_complex(3, 700);
        for (ntaps, n, rate) in [(101, 8, 1.37), (64, 16, 0.41), (33, 4, 3.0), (5, 32, 0.9)] {
            let taps: Vec<f32> = random_real(ntaps as u64, ntaps);
            let want = naive(&taps, n, rate as f32, &x);
            for seed in [1, 2] {
                let mut rs = PfbArbResampler::<Complex32>::new(&taps, n, rate).unwrap();
                let y = run_split(seed, &x, 64, |a, b| rs.process(a, b));
                assert_eq!(y.len(), want.len(), "{ntaps}/{n}/{rate}");
                assert_close_complex(&y, &want, 1e-5, "pfb arb");
            }
        }
    }

    /// GNU Radio's `pfb_arb_resampler_{ccf,fff,ccc}` on the same input (`golden/blocks.json`):
    /// within 1e-5 (dot products summed in another order; outputs are of order 1). GNU Radio
    /// stops short of the last input window (its forecast asks for the window's history
    /// ahead), so its output is a prefix of this one's.
    #[test]
    fn equals_gnu_radios_block() {
        let noise = golden_complex("noise");
        let real = golden_real("real");
        let prefix_of = |got: usize, want: usize, (l, rate): (usize, f32), what: &str| {
            let slack = (l + 1) * rate.ceil() as usize;
            assert!(
                got >= want && got <= want + slack,
                "{what}: {got} outputs, GNU Radio {want}"
            );
        };
        for (key, rate) in [
            ("pfb_arb_1.5", 1.5),
            ("pfb_arb_0.75", 0.75),
            ("pfb_arb_2", 2.0),
        ] {
            let taps = golden_real(&format!("{key}_taps"));
            let mut rs = PfbArbResampler::<Complex32>::new(&taps, 32, rate).unwrap();
            let y = run_split(4, &noise[..600], 64, |a, b| rs.process(a, b));
            let want = golden_complex(key);
            prefix_of(y.len(), want.len(), (rs.taps_per_filter(), rs.rate()), key);
            assert_close_complex(&y[..want.len()], &want, 1e-5, key);
        }
        let taps = golden_real("pfb_arb_fff_taps");
        let mut rs = PfbArbResampler::<f32>::new(&taps, 8, 1.37).unwrap();
        let y = run_split(5, &real[..600], 64, |a, b| rs.process(a, b));
        let want = golden_real("pfb_arb_fff");
        prefix_of(
            y.len(),
            want.len(),
            (rs.taps_per_filter(), rs.rate()),
            "fff",
        );
        assert_close_real(&y[..want.len()], &want, 1e-5, "fff");
        // Complex taps (`ccc`): the filter is linear in its taps, so one bank of the taps'
        // real parts plus `j` times one of their imaginary parts.
        let taps = golden_complex("pfb_arb_ccc_taps");
        let re: Vec<f32> = taps.iter().map(|t| t.re).collect();
        let im: Vec<f32> = taps.iter().map(|t| t.im).collect();
        let mut a = PfbArbResampler::<Complex32>::new(&re, 16, 0.61).unwrap();
        let mut b = PfbArbResampler::<Complex32>::new(&im, 16, 0.61).unwrap();
        let ya = run_split(6, &noise[..600], 64, |x, y| a.process(x, y));
        let yb = run_split(6, &noise[..600], 64, |x, y| b.process(x, y));
        let y: Vec<Complex32> = ya
            .iter()
            .zip(&yb)
            .map(|(a, b)| a + Complex32::i() * b)
            .collect();
        let want = golden_complex("pfb_arb_ccc");
        prefix_of(y.len(), want.len(), (a.taps_per_filter(), a.rate()), "ccc");
        assert_close_complex(&y[..want.len()], &want, 1e-5, "ccc");
    }

    #[test]
    fn default_taps_are_gnu_radios() {
        for (key, rate) in [
            ("pfb_arb_1.5", 1.5),
            ("pfb_arb_0.75", 0.75),
            ("pfb_arb_2", 2.0),
        ] {
            let want = golden_real(&format!("{key}_taps"));
            let got = PfbArbResampler::<f32>::default_taps(rate, 32, 100.0).unwrap();
            assert_eq!(got.len(), want.len(), "{key}");
            let peak = want.iter().fold(0f32, |m, t| m.max(t.abs()));
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() <= 1e-6 * peak,
                    "{key}: tap {i}: {g} vs GNU Radio {w}"
                );
            }
        }
    }

    #[test]
    fn refuses_bad_parameters() {
        assert_eq!(
            PfbArbResampler::<f32>::new(&[], 4, 1.0).unwrap_err().name,
            "taps"
        );
        assert_eq!(
            PfbArbResampler::<f32>::new(&[1.0], 0, 1.0)
                .unwrap_err()
                .name,
            "filters"
        );
        let e = PfbArbResampler::<f32>::new(&[1.0], 4, -1.0).unwrap_err();
        assert_eq!(e.name, "rate");
    }
}
