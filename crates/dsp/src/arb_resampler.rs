//! [`ArbResampler`]: change the sample rate by any ratio (a polyphase filter bank with linear
//! interpolation between adjacent phases).

use crate::error::{check, positive, ParamError};
use crate::fir::FirSample;
use crate::history::{History, CHUNK};
use crate::instruction_set::InstructionSet;

/// Independent partial sums of the portable dot products (two sets of them): `f32` lanes the
/// compiler keeps in vector registers; the sums of each component are gathered at the end.
const LANES: usize = 4;
/// Floats per step of the AVX2 dot products ([`dots_avx2_fma`]); a multiple of `2·LANES`.
const BLOCK: usize = 16;
/// The instruction sets the kernel is compiled for (besides the portable one).
const KERNELS: &[InstructionSet] = &[InstructionSet::Avx2Fma];

/// A streaming arbitrary-ratio resampler in the manner of GNU Radio's `pfb_arb_resampler`:
/// a prototype low-pass `h` designed at `N` times the input rate (gain `N`) is split into
/// `N` polyphase branches; an output falling between two branches is the linear
/// interpolation of both.
///
/// Output `k` is the input filtered by the prototype linearly interpolated between its
/// taps, at `τ_k = (L - 1)·N + k·N/rate` prototype samples (`L = ⌈taps/N⌉`, the branch
/// length): `y[k] = Σ_j h_lin(τ_k - N·j) · x[j]`, with
/// `h_lin(s) = (1 - f)·h[⌊s⌋] + f·h[⌊s⌋ + 1]`, `f = s - ⌊s⌋`, and `h` zero outside its
/// taps. Like [`RationalResampler`](crate::RationalResampler) it starts at the first full
/// window, which here includes the input sample after the branch's span (an output just
/// before it weighs it).
///
/// When `N/rate` is a whole number every output falls on a branch: the resampler is then
/// exactly the polyphase rational resampler `N / (N/rate)`, and one dot product of `L + 1`
/// taps is computed per output. Otherwise a second one, with the differences between the two
/// branches (GNU Radio's "derivative" filters), is added, weighted by the fraction. The
/// position is kept as whole input samples, a branch and a 64-bit fraction of a prototype
/// sample, stepped by `N/rate` (a step within 10⁻⁹ of a whole number is taken as whole): it
/// does not drift from the `f64` step, and what one output hands the next is a few integer
/// additions. Dot products use AVX2 and FMA where the CPU has them (as [`Fir`] does).
///
/// [`Fir`]: crate::Fir
///
/// State is kept between calls and nothing allocates after [`new`](Self::new); the output
/// does not depend on how the input is split.
///
/// ```
/// use radioflow_dsp::{firdes, ArbResampler, Complex32};
/// // 2.5 to 2 samples per symbol (rate 0.8) with 32 branches; the low-pass is designed at
/// // 32 × the input rate: pass 0.65, stop 1.35 (symbol rates), input at 2.5.
/// let taps = firdes::low_pass(32.0, 32.0 * 2.5, 1.0, 0.7, firdes::Window::Blackman)?;
/// let mut rs = ArbResampler::<Complex32>::new(&taps, 32, 0.8)?;
/// let x = vec![Complex32::new(1.0, 0.0); 5000];
/// let mut y = vec![Complex32::default(); 4100];
/// let (consumed, produced) = rs.process(&x, &mut y);
/// assert_eq!(consumed, 5000);
/// assert!((3980..=4000).contains(&produced)); // 4 per 5 in, less the first window
/// assert!((y[2000].re - 1.0).abs() < 1e-3); // DC passes at unit gain
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ArbResampler<T: FirSample> {
    /// `N + 1` branches over a window of `L + 1` input samples: the `L` a branch spans and
    /// the one after them. From the newest sample back, branch `p < N` is
    /// `0, h[p], h[p + N], …`; branch `N`, the upper neighbour of branch `N - 1`, is branch 0
    /// one sample later: `h[0], h[N], h[2N], …`. So every output is the interpolation of two
    /// branches over the same window. Stored oldest sample first, each tap repeated for
    /// every component of a sample, after zeros that make a branch a whole number of
    /// [`BLOCK`]s: branch `p` is `kernels[p·stride..(p + 1)·stride]`.
    kernels: Vec<f32>,
    /// Branch `p + 1` minus branch `p`, for `p < N`, laid out as `kernels`.
    diffs: Vec<f32>,
    /// `f32` weights per branch: `window · components`, a multiple of [`BLOCK`].
    stride: usize,
    /// Samples a dot product reads: `L + 1` and the zero-weighted ones before them (the
    /// history starts with as many zeros).
    window: usize,
    filters: usize,
    /// The compiled kernel this resampler runs: the widest of [`KERNELS`] this CPU has.
    kernel_set: InstructionSet,
    taps: Vec<f32>,
    /// Prototype samples per output, `N / rate`: `step_whole` input samples, `step_branch`
    /// branches (`< N`) and `step_frac / 2⁶⁴` of a prototype sample.
    step: f64,
    step_whole: usize,
    step_branch: usize,
    step_frac: u64,
    /// The next output's position past the window's next-to-newest input sample (the newest
    /// a branch spans): `branch` (`< N`) and `frac / 2⁶⁴` prototype samples.
    branch: usize,
    frac: u64,
    history: History<T>,
}

impl<T: FirSample> ArbResampler<T> {
    /// A resampler making `rate` outputs per input, with `filters` branches (`N`) of `taps`
    /// (the prototype low-pass, designed at `N` times the input rate with gain `N`).
    ///
    /// # Errors
    /// If `taps` is empty, `filters` is 0, or `rate` is not finite and positive.
    pub fn new(taps: &[f32], filters: usize, rate: f64) -> Result<Self, ParamError> {
        check(!taps.is_empty(), "taps", || "need at least one tap".into())?;
        check(filters > 0, "filters", || "must be at least 1".into())?;
        positive("rate", rate)?;
        // The `L` samples a branch spans and the one after them, after zeros that make the
        // dot products whole blocks (no remainder loop).
        let c = T::COMPONENTS;
        let span = taps.len().div_ceil(filters) + 1;
        let stride = (span * c).next_multiple_of(BLOCK);
        let (window, pad) = (stride / c, stride / c - span);
        let mut kernels = vec![0.0f32; (filters + 1) * stride];
        for (p, branch) in kernels.chunks_exact_mut(stride).enumerate() {
            // Window sample `pad + m` (oldest first) is the `(span - 1 - m)`-th newest,
            // weighed by h[p + N·(span - 2 - m)].
            for (m, w) in branch[pad * c..].chunks_exact_mut(c).enumerate() {
                let k = (p + (span - 1 - m) * filters).checked_sub(filters);
                w.fill(k.and_then(|k| taps.get(k)).copied().unwrap_or(0.0));
            }
        }
        let diffs = (0..filters * stride)
            .map(|i| kernels[i + stride] - kernels[i])
            .collect();
        let mut step = filters as f64 / rate;
        if (step - step.round()).abs() < 1e-9 {
            step = step.round();
        }
        let whole_step = step.floor();
        // The fraction in 64 bits: its top 53 from the f64.
        let step_frac = ((step - whole_step) * 2f64.powi(64)).min(u64::MAX as f64) as u64;
        let whole_step = whole_step.min(usize::MAX as f64 / 2.0) as usize;
        // The window moves by at most ⌈1/rate⌉ input samples per output.
        let advance = (1.0 / rate).ceil().min(usize::MAX as f64 / 4.0) as usize;
        Ok(Self {
            kernels,
            diffs,
            stride,
            window,
            filters,
            kernel_set: InstructionSet::best_of(KERNELS),
            taps: taps.to_vec(),
            step,
            step_whole: whole_step / filters,
            step_branch: whole_step % filters,
            step_frac,
            branch: 0,
            frac: 0,
            history: History::new(pad, CHUNK.max(window + advance)),
        })
    }

    /// The taps, as given.
    pub fn taps(&self) -> &[f32] {
        &self.taps
    }

    /// The number of branches `N`.
    pub fn filters(&self) -> usize {
        self.filters
    }

    /// Outputs per input.
    pub fn rate(&self) -> f64 {
        self.filters() as f64 / self.step
    }

    /// Resamples `input` into `output`: returns `(consumed, produced)`; it consumes input
    /// until `output` is full or `input` is used up.
    pub fn process(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        #[cfg(target_arch = "x86_64")]
        if self.kernel_set == InstructionSet::Avx2Fma {
            // SAFETY: `kernel_set` is `Avx2Fma` only when the CPU has AVX2 and FMA.
            return unsafe { process_avx2_fma(self, input, output) };
        }
        self.process_with::<false>(input, output)
    }

    /// [`process`](Self::process); `WIDE`: with the AVX2 and FMA dot products, only for a
    /// CPU that has them.
    #[inline(always)]
    fn process_with<const WIDE: bool>(&mut self, input: &[T], output: &mut [T]) -> (usize, usize) {
        let n = self.filters;
        let (mut consumed, mut produced) = (0, 0);
        loop {
            while produced < output.len() {
                let pending = self.history.pending();
                if pending.len() < self.window {
                    break;
                }
                let x = T::components(&pending[..self.window]);
                let p = self.branch;
                // The fraction's top 24 bits: exact in f32.
                let mu = (self.frac >> 40) as f32 * (1.0 / (1u32 << 24) as f32);
                let branch = &self.kernels[p * self.stride..(p + 1) * self.stride];
                let y = T::components_mut(&mut output[produced..=produced]);
                let diff =
                    (mu != 0.0).then(|| (&self.diffs[p * self.stride..(p + 1) * self.stride], mu));
                interpolate::<WIDE>(x, branch, diff, y);
                produced += 1;
                let (frac, carry) = self.frac.overflowing_add(self.step_frac);
                let mut branch = p + self.step_branch + usize::from(carry);
                let mut whole = self.step_whole;
                // Below 2N: one wrap at most.
                if branch >= n {
                    branch -= n;
                    whole += 1;
                }
                (self.frac, self.branch) = (frac, branch);
                self.history.advance(whole);
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

/// [`ArbResampler::process`] compiled with AVX2 and FMA, its dot products [`dots_avx2_fma`]:
/// the compiler vectorized the portable ones only two floats wide.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn process_avx2_fma<T: FirSample>(
    rs: &mut ArbResampler<T>,
    input: &[T],
    output: &mut [T],
) -> (usize, usize) {
    rs.process_with::<true>(input, output)
}

/// One output's components `y`: `Σ k·x` over the window's components `x` with the branch
/// `k`, plus `mu · Σ d·x` with the difference `d` when there is one.
#[inline(always)]
fn interpolate<const WIDE: bool>(x: &[f32], k: &[f32], d: Option<(&[f32], f32)>, y: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if WIDE {
        let s = match d {
            None => {
                // SAFETY: `WIDE` is true only inside `process_avx2_fma`, which runs only on a
                // CPU with AVX2 and FMA.
                let [s] = unsafe { dots_avx2_fma(x, [k]) };
                s
            }
            Some((d, mu)) => {
                // SAFETY: as above.
                let [s, t] = unsafe { dots_avx2_fma(x, [k, d]) };
                std::array::from_fn(|l| s[l] + mu * t[l])
            }
        };
        reduce(&s, y);
        return;
    }
    let s = match d {
        None => dot(x, k),
        Some((d, mu)) => {
            let (s, t) = dot2(x, k, d);
            std::array::from_fn(|l| s[l] + mu * t[l])
        }
    };
    reduce(&s, y);
}

/// The components of an output from partial sums whose lane `l` holds component `l mod C`
/// (their count a multiple of the 1 or 2 components).
#[inline(always)]
fn reduce(s: &[f32], y: &mut [f32]) {
    match y {
        [v] => *v = s.iter().sum(),
        [re, im] => {
            (*re, *im) = (0.0, 0.0);
            for pair in s.chunks_exact(2) {
                *re += pair[0];
                *im += pair[1];
            }
        }
        _ => {
            let c = y.len();
            for (j, v) in y.iter_mut().enumerate() {
                *v = (j..s.len()).step_by(c).map(|l| s[l]).sum();
            }
        }
    }
}

/// `Σ w·x` in [`LANES`] partial sums (lane `l` from the elements `≡ l mod LANES`), for
/// lengths that are a multiple of `2·LANES`: independent sums in two sets, so the compiler
/// vectorizes without reassociating (only two floats wide, though: hence the AVX2 kernel).
#[inline(always)]
fn dot(x: &[f32], w: &[f32]) -> [f32; LANES] {
    debug_assert!(x.len() == w.len() && x.len().is_multiple_of(2 * LANES));
    let (mut a, mut b) = ([0.0f32; LANES], [0.0f32; LANES]);
    for (xc, wc) in x.chunks_exact(2 * LANES).zip(w.chunks_exact(2 * LANES)) {
        for l in 0..LANES {
            a[l] += wc[l] * xc[l];
            b[l] += wc[LANES + l] * xc[LANES + l];
        }
    }
    for l in 0..LANES {
        a[l] += b[l];
    }
    a
}

/// The dot products of `x` with each of `K` weight vectors (as long as `x`, a multiple of
/// [`BLOCK`]) in one pass over `x`, each summed into eight lanes: lane `l` holds the products
/// of the elements whose index is `l` modulo 8 (with interleaved complex samples, even lanes
/// are real parts). Two accumulators per product hide the multiply-add's latency.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dots_avx2_fma<const K: usize>(x: &[f32], w: [&[f32]; K]) -> [[f32; 8]; K] {
    use std::arch::x86_64::*;
    assert!(x.len().is_multiple_of(BLOCK) && w.iter().all(|w| w.len() == x.len()));
    let mut acc = [[_mm256_setzero_ps(); 2]; K];
    for i in (0..x.len()).step_by(BLOCK) {
        // SAFETY: i + 16 <= x.len() = w[j].len() (asserted, BLOCK = 16): every load reads
        // inside its slice; the loads are unaligned ones.
        unsafe {
            let x0 = _mm256_loadu_ps(x.as_ptr().add(i));
            let x1 = _mm256_loadu_ps(x.as_ptr().add(i + 8));
            for (a, w) in acc.iter_mut().zip(w) {
                a[0] = _mm256_fmadd_ps(x0, _mm256_loadu_ps(w.as_ptr().add(i)), a[0]);
                a[1] = _mm256_fmadd_ps(x1, _mm256_loadu_ps(w.as_ptr().add(i + 8)), a[1]);
            }
        }
    }
    let mut out = [[0.0f32; 8]; K];
    for (a, o) in acc.iter().zip(&mut out) {
        // SAFETY: `o` holds eight floats; the store is an unaligned one.
        unsafe { _mm256_storeu_ps(o.as_mut_ptr(), _mm256_add_ps(a[0], a[1])) };
    }
    out
}

/// [`dot`] of `x` with `w` and with `v`, in one pass over `x`.
#[inline(always)]
fn dot2(x: &[f32], w: &[f32], v: &[f32]) -> ([f32; LANES], [f32; LANES]) {
    debug_assert!(x.len() == w.len() && x.len() == v.len() && x.len().is_multiple_of(2 * LANES));
    let (mut a, mut b) = ([0.0f32; 2 * LANES], [0.0f32; 2 * LANES]);
    for ((xc, wc), vc) in x
        .chunks_exact(2 * LANES)
        .zip(w.chunks_exact(2 * LANES))
        .zip(v.chunks_exact(2 * LANES))
    {
        for l in 0..2 * LANES {
            a[l] += wc[l] * xc[l];
            b[l] += vc[l] * xc[l];
        }
    }
    (
        std::array::from_fn(|l| a[l] + a[LANES + l]),
        std::array::from_fn(|l| b[l] + b[LANES + l]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::firdes;
    use crate::test_util::*;
    use num_complex::{Complex32, Complex64};

    /// The interpolating filter evaluated directly at each output instant, in f64: every
    /// output whose window (up to the sample after the newest the taps reach) lies inside `x`.
    fn naive(taps: &[f32], filters: usize, rate: f64, x: &[Complex32]) -> Vec<Complex32> {
        let h: Vec<f64> = taps.iter().map(|&t| t.into()).collect();
        let tap = |i: usize| h.get(i).copied().unwrap_or(0.0);
        let h_lin = |s: f64| {
            if s <= -1.0 {
                return 0.0;
            }
            let below = s.floor();
            let f = s - below;
            let at = |i: f64| if i < 0.0 { 0.0 } else { tap(i as usize) };
            (1.0 - f) * at(below) + f * at(below + 1.0)
        };
        let len = taps.len().div_ceil(filters);
        let n = filters as f64;
        let x = to64(x);
        let mut out = Vec::new();
        for k in 0.. {
            let tau = (len - 1) as f64 * n + k as f64 * n / rate;
            // The sample after the newest one the taps reach at τ must be there too.
            let next = (tau / n).floor() as usize + 1;
            if next >= x.len() {
                break;
            }
            let y: Complex64 = (0..=next)
                .rev()
                .take(len + 2)
                .map(|j| x[j] * h_lin(tau - n * j as f64))
                .sum();
            out.push(Complex32::new(y.re as f32, y.im as f32));
        }
        out
    }

    #[test]
    fn matches_the_naive_interpolating_filter_however_the_input_is_split() {
        for (taps_len, filters, rate) in [
            (1, 1, 1.0),
            (64, 32, 0.8),
            (300, 32, 2.0 / 3.37),
            (90, 16, 1.0 / 1.7),
            (77, 8, 2.0 / 1.3),
            (200, 32, 0.125),
            (33, 4, std::f64::consts::PI),
            (40, 32, 1.0),
        ] {
            let taps = random_real(taps_len as u64, taps_len);
            let x = random_complex(filters as u64 + taps_len as u64, 3000);
            let want = naive(&taps, filters, rate, &x);
            let what = format!("{taps_len} taps, {filters} filters, rate {rate}");
            // Every kernel this CPU runs.
            for kernel_set in InstructionSet::available()
                .filter(|s| *s == InstructionSet::Portable || KERNELS.contains(s))
            {
                let what = format!("{what}, {kernel_set}");
                let mut rs = ArbResampler::<Complex32>::new(&taps, filters, rate).unwrap();
                rs.kernel_set = kernel_set;
                let whole = run_whole(&x, want.len() + 10, |a, b| rs.process(a, b));
                assert_eq!(whole.len(), want.len(), "{what}");
                assert_close_complex(&whole, &want, 1e-5, &what);
                let mut rs = ArbResampler::<Complex32>::new(&taps, filters, rate).unwrap();
                rs.kernel_set = kernel_set;
                let split = run_split(7, &x, 700, |a, b| rs.process(a, b));
                assert_eq!(split, whole, "{what}");
            }
            // Real samples: the same taps on the real parts.
            let re: Vec<f32> = x.iter().map(|z| z.re).collect();
            let mut rs = ArbResampler::<f32>::new(&taps, filters, rate).unwrap();
            let got = run_whole(&re, want.len() + 10, |a, b| rs.process(a, b));
            let want_re: Vec<f32> = want.iter().map(|z| z.re).collect();
            assert_close_real(&got, &want_re, 1e-5, &what);
        }
    }

    #[test]
    fn a_whole_step_is_the_rational_resampler() {
        // 32 branches at rate 0.8: 40 prototype samples per output, every output on a branch.
        let taps = random_real(5, 200);
        let x = random_complex(6, 2000);
        let mut arb = ArbResampler::<Complex32>::new(&taps, 32, 0.8).unwrap();
        let mut rational = crate::RationalResampler::<Complex32>::new(&taps, 32, 40).unwrap();
        let a = run_whole(&x, 2000, |i, o| arb.process(i, o));
        let b = run_whole(&x, 2000, |i, o| rational.process(i, o));
        // The same outputs, but the last: its window's next sample is not there.
        assert_eq!(a.len() + 1, b.len());
        assert_close_complex(&a, &b[..a.len()], 1e-6, "arb vs rational");
    }

    #[test]
    fn a_designed_low_pass_keeps_a_tone_and_its_level() {
        // 3.37 to 2 samples per symbol: a tone at 0.3 symbol rates comes out at 0.15 cycles
        // per output sample, at unit amplitude.
        let (sps, filters) = (3.37, 32);
        let taps = firdes::low_pass(
            filters as f64,
            filters as f64 * sps,
            1.0,
            0.7,
            firdes::Window::Blackman,
        )
        .unwrap();
        let mut rs = ArbResampler::<Complex32>::new(&taps, filters, 2.0 / sps).unwrap();
        let f = 0.3 / sps;
        let x: Vec<Complex32> = (0..20_000)
            .map(|n| Complex32::from_polar(1.0, (std::f64::consts::TAU * f * n as f64) as f32))
            .collect();
        let y = run_whole(&x, 12_000, |a, b| rs.process(a, b));
        let settled = &y[200..];
        // Least-squares complex amplitude of the expected tone, then the residual.
        let g: Complex64 = settled
            .iter()
            .enumerate()
            .map(|(n, z)| {
                Complex64::new(z.re.into(), z.im.into())
                    * Complex64::from_polar(1.0, -std::f64::consts::TAU * 0.15 * n as f64)
            })
            .sum::<Complex64>()
            / settled.len() as f64;
        assert!((g.norm() - 1.0).abs() < 1e-3, "amplitude {}", g.norm());
        let err: f64 = settled
            .iter()
            .enumerate()
            .map(|(n, z)| {
                let want = g * Complex64::from_polar(1.0, std::f64::consts::TAU * 0.15 * n as f64);
                (Complex64::new(z.re.into(), z.im.into()) - want).norm_sqr()
            })
            .sum::<f64>()
            / settled.len() as f64;
        // Linear interpolation between 32 branches: its error is far below the signal.
        assert!(
            10.0 * err.log10() < -60.0,
            "error {:.1} dB",
            10.0 * err.log10()
        );
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = |r: Result<ArbResampler<f32>, ParamError>| r.unwrap_err().name;
        assert_eq!(e(ArbResampler::new(&[], 4, 1.0)), "taps");
        assert_eq!(e(ArbResampler::new(&[1.0], 0, 1.0)), "filters");
        assert_eq!(e(ArbResampler::new(&[1.0], 4, 0.0)), "rate");
        assert_eq!(e(ArbResampler::new(&[1.0], 4, f64::NAN)), "rate");
    }
}
