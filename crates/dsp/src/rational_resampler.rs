//! [`RationalResampler`]: change the sample rate by `interpolation / decimation`.

use crate::error::{check, ParamError};
use crate::fir::{Fir, FirSample};
use crate::history::{History, CHUNK};
use crate::interpolating_fir::polyphase;

/// A streaming polyphase rational resampler, GNU Radio's `rational_resampler_xxf`: the input
/// interpolated by `I` (zero-stuffed and filtered by `taps`, as [`InterpolatingFir`]) with
/// one sample in `D` kept, computing only the kept ones:
/// `y[k] = z[k·D + (L-1)·I]` where `z[n·I + p] = Σ_j taps[p + j·I] · x[n - j]` and `L` is
/// the branch length `⌈taps/I⌉`. Like GNU Radio's (checked against its output), it starts
/// at the first full window instead of from zero history: no start-up transient, and `L - 1`
/// input samples less delay than [`InterpolatingFir`].
///
/// The factors are used as given (a common divisor only costs work); design taps with
/// [`firdes::resampler`](crate::firdes::resampler) as GNU Radio does when given none.
///
/// [`InterpolatingFir`]: crate::InterpolatingFir
///
/// ```
/// use radioflow_dsp::{firdes, RationalResampler};
/// // 48 kHz to 44.1 kHz: 147/160.
/// let taps = firdes::resampler(147, 160, 0.0)?;
/// let mut rs = RationalResampler::<f32>::new(&taps, 147, 160)?;
/// let x = vec![1.0f32; 4800];
/// let mut y = vec![0.0f32; 4500];
/// let (consumed, produced) = rs.process(&x, &mut y);
/// // 4410 per 4800 in, less the first window (36 inputs per branch) not yet full.
/// assert_eq!((consumed, produced), (4800, 4378));
/// assert!((y[4000] - 1.0).abs() < 1e-3); // DC passes at unit gain
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct RationalResampler<T: FirSample> {
    branches: Vec<Fir<T>>,
    taps: Vec<f32>,
    decimation: usize,
    /// The branch of the next output: its position in `z` is `n·I + phase`, `n` the input
    /// sample ending the history's next window.
    phase: usize,
    history: History<T>,
}

impl<T: FirSample> RationalResampler<T> {
    /// A resampler by `interpolation / decimation` with these taps (designed at `I` times
    /// the input rate, gain `I`).
    ///
    /// # Errors
    /// If `taps` is empty or a factor is 0.
    pub fn new(taps: &[f32], interpolation: usize, decimation: usize) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        check(interpolation > 0, "interpolation", || {
            "must be at least 1".into()
        })?;
        check(decimation > 0, "decimation", || "must be at least 1".into())?;
        let branches = polyphase(taps, interpolation);
        let len = branches[0].taps().len();
        Ok(Self {
            branches,
            taps: taps.to_vec(),
            decimation,
            phase: 0,
            history: History::new(0, CHUNK.max(len + decimation)),
        })
    }

    /// The taps, as given.
    pub fn taps(&self) -> &[f32] {
        &self.taps
    }

    /// The interpolation factor.
    pub fn interpolation(&self) -> usize {
        self.branches.len()
    }

    /// The decimation factor.
    pub fn decimation(&self) -> usize {
        self.decimation
    }

    /// Resamples `input` into `output`: returns `(consumed, produced)`; it consumes input
    /// until `output` is full or `input` is used up.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let i = self.branches.len();
        let len = self.branches[0].taps().len();
        let (mut consumed, mut produced) = (0, 0);
        loop {
            while produced < output.len() {
                let pending = self.history.pending();
                if pending.len() < len {
                    break;
                }
                let out = &mut output[produced..=produced];
                self.branches[self.phase].filter_decimated(&pending[..len], out, 1);
                produced += 1;
                let next = self.phase + self.decimation;
                self.phase = next % i;
                self.history.advance(next / i);
            }
            if produced == output.len() {
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
    use crate::test_util::*;
    use num_complex::{Complex32, Complex64};

    /// Every `D`-th sample of the zero-stuffed input filtered by the taps, in f64, from the
    /// first full window.
    fn naive(taps: &[f32], i: usize, d: usize, x: &[Complex32]) -> Vec<Complex32> {
        let first = (taps.len().div_ceil(i) - 1) * i;
        let mut up = vec![Complex64::default(); x.len() * i];
        for (n, z) in to64(x).into_iter().enumerate() {
            up[n * i] = z;
        }
        let h: Vec<f64> = taps.iter().map(|&t| t.into()).collect();
        naive_convolve(&h, &up)
            .iter()
            .skip(first)
            .step_by(d)
            .map(|z| Complex32::new(z.re as f32, z.im as f32))
            .collect()
    }

    #[test]
    fn matches_the_naive_resampler_however_the_input_is_split() {
        for (taps_len, i, d) in [
            (1, 1, 1),
            (31, 3, 2),
            (61, 2, 5),
            (40, 7, 3),
            (9, 1, 4),
            (25, 4, 1),
            (50, 6, 4),
        ] {
            let taps = random_real(taps_len as u64, taps_len);
            let x = random_complex((i * 10 + d) as u64, 3000);
            let want = naive(&taps, i, d, &x);
            let mut rs = RationalResampler::<Complex32>::new(&taps, i, d).unwrap();
            let whole = run_whole(&x, want.len() + 10, |a, b| rs.process(a, b));
            assert_eq!(whole.len(), want.len(), "{i}/{d}");
            assert_close_complex(&whole, &want, 1e-5, "whole");
            let mut rs = RationalResampler::<Complex32>::new(&taps, i, d).unwrap();
            let split = run_split(9, &x, 700, |a, b| rs.process(a, b));
            assert_eq!(split, whole, "taps {taps_len} {i}/{d}");
        }
    }

    #[test]
    fn equals_gnu_radios_rational_resampler_ccf() {
        let taps = golden_real("lowpass_taps");
        let x = golden_complex("noise");
        for (i, d) in [(3, 2), (2, 5), (7, 3)] {
            let mut rs = RationalResampler::<Complex32>::new(&taps, i, d).unwrap();
            let got = run_whole(&x, x.len() * i / d + 1, |a, b| rs.process(a, b));
            let want = golden_complex(&format!("resampler_{i}_{d}"));
            // At the end of its input GNU Radio makes a few outputs more than there are full
            // windows (its last windows reach past the input); the rest must agree.
            assert!(
                got.len() + i >= want.len(),
                "{i}/{d}: {} vs {}",
                got.len(),
                want.len()
            );
            let n = got.len().min(want.len());
            assert_close_complex(&got[..n], &want[..n], 1e-5, &format!("{i}/{d}"));
        }
    }

    #[test]
    fn designed_taps_keep_a_tone_and_its_level() {
        let taps = firdes::resampler(3, 2, 0.0).unwrap();
        let mut rs = RationalResampler::<f32>::new(&taps, 3, 2).unwrap();
        // 0.05 cycles/sample in, 0.05·2/3 out.
        let x: Vec<f32> = (0..3000)
            .map(|n| (0.1 * std::f32::consts::PI * n as f32).cos())
            .collect();
        let y = run_whole(&x, 4500, |a, b| rs.process(a, b));
        assert!(y.len() > 4400, "{} outputs", y.len());
        let f = 0.05 * 2.0 / 3.0;
        // Least-squares amplitude of the expected tone over the settled part.
        let (mut c, mut s) = (0.0, 0.0);
        let settled = &y[500..];
        for (n, &v) in settled.iter().enumerate() {
            let p = 2.0 * std::f64::consts::PI * f * n as f64;
            c += f64::from(v) * p.cos();
            s += f64::from(v) * p.sin();
        }
        let amplitude = 2.0 * c.hypot(s) / settled.len() as f64;
        assert!((amplitude - 1.0).abs() < 0.01, "amplitude {amplitude}");
    }
}
