//! Finite impulse response filter with real taps, for real and complex samples.
//!
//! One portable kernel, written so that the compiler vectorizes it (outputs computed side by side
//! in independent lanes, so no reassociation is needed), compiled three times: as is (SSE2 on
//! x86-64) and, on x86-64 machines that have them, with AVX2 and FMA, and with AVX-512, chosen
//! when the filter is made ([`InstructionSet::best_of`]). The decimating kernel is written with
//! intrinsics for AVX2 and AVX-512.
//!
//! The AVX2+FMA and AVX-512 paths give bit-identical outputs: each output is summed in the same
//! order by both (only how many outputs share a pass over the taps differs), so a result does
//! not depend on the machine that computed it once the CPU has FMA. The portable path rounds
//! each product before adding it (no FMA), so it differs from them by rounding only.

use crate::instruction_set::InstructionSet;
use num_complex::Complex32;

/// The instruction sets the kernels are compiled for (besides the portable one).
const KERNELS: &[InstructionSet] = &[InstructionSet::Avx2Fma, InstructionSet::Avx512];

/// Outputs computed together: four AVX registers, eight SSE registers.
const LANES: usize = 32;

/// Outputs computed together by the AVX-512 kernel: eight registers of 16, enough independent
/// multiply-add chains to keep two pipes busy through a latency of four cycles.
#[cfg(target_arch = "x86_64")]
const LANES_AVX512: usize = 128;

/// A sample type the FIR kernel filters: made of `f32` components that are filtered
/// independently by the same real taps (one for `f32`, two for `Complex32`).
pub trait FirSample: Copy + Default + Send + 'static {
    /// `f32` components per sample.
    const COMPONENTS: usize;
    /// The samples as their components.
    fn components(s: &[Self]) -> &[f32];
    /// The samples as their components, mutably.
    fn components_mut(s: &mut [Self]) -> &mut [f32];
}

impl FirSample for f32 {
    const COMPONENTS: usize = 1;
    fn components(s: &[Self]) -> &[f32] {
        s
    }
    fn components_mut(s: &mut [Self]) -> &mut [f32] {
        s
    }
}

impl FirSample for Complex32 {
    const COMPONENTS: usize = 2;
    fn components(s: &[Self]) -> &[f32] {
        bytemuck::cast_slice(s)
    }
    fn components_mut(s: &mut [Self]) -> &mut [f32] {
        bytemuck::cast_slice_mut(s)
    }
}

/// An FIR filter `y[n] = Σ_k taps[k] · x[n - k]` (no state: the caller passes the history).
///
/// ```
/// use radioflow_dsp::Fir;
/// let fir = Fir::<f32>::new(&[0.5, 0.5]);
/// let x = [1.0, 3.0, 5.0, 7.0];
/// let mut y = [0.0; 3];
/// // Each output needs the `taps - 1` inputs before it: 4 inputs give 3 outputs.
/// assert_eq!(fir.filter(&x, &mut y), 3);
/// assert_eq!(y, [2.0, 4.0, 6.0]);
/// ```
#[derive(Clone, Debug)]
pub struct Fir<T: FirSample> {
    taps: Vec<f32>,
    /// Taps reversed: `kernel[m]` weighs the `m`-th sample of an output's input window.
    kernel: Vec<f32>,
    /// `kernel` with each tap repeated for every component of a sample, then zeros up to a
    /// multiple of `LANES`: the weights of an output's input window as `f32` components,
    /// for the decimating kernel's dot products.
    kernel_components: Vec<f32>,
    /// The compiled kernel this filter runs: the widest of [`KERNELS`] this CPU has.
    kernel_set: InstructionSet,
    _sample: std::marker::PhantomData<fn() -> T>,
}

impl<T: FirSample> Fir<T> {
    /// A filter with these taps (`taps[0]` weighs the newest sample).
    ///
    /// # Panics
    /// If `taps` is empty.
    pub fn new(taps: &[f32]) -> Self {
        assert!(!taps.is_empty(), "an FIR filter needs at least one tap");
        let kernel: Vec<f32> = taps.iter().rev().copied().collect();
        let mut kernel_components: Vec<f32> = kernel
            .iter()
            .flat_map(|&t| std::iter::repeat_n(t, T::COMPONENTS))
            .collect();
        kernel_components.resize(kernel_components.len().next_multiple_of(LANES), 0.0);
        Self {
            taps: taps.to_vec(),
            kernel,
            kernel_components,
            kernel_set: InstructionSet::best_of(KERNELS),
            _sample: std::marker::PhantomData,
        }
    }

    /// The taps, as given.
    pub fn taps(&self) -> &[f32] {
        &self.taps
    }

    /// Filters `input`, which starts with the `taps - 1` samples of history, into `output`:
    /// `output[i]` is the output for `input[i + taps - 1]`. Writes and returns
    /// `input.len() - (taps - 1)` outputs (0 if the input is shorter than that).
    ///
    /// # Panics
    /// If `output` is shorter than the number of outputs.
    pub fn filter(&self, input: &[T], output: &mut [T]) -> usize {
        let n = (input.len() + 1).saturating_sub(self.taps.len());
        assert!(
            output.len() >= n,
            "output holds {} samples, {n} needed",
            output.len()
        );
        if n == 0 {
            return 0;
        }
        let x = T::components(input);
        let y = T::components_mut(&mut output[..n]);
        #[cfg(target_arch = "x86_64")]
        match self.kernel_set {
            InstructionSet::Avx512 => {
                // SAFETY: `kernel_set` is `Avx512` only when `InstructionSet::detected()`
                // (the CPU's features, `is_x86_feature_detected!`) has AVX-512 F/DQ/BW/VL,
                // AVX2 and FMA.
                unsafe { filter_avx512(x, &self.kernel, y, T::COMPONENTS) };
                return n;
            }
            InstructionSet::Avx2Fma => {
                // SAFETY: `kernel_set` is `Avx2Fma` only when the CPU has AVX2 and FMA.
                unsafe { filter_avx2_fma(x, &self.kernel, y, T::COMPONENTS) };
                return n;
            }
            _ => {}
        }
        filter_lanes::<false, LANES>(x, &self.kernel, y, T::COMPONENTS);
        n
    }

    /// Filters and decimates: `output[k]` is the output for `input[k·decimation + taps - 1]`
    /// (the window of `taps` samples starting at `input[k·decimation]`), for every `k` below
    /// `output.len()`. Each output is one dot product over the taps (vectorized along them,
    /// no work for the skipped outputs); use [`filter`](Self::filter) for 1.
    ///
    /// # Panics
    /// If `decimation` is 0, or `input` is shorter than the last window.
    pub fn filter_decimated(&self, input: &[T], output: &mut [T], decimation: usize) {
        assert!(decimation > 0, "decimation must be at least 1");
        if let Some(last) = output.len().checked_sub(1) {
            assert!(
                input.len() >= last * decimation + self.taps.len(),
                "input holds {} samples, {} needed",
                input.len(),
                last * decimation + self.taps.len()
            );
        }
        let x = T::components(input);
        let y = T::components_mut(output);
        // The AVX-512 dot products pay for complex samples only: on an AMD EPYC guest (Zen 4,
        // family 25 model 17), 145 complex taps by 10 took 0.87 ns per input sample against
        // AVX2's 0.92, but 385 real taps by 5 took 2.65 against 2.46 (best of 3000 calls of
        // 8192 samples, also with 4 or 16 windows at a time). Both give the same bits, so real samples take
        // the AVX2 kernel on an AVX-512 machine.
        #[cfg(target_arch = "x86_64")]
        if self.kernel_set == InstructionSet::Avx512 && T::COMPONENTS == 2 {
            // SAFETY: `kernel_set` is `Avx512` only when `InstructionSet::detected()` (the
            // CPU's features, `is_x86_feature_detected!`) has AVX-512 F/DQ/BW/VL, AVX2 and FMA.
            unsafe {
                decimate_avx512(
                    x,
                    &self.kernel_components,
                    self.taps.len(),
                    y,
                    T::COMPONENTS,
                    decimation,
                )
            };
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.kernel_set >= InstructionSet::Avx2Fma {
            // SAFETY: `kernel_set` is `Avx2Fma` or wider only when the CPU has AVX2 and FMA.
            unsafe {
                decimate_avx2_fma(
                    x,
                    &self.kernel_components,
                    self.taps.len(),
                    y,
                    T::COMPONENTS,
                    decimation,
                )
            };
            return;
        }
        decimate_portable(
            x,
            &self.kernel_components,
            self.taps.len(),
            y,
            T::COMPONENTS,
            decimation,
        );
    }

    /// Which compiled kernel runs on this CPU: `"avx512"`, `"avx2+fma"` or `"portable"`.
    pub fn kernel_name(&self) -> &'static str {
        self.kernel_set.name()
    }
}

/// The portable kernel compiled with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn filter_avx2_fma(x: &[f32], kernel: &[f32], y: &mut [f32], components: usize) {
    filter_lanes::<true, LANES>(x, kernel, y, components);
}

/// The portable kernel compiled with AVX-512 (and FMA), [`LANES_AVX512`] outputs at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")]
fn filter_avx512(x: &[f32], kernel: &[f32], y: &mut [f32], components: usize) {
    filter_lanes::<true, LANES_AVX512>(x, kernel, y, components);
}

/// The decimating kernel compiled with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn decimate_avx2_fma(
    x: &[f32],
    weights: &[f32],
    taps: usize,
    y: &mut [f32],
    components: usize,
    d: usize,
) {
    // Written with intrinsics: the compiler vectorized the portable kernel's complex case
    // only two lanes wide.
    let c = components.clamp(1, 2);
    let window_len = c * taps;
    let stride = d * c;
    let reduce = |lanes: [f32; 8], out: &mut [f32]| reduce_lanes(c, lanes, out);
    // Four outputs at a time share each load of the weights (see `dots_avx2_fma`); the rest
    // one by one, summed in the same order, so an output does not depend on its neighbours
    // (nor on how the input was split into calls).
    let mut outs = y.chunks_exact_mut(4 * c);
    let mut k = 0;
    for out4 in &mut outs {
        let window = &x[k * stride..][..3 * stride + window_len];
        let lanes = dots_avx2_fma::<4>(window, stride, weights);
        for (lanes, out) in lanes.into_iter().zip(out4.chunks_exact_mut(c)) {
            reduce(lanes, out);
        }
        k += 4;
    }
    for out in outs.into_remainder().chunks_exact_mut(c) {
        let [lanes] = dots_avx2_fma::<1>(&x[k * stride..][..window_len], stride, weights);
        reduce(lanes, out);
        k += 1;
    }
}

/// An output's `c` components (1 or 2) from its eight lanes of [`dots_avx2_fma`] or
/// [`dots_avx512`]: lane `l` holds component `l % c`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn reduce_lanes(c: usize, lanes: [f32; 8], out: &mut [f32]) {
    if c == 1 {
        out[0] = lanes.iter().sum();
    } else {
        out[0] = lanes[0] + lanes[2] + lanes[4] + lanes[6];
        out[1] = lanes[1] + lanes[3] + lanes[5] + lanes[7];
    }
}

/// The decimating kernel with AVX-512: [`decimate_avx2_fma`] with eight outputs at a time
/// sharing each load of the weights, and [`dots_avx512`] for the dot products, which sums
/// every output in the same order as [`dots_avx2_fma`]: the outputs are bit-identical.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")]
fn decimate_avx512(
    x: &[f32],
    weights: &[f32],
    taps: usize,
    y: &mut [f32],
    components: usize,
    d: usize,
) {
    let c = components.clamp(1, 2);
    let window_len = c * taps;
    let stride = d * c;
    let mut outs = y.chunks_exact_mut(8 * c);
    let mut k = 0;
    for out8 in &mut outs {
        let window = &x[k * stride..][..7 * stride + window_len];
        let lanes = dots_avx512::<8>(window, stride, weights);
        for (lanes, out) in lanes.into_iter().zip(out8.chunks_exact_mut(c)) {
            reduce_lanes(c, lanes, out);
        }
        k += 8;
    }
    for out in outs.into_remainder().chunks_exact_mut(c) {
        let [lanes] = dots_avx512::<1>(&x[k * stride..][..window_len], stride, weights);
        reduce_lanes(c, lanes, out);
        k += 1;
    }
}

/// [`dots_avx2_fma`] with AVX-512: one 16-float register per window holds what the AVX2
/// kernel's two 8-float accumulators hold (lanes 0-7 its first, 8-15 its second), the same
/// multiply-adds in the same order, and the two halves are added at the end as it adds its
/// two accumulators: the lanes returned are bit-identical. The window's last partial 16
/// floats are read with a masked load (zeros in the lanes past the window, as the AVX2
/// kernel's masked loads; their weights are the zero padding, so those lanes keep their sum
/// exactly). Eight windows (eight independent chains) share each load of the weights.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")]
fn dots_avx512<const N: usize>(x: &[f32], stride: usize, weights: &[f32]) -> [[f32; 8]; N] {
    use std::arch::x86_64::*;
    let window_len = x
        .len()
        .checked_sub((N - 1) * stride)
        .expect("the windows fit in x");
    assert!(weights.len() >= window_len.next_multiple_of(16));
    let mut acc = [_mm512_setzero_ps(); N];
    let full = window_len / 16;
    for i in 0..full {
        // SAFETY: 16·i + 16 <= window_len <= weights.len() (asserted), and for each window
        // j·stride + 16·i + 16 <= (N - 1)·stride + window_len = x.len(); unaligned loads.
        // The intrinsics need AVX-512F, which this function's `target_feature` enables and
        // its only callers check (`InstructionSet::Avx512`).
        unsafe {
            let w = _mm512_loadu_ps(weights.as_ptr().add(16 * i));
            for (j, a) in acc.iter_mut().enumerate() {
                let p = x.as_ptr().add(j * stride + 16 * i);
                *a = _mm512_fmadd_ps(_mm512_loadu_ps(p), w, *a);
            }
        }
    }
    let rest = window_len - 16 * full;
    if rest > 0 {
        let at = 16 * full;
        let mask: __mmask16 = (1u16 << rest) - 1;
        // SAFETY: rest < 16, so the shift fits. The weights' load reads `weights[at..at + 16]`,
        // inside the padding to a multiple of 16 (asserted). The masked loads touch only the
        // first `rest` floats from j·stride + at, which end at j·stride + window_len <=
        // x.len(); masked-off lanes are not accessed (AVX-512 masked loads do not fault on
        // them). AVX-512F is enabled here and checked by the callers, as above.
        unsafe {
            let w = _mm512_loadu_ps(weights.as_ptr().add(at));
            for (j, a) in acc.iter_mut().enumerate() {
                let xv = _mm512_maskz_loadu_ps(mask, x.as_ptr().add(j * stride + at));
                *a = _mm512_fmadd_ps(xv, w, *a);
            }
        }
    }
    let mut out = [[0.0f32; 8]; N];
    for (a, o) in acc.iter().zip(&mut out) {
        // SAFETY: `o` holds eight floats; the store is an unaligned one. AVX-512F/DQ (for the
        // 256-bit extract) are enabled here and checked by the callers.
        unsafe {
            let lo = _mm512_castps512_ps256(*a);
            let hi = _mm512_extractf32x8_ps::<1>(*a);
            _mm256_storeu_ps(o.as_mut_ptr(), _mm256_add_ps(lo, hi));
        }
    }
    out
}

/// `N` dot products at once: the windows of `window_len = x.len() - (N - 1)·stride` floats
/// starting at `x[j·stride]` (j < N) with `weights` (zero-padded to whole `LANES`), each
/// summed into eight lanes: lane `l` holds the products of the elements whose index is `l`
/// modulo 8 (so with interleaved complex samples, even lanes are real parts). Every window is
/// summed in the same order whatever `N`. A lone dot product loads one window float per
/// weight it loads, so two loads per multiply-add hold it to one multiply-add per cycle (two
/// load ports); four windows share each weight load (five loads per four multiply-adds), and
/// two accumulators per window (eight in all for four) hide the multiply-add's latency. The decimating
/// channel filter of the FM receiver (145 complex taps, /10) and its audio filter (385 real
/// taps, /5) spend most of their time here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dots_avx2_fma<const N: usize>(x: &[f32], stride: usize, weights: &[f32]) -> [[f32; 8]; N] {
    use std::arch::x86_64::*;
    let window_len = x
        .len()
        .checked_sub((N - 1) * stride)
        .expect("the windows fit in x");
    assert!(weights.len() >= window_len.next_multiple_of(16));
    let mut acc = [[_mm256_setzero_ps(); 2]; N];
    let full = window_len / 16;
    for i in 0..full {
        // SAFETY: 16·i + 16 <= window_len <= weights.len() (asserted), and for each window
        // j·stride + 16·i + 16 <= (N - 1)·stride + window_len = x.len(); unaligned loads.
        unsafe {
            let w0 = _mm256_loadu_ps(weights.as_ptr().add(16 * i));
            let w1 = _mm256_loadu_ps(weights.as_ptr().add(16 * i + 8));
            for (j, a) in acc.iter_mut().enumerate() {
                let p = x.as_ptr().add(j * stride + 16 * i);
                a[0] = _mm256_fmadd_ps(_mm256_loadu_ps(p), w0, a[0]);
                a[1] = _mm256_fmadd_ps(_mm256_loadu_ps(p.add(8)), w1, a[1]);
            }
        }
    }
    let rest = window_len - 16 * full;
    if rest > 0 {
        for half in 0..2 {
            let valid = rest.saturating_sub(8 * half).min(8);
            if valid == 0 {
                break;
            }
            let at = 16 * full + 8 * half;
            // SAFETY: `MASK[8 - valid..]` holds eight i32 (valid <= 8). The weights' load
            // reads `weights[at..at + 8]`, inside the padding to a multiple of 16 (asserted:
            // at + 8 <= 16·full + 16 <= weights.len()). The masked loads touch only the first
            // `valid` floats from j·stride + at, which end at j·stride + window_len <=
            // x.len(); masked-off lanes are not accessed.
            unsafe {
                let mask = _mm256_loadu_si256(MASK.as_ptr().add(8 - valid).cast());
                let w = _mm256_loadu_ps(weights.as_ptr().add(at));
                for (j, a) in acc.iter_mut().enumerate() {
                    let xv = _mm256_maskload_ps(x.as_ptr().add(j * stride + at), mask);
                    a[half] = _mm256_fmadd_ps(xv, w, a[half]);
                }
            }
        }
    }
    let mut out = [[0.0f32; 8]; N];
    for (a, o) in acc.iter().zip(&mut out) {
        // SAFETY: `o` holds eight floats; the store is an unaligned one.
        unsafe { _mm256_storeu_ps(o.as_mut_ptr(), _mm256_add_ps(a[0], a[1])) };
    }
    out
}

/// Eight lanes on (-1), eight off: `MASK[8 - n..][..8]` selects the first `n` of eight.
#[cfg(target_arch = "x86_64")]
const MASK: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];

/// The decimating kernel as is (SSE2 on x86-64).
fn decimate_portable(
    x: &[f32],
    weights: &[f32],
    taps: usize,
    y: &mut [f32],
    components: usize,
    d: usize,
) {
    match components {
        1 => decimate::<1>(x, weights, taps, y, d),
        _ => decimate::<2>(x, weights, 2 * taps, y, d),
    }
}

/// Output sample `k` (its `C` components) from the window of `window_len` components
/// (taps · `C`) starting at input sample `k·d`: the dot product of the window's components
/// with `weights` (the kernel with each tap
/// repeated `C` times, zero-padded to whole `LANES`), accumulated in `LANES` independent
/// lanes (vectorized, and enough chains to hide the multiply-add's latency). Lane `l` holds
/// component `l % C` (`LANES` is a multiple of `C`), so each component is the sum of its
/// lanes. The window's last partial chunk is copied into a zero-padded one, so every chunk
/// is whole and the lanes stay in registers.
#[inline(always)]
fn decimate<const C: usize>(
    x: &[f32],
    weights: &[f32],
    window_len: usize,
    y: &mut [f32],
    d: usize,
) {
    const { assert!(LANES.is_multiple_of(C) && LANES.is_multiple_of(8)) };
    let fma = |acc: &mut [f32; LANES], xc: &[f32; LANES], wc: &[f32; LANES]| {
        for l in 0..LANES {
            acc[l] += wc[l] * xc[l];
        }
    };
    for (k, out) in y.chunks_exact_mut(C).enumerate() {
        let window = &x[k * d * C..][..window_len];
        let mut acc = [0.0f32; LANES];
        let mut xs = window.chunks_exact(LANES);
        let mut ws = weights.chunks_exact(LANES);
        for (xc, wc) in (&mut xs).zip(&mut ws) {
            fma(
                &mut acc,
                xc.try_into().expect("LANES elements"),
                wc.try_into().expect("LANES elements"),
            );
        }
        let rest = xs.remainder();
        if !rest.is_empty() {
            let mut xc = [0.0f32; LANES];
            xc[..rest.len()].copy_from_slice(rest);
            let wc = ws.next().expect("weights are padded to whole LANES");
            fma(&mut acc, &xc, wc.try_into().expect("LANES elements"));
        }
        // Eight lanes, then each component's lanes among them.
        let mut sum = [0.0f32; C];
        for l in 0..8 {
            let mut v = 0.0;
            for j in (l..LANES).step_by(8) {
                v += acc[j];
            }
            sum[l % C] += v;
        }
        out.copy_from_slice(&sum);
    }
}

/// `y[j] = Σ_m kernel[m] · x[j + c·m]` for every component index `j` of the output (`c`
/// components per sample): component `j % c` of output sample `j / c` from the same component
/// of the `kernel.len()` input samples from sample `j / c` on.
///
/// Vectorized across outputs: a block of `W` outputs accumulates `kernel[m]` (broadcast)
/// times `W` consecutive inputs, tap after tap, so there is one load and one multiply-add
/// per output and tap, and no horizontal sum. Blocks of 16 and 8, then single outputs finish
/// the end. Every output is summed tap after tap whatever the block it is in, so the result
/// does not depend on `W` (the AVX2 and AVX-512 paths agree bit for bit).
#[inline(always)]
fn filter_lanes<const FMA: bool, const W: usize>(
    x: &[f32],
    kernel: &[f32],
    y: &mut [f32],
    components: usize,
) {
    let n = y.len();
    let mut j = 0;
    while j + W <= n {
        y[j..j + W].copy_from_slice(&block::<FMA, W>(x, kernel, j, components));
        j += W;
    }
    while j + 16 <= n {
        y[j..j + 16].copy_from_slice(&block::<FMA, 16>(x, kernel, j, components));
        j += 16;
    }
    while j + 8 <= n {
        y[j..j + 8].copy_from_slice(&block::<FMA, 8>(x, kernel, j, components));
        j += 8;
    }
    while j < n {
        y[j] = block::<FMA, 1>(x, kernel, j, components)[0];
        j += 1;
    }
}

/// `W` consecutive outputs starting at output component `j`.
#[inline(always)]
fn block<const FMA: bool, const W: usize>(
    x: &[f32],
    kernel: &[f32],
    j: usize,
    components: usize,
) -> [f32; W] {
    let mut acc = [0.0f32; W];
    for (m, &t) in kernel.iter().enumerate() {
        let xs: &[f32; W] = x[j + components * m..][..W].try_into().expect("W elements");
        for l in 0..W {
            acc[l] = if FMA {
                t.mul_add(xs[l], acc[l])
            } else {
                acc[l] + t * xs[l]
            };
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `y[n] = Σ_k taps[k] x[n + h - k]` in f64, and the sum of |terms| (for the tolerance).
    fn naive(taps: &[f32], x: &[f64]) -> Vec<(f64, f64)> {
        let h = taps.len() - 1;
        (h..x.len())
            .map(|n| {
                taps.iter().enumerate().fold((0.0, 0.0), |(s, m), (k, &t)| {
                    let term = t as f64 * x[n - k];
                    (s + term, m + term.abs())
                })
            })
            .collect()
    }

    /// The filter once per kernel this CPU runs (the portable one always).
    fn every_kernel<T: FirSample>(taps: &[f32]) -> Vec<Fir<T>> {
        InstructionSet::available()
            .filter(|s| *s == InstructionSet::Portable || KERNELS.contains(s))
            .map(|s| {
                let mut fir = Fir::new(taps);
                fir.kernel_set = s;
                fir
            })
            .collect()
    }

    /// The kernel's single-precision sums may round differently from the f64 reference in any
    /// order of summation: allow 1e-5 of the sum of absolute terms (about 100 f32 ulps).
    fn close(got: f32, (want, magnitude): (f64, f64)) -> bool {
        (got as f64 - want).abs() <= 1e-5 * magnitude + 1e-30
    }

    #[test]
    fn real_samples_match_the_naive_convolution() {
        let mut rng = StdRng::seed_from_u64(5);
        for taps_len in [1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 64, 100, 129] {
            let taps: Vec<f32> = (0..taps_len).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let firs = every_kernel::<f32>(&taps);
            for len in [
                0,
                1,
                taps_len - 1,
                taps_len,
                taps_len + 1,
                taps_len + 57,
                1000,
            ] {
                let x: Vec<f32> = (0..len).map(|_| rng.gen_range(-1.0..1.0)).collect();
                let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
                let want = naive(&taps, &x64);
                for fir in &firs {
                    let k = fir.kernel_name();
                    let mut y = vec![f32::NAN; len + 2];
                    let n = fir.filter(&x, &mut y);
                    assert_eq!(n, want.len(), "{k}: taps {taps_len} len {len}");
                    for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
                        assert!(
                            close(g, w),
                            "{k}: taps {taps_len} len {len} i {i}: {g} vs {w:?}"
                        );
                    }
                    assert!(
                        y[n..].iter().all(|v| v.is_nan()),
                        "{k}: wrote past the outputs"
                    );
                }
            }
        }
    }

    #[test]
    fn complex_samples_match_the_naive_convolution() {
        let mut rng = StdRng::seed_from_u64(6);
        for taps_len in [1, 2, 5, 8, 9, 16, 33, 100] {
            let taps: Vec<f32> = (0..taps_len).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let firs = every_kernel::<Complex32>(&taps);
            for len in [0, taps_len - 1, taps_len, taps_len + 3, 777] {
                let x: Vec<Complex32> = (0..len)
                    .map(|_| Complex32::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
                    .collect();
                let re: Vec<f64> = x.iter().map(|v| v.re as f64).collect();
                let im: Vec<f64> = x.iter().map(|v| v.im as f64).collect();
                let (want_re, want_im) = (naive(&taps, &re), naive(&taps, &im));
                for fir in &firs {
                    let k = fir.kernel_name();
                    let mut y = vec![Complex32::new(f32::NAN, f32::NAN); len + 1];
                    let n = fir.filter(&x, &mut y);
                    assert_eq!(n, want_re.len(), "{k}");
                    for i in 0..n {
                        assert!(close(y[i].re, want_re[i]), "{k}: taps {taps_len} i {i} re");
                        assert!(close(y[i].im, want_im[i]), "{k}: taps {taps_len} i {i} im");
                    }
                    assert!(
                        y[n..].iter().all(|v| v.re.is_nan()),
                        "{k}: wrote past the outputs"
                    );
                }
            }
        }
    }

    #[test]
    fn portable_kernel_matches_the_dispatched_one() {
        let mut rng = StdRng::seed_from_u64(7);
        let taps: Vec<f32> = (0..100).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let fir = Fir::<f32>::new(&taps);
        let x: Vec<f32> = (0..2000).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let mut a = vec![0.0; 2000];
        let mut b = vec![0.0; 2000];
        let n = fir.filter(&x, &mut a);
        filter_lanes::<false, LANES>(&x, &fir.kernel, &mut b[..n], 1);
        for i in 0..n {
            assert!(
                (a[i] - b[i]).abs() <= 1e-5 * 100.0,
                "{i}: {} {}",
                a[i],
                b[i]
            );
        }
    }

    #[test]
    fn decimation_keeps_every_dth_output_of_the_full_filter() {
        let mut rng = StdRng::seed_from_u64(8);
        for taps_len in [1, 3, 16, 33, 100] {
            let taps: Vec<f32> = (0..taps_len).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let reals = every_kernel::<f32>(&taps);
            let complexes = every_kernel::<Complex32>(&taps);
            for d in [1, 2, 3, 8, 13] {
                let len = taps_len + 500;
                let x: Vec<f32> = (0..len).map(|_| rng.gen_range(-1.0..1.0)).collect();
                let want = naive(&taps, &x.iter().map(|&v| v as f64).collect::<Vec<_>>());
                let n = (len - taps_len) / d + 1;
                for (real, complex) in reals.iter().zip(&complexes) {
                    let kn = real.kernel_name();
                    let mut y = vec![0.0; n];
                    real.filter_decimated(&x, &mut y, d);
                    for k in 0..n {
                        assert!(
                            close(y[k], want[k * d]),
                            "{kn}: taps {taps_len} d {d} k {k}"
                        );
                    }
                    let xc: Vec<Complex32> =
                        x.iter().map(|&v| Complex32::new(v, -2.0 * v)).collect();
                    let mut yc = vec![Complex32::default(); n];
                    complex.filter_decimated(&xc, &mut yc, d);
                    for k in 0..n {
                        assert!(
                            close(yc[k].re, want[k * d]),
                            "{kn}: taps {taps_len} d {d} k {k}"
                        );
                        let im = (-2.0 * want[k * d].0, 2.0 * want[k * d].1);
                        assert!(close(yc[k].im, im), "{kn}: taps {taps_len} d {d} k {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn portable_decimation_matches_the_dispatched_one() {
        let mut rng = StdRng::seed_from_u64(9);
        for taps_len in [1, 15, 16, 17, 145] {
            let taps: Vec<f32> = (0..taps_len).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let fir = Fir::<Complex32>::new(&taps);
            let x: Vec<Complex32> = (0..taps_len + 300)
                .map(|_| Complex32::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
                .collect();
            let n = 300 / 7 + 1;
            let (mut a, mut b) = (vec![Complex32::default(); n], vec![Complex32::default(); n]);
            fir.filter_decimated(&x, &mut a, 7);
            let y = bytemuck::cast_slice_mut(&mut b);
            decimate_portable(
                bytemuck::cast_slice(&x),
                &fir.kernel_components,
                taps_len,
                y,
                2,
                7,
            );
            for (k, (a, b)) in a.iter().zip(&b).enumerate() {
                assert!(
                    (a - b).norm() <= 1e-5 * taps_len as f32,
                    "taps {taps_len} k {k}"
                );
            }
        }
    }

    /// The filter with taps from `rng` on every kernel this CPU runs that uses FMA (AVX2+FMA,
    /// AVX-512): each must give the very bits of the first, since all sum every output in the
    /// same order with the same fused multiply-adds.
    fn fma_kernels_agree_bit_for_bit<T: FirSample + PartialEq + std::fmt::Debug>(
        rng: &mut StdRng,
        sample: impl Fn(&mut StdRng) -> T,
    ) -> usize {
        let mut compared = 0;
        for taps_len in [1, 2, 7, 15, 16, 17, 31, 33, 64, 145, 385] {
            let taps: Vec<f32> = (0..taps_len).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let firs: Vec<Fir<T>> = every_kernel::<T>(&taps)
                .into_iter()
                .filter(|f| f.kernel_set >= InstructionSet::Avx2Fma)
                .collect();
            let x: Vec<T> = (0..taps_len + 1111).map(|_| sample(rng)).collect();
            let n = x.len() - taps_len + 1;
            let mut want = vec![T::default(); n];
            let Some((first, rest)) = firs.split_first() else {
                return 0;
            };
            first.filter(&x, &mut want);
            for fir in rest {
                let k = fir.kernel_name();
                let mut y = vec![T::default(); n];
                fir.filter(&x, &mut y);
                assert_eq!(
                    y,
                    want,
                    "{k}: taps {taps_len}: not the bits of {}",
                    first.kernel_name()
                );
                compared += 1;
            }
            for d in [2, 3, 5, 8, 10, 13] {
                let m = (x.len() - taps_len) / d + 1;
                let mut want = vec![T::default(); m];
                first.filter_decimated(&x, &mut want, d);
                for fir in rest {
                    let k = fir.kernel_name();
                    let mut y = vec![T::default(); m];
                    fir.filter_decimated(&x, &mut y, d);
                    assert_eq!(y, want, "{k}: taps {taps_len} decimation {d}");
                    compared += 1;
                }
            }
        }
        compared
    }

    #[test]
    fn avx512_gives_the_bits_of_avx2_fma() {
        let mut rng = StdRng::seed_from_u64(10);
        let real = fma_kernels_agree_bit_for_bit::<f32>(&mut rng, |r| r.gen_range(-1.0..1.0));
        let complex = fma_kernels_agree_bit_for_bit::<Complex32>(&mut rng, |r| {
            Complex32::new(r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0))
        });
        if !InstructionSet::Avx512.is_supported() {
            eprintln!("skipped: this CPU (or RADIOFLOW_ISA) has no AVX-512 path to compare");
        } else {
            assert!(real > 0 && complex > 0, "the AVX-512 path was compared");
        }
    }

    #[test]
    #[should_panic(expected = "needed")]
    fn decimation_past_the_input_panics() {
        Fir::<f32>::new(&[1.0, 2.0]).filter_decimated(&[1.0; 10], &mut [0.0; 6], 2);
    }

    #[test]
    #[should_panic(expected = "needed")]
    fn short_output_panics() {
        Fir::<f32>::new(&[1.0, 2.0]).filter(&[1.0; 10], &mut [0.0; 8]);
    }
}
