//! [`QuadratureDemod`]: FM demodulation by the phase step between samples.

use crate::instruction_set::InstructionSet;
use num_complex::Complex32;

/// The instruction sets the loop is compiled for besides the portable one. No multiply-add is
/// fused on any (Rust does not contract `a * b + c`), so every path gives the portable one's
/// bits; the wider ones only do more samples per instruction.
const KERNELS: &[InstructionSet] = &[InstructionSet::Avx2Fma, InstructionSet::Avx512];

/// An FM (quadrature) demodulator, GNU Radio's `quadrature_demod_cf`:
/// `y[n] = gain · arg(x[n] · conj(x[n-1]))`, with `x[-1] = 0` (so `y[0] = 0`).
///
/// For a deviation of `Δf` Hz at `fs` samples/s, `gain = fs / (2π·Δf)` gives ±1 at full
/// deviation. The angle is an odd polynomial of degree 15 in `min/max` of the parts,
/// fitted here (weighted least squares toward minimax on [0, 1]) to within 4e-8 rad of
/// `atan` (the result within 2 f32 ulps of π of the exact angle); unlike libm's `atan2f` it has no branches or calls, so the
/// loop vectorizes (GNU Radio's `fast_atan2f`, a table, is within about 1e-5 rad).
///
/// ```
/// use radioflow_dsp::{Complex32, Nco, QuadratureDemod};
/// // A carrier 1 kHz above centre at 48 kHz: a steady phase step of 2π/48 rad.
/// let mut x = vec![Complex32::default(); 100];
/// Nco::new(1e3, 48e3).fill_exp(&mut x, 1.0, Complex32::default());
/// let mut y = vec![0.0; 100];
/// QuadratureDemod::new(48e3 / (2.0 * std::f32::consts::PI * 1e3)).process(&x, &mut y);
/// assert!((y[50] - 1.0).abs() < 1e-4);
/// ```
#[derive(Clone, Debug)]
pub struct QuadratureDemod {
    gain: f32,
    last: Complex32,
    /// The compiled loop this demodulator runs: the widest of [`KERNELS`] this CPU has.
    kernel_set: InstructionSet,
}

impl QuadratureDemod {
    /// A demodulator scaling the phase step (radians per sample) by `gain`.
    pub fn new(gain: f32) -> Self {
        Self {
            gain,
            last: Complex32::default(),
            kernel_set: InstructionSet::best_of(KERNELS),
        }
    }

    /// The gain.
    pub fn gain(&self) -> f32 {
        self.gain
    }

    /// Sets the gain (GNU Radio's `set_gain`), the last sample kept.
    pub fn set_gain(&mut self, gain: f32) {
        self.gain = gain;
    }

    /// Demodulates `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [f32]) {
        let output = &mut output[..input.len()];
        let Some(&newest) = input.last() else {
            return;
        };
        let gain = self.gain;
        // Each sample against the one before: the first against the last of the last call,
        // the rest as plain slices (an iterator chain would not vectorize).
        output[0] = step(input[0], self.last, gain);
        let rest = &mut output[1..];
        match self.kernel_set {
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx512 => {
                // SAFETY: `kernel_set` is `Avx512` only when `InstructionSet::detected()` (the
                // CPU's features, `is_x86_feature_detected!`) has AVX-512 F/DQ/BW/VL, AVX2
                // and FMA.
                unsafe { demod_avx512(input, rest, gain) }
            }
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx2Fma => {
                // SAFETY: `kernel_set` is `Avx2Fma` only when the CPU has AVX2 and FMA.
                unsafe { demod_avx2_fma(input, rest, gain) }
            }
            _ => demod(input, rest, gain),
        }
        self.last = newest;
    }

    /// Which compiled loop runs on this CPU: `"avx512"`, `"avx2+fma"` or `"portable"`.
    pub fn kernel_name(&self) -> &'static str {
        self.kernel_set.name()
    }
}

/// One output: `gain · arg(x · conj(prev))`.
#[inline(always)]
fn step(x: Complex32, prev: Complex32, gain: f32) -> f32 {
    let p = x * prev.conj();
    gain * atan2(p.im, p.re)
}

/// `y[i]` from `x[i + 1]` and `x[i]`, for every `y` (`y.len() < x.len()`).
#[inline(always)]
fn demod(x: &[Complex32], y: &mut [f32], gain: f32) {
    for ((y, &x), &prev) in y.iter_mut().zip(&x[1..]).zip(x) {
        *y = step(x, prev, gain);
    }
}

/// [`demod`] compiled with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn demod_avx2_fma(x: &[Complex32], y: &mut [f32], gain: f32) {
    demod(x, y, gain);
}

/// [`demod`] compiled with AVX-512 (16 samples per register).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")]
fn demod_avx512(x: &[Complex32], y: &mut [f32], gain: f32) {
    demod(x, y, gain);
}

/// `atan2(y, x)` within 4e-8 rad before rounding to f32 (0 for the origin), without branches: the odd polynomial
/// [`ATAN`] of `min(|x|,|y|) / max(|x|,|y|)` in [0, 1], then reflected into the octant.
#[inline(always)]
fn atan2(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let (lo, hi) = (ax.min(ay), ax.max(ay));
    let a = if hi > 0.0 { lo / hi } else { 0.0 };
    let s = a * a;
    let mut r = ATAN[ATAN.len() - 1];
    for &c in ATAN[..ATAN.len() - 1].iter().rev() {
        r = r * s + c; // not mul_add: without FMA enabled that is a library call
    }
    r *= a;
    let r = if ay > ax { FRAC_PI_2 - r } else { r };
    let r = if x < 0.0 { PI - r } else { r };
    if y < 0.0 {
        -r
    } else {
        r
    }
}

/// `atan(a) ≈ a · Σ_i ATAN[i] · a^(2i)` on `[0, 1]`, max error 3.7e-8 (fitted with numpy:
/// least squares on Chebyshev nodes, reweighted toward equal ripple).
const ATAN: [f32; 8] = [
    0.99999934,
    -0.3332986,
    0.19946565,
    -0.13908627,
    0.09642189,
    -0.055_912_193,
    0.021862855,
    -0.004054536,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;

    #[test]
    fn every_compiled_loop_gives_the_portable_bits() {
        let x = random_complex(3, 5000);
        let mut portable = QuadratureDemod::new(0.7);
        portable.kernel_set = InstructionSet::Portable;
        let want = run_split_sync(4, &x, 333, |i, o: &mut [f32]| portable.process(i, o));
        let mut compared = 0;
        for set in InstructionSet::available().filter(|s| KERNELS.contains(s)) {
            let mut demod = QuadratureDemod::new(0.7);
            demod.kernel_set = set;
            let got = run_split_sync(4, &x, 333, |i, o: &mut [f32]| demod.process(i, o));
            let same = got
                .iter()
                .zip(&want)
                .all(|(g, w)| g.to_bits() == w.to_bits());
            assert!(
                same && got.len() == want.len(),
                "{set}: not the portable bits"
            );
            compared += 1;
        }
        eprintln!("compared {compared} compiled loops with the portable one");
    }

    #[test]
    fn matches_the_definition_across_calls() {
        let x = random_complex(1, 3000);
        let want: Vec<f64> = (0..x.len())
            .map(|n| {
                let prev = if n == 0 {
                    Complex32::default()
                } else {
                    x[n - 1]
                };
                let (a, b) = (to64(&[x[n]])[0], to64(&[prev])[0]);
                0.5 * (a * b.conj()).arg()
            })
            .collect();
        let mut demod = QuadratureDemod::new(0.5);
        let got = run_split_sync(2, &x, 400, |i, o: &mut [f32]| demod.process(i, o));
        for (n, (g, w)) in got.iter().zip(&want).enumerate() {
            // f32 product and atan2: a few ulps of π.
            assert!((f64::from(*g) - w).abs() < 1e-6, "{n}: {g} vs {w}");
        }
    }

    #[test]
    fn the_polynomial_atan2_is_within_2_ulps_of_pi_of_the_exact_angle() {
        let mut worst = 0.0f64;
        let v = random_complex(3, 100_000);
        let special = [
            (0.0, 0.0),
            (0.0, 1.0),
            (1.0, 0.0),
            (0.0, -1.0),
            (-1.0, 0.0),
            (1.0, 1.0),
            (-1.0, -1.0),
            (1e-30, -1e-30),
            (3.0, -4.0),
        ];
        for (y, x) in v.iter().map(|z| (z.im, z.re)).chain(special) {
            let want = f64::from(y).atan2(f64::from(x));
            let got = f64::from(atan2(y, x));
            // ±π are the same angle.
            let e = (got - want).abs().min(
                (got.abs() - std::f64::consts::PI).abs()
                    + (want.abs() - std::f64::consts::PI).abs(),
            );
            worst = worst.max(e);
        }
        // The reflections (π/2 - r, π - r) round to f32: one ulp of π is 2.4e-7.
        assert!(worst < 5e-7, "worst error {worst:e} rad");
        assert_eq!(atan2(0.0, 0.0), 0.0);
    }

    #[test]
    fn equals_gnu_radios_quadrature_demod_cf() {
        let x = golden_complex("fm");
        let mut y = vec![0.0; x.len()];
        QuadratureDemod::new(1.7).process(&x, &mut y);
        // GNU Radio's fast_atan2f is an approximation (about 1e-5 rad): 2e-5 of the gain.
        let want = golden_real("quad_demod");
        assert_eq!(y.len(), want.len());
        for (n, (g, w)) in y.iter().zip(&want).enumerate() {
            assert!((g - w).abs() < 2e-5 * 1.7, "{n}: {g} vs {w}");
        }
    }
}
