//! [`Rotator`]: a frequency shift by an NCO mixer.

use crate::error::{finite, positive, ParamError};
use crate::instruction_set::InstructionSet;
use crate::nco::Nco;
use num_complex::Complex32;

/// Shifts a complex signal by `shift` Hz: `y[n] = x[n] · e^{j(2π·shift·n/fs + φ0)}`, as GNU
/// Radio's `rotator_cc` with `phase_inc = 2π·shift/fs`. The phase comes from an [`Nco`], so
/// it does not drift however long it runs (GNU Radio's recursive rotator is renormalized
/// every 512 samples instead), and continues across calls.
///
/// ```
/// use radioflow_dsp::{Complex32, Rotator};
/// // DC moved to a quarter of the sample rate: 1, j, -1, -j.
/// let mut r = Rotator::new(12e3, 48e3)?;
/// let mut y = [Complex32::default(); 4];
/// r.process(&[Complex32::new(1.0, 0.0); 4], &mut y);
/// assert!((y[1] - Complex32::new(0.0, 1.0)).norm() < 1e-6);
/// assert!((y[2] + Complex32::new(1.0, 0.0)).norm() < 1e-6);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Rotator {
    nco: Nco,
    sample_rate: f64,
    /// The compiled loop this rotator runs: the widest of [`KERNELS`] this CPU has.
    kernel_set: InstructionSet,
}

/// The instruction sets the rotator's loop is compiled for besides the portable one. No
/// multiply-add is fused on any (Rust does not contract `a * b + c`), so every path gives the
/// portable one's bits.
const KERNELS: &[InstructionSet] = &[InstructionSet::Avx2Fma, InstructionSet::Avx512];

impl Rotator {
    /// A shift by `shift` Hz (negative shifts down) for a signal at `sample_rate`.
    ///
    /// # Errors
    /// If `sample_rate` is not finite and positive or `shift` is not finite.
    pub fn new(shift: f64, sample_rate: f64) -> Result<Self, ParamError> {
        positive("sample_rate", sample_rate)?;
        finite("shift", shift)?;
        Ok(Self {
            nco: Nco::new(shift, sample_rate),
            sample_rate,
            kernel_set: InstructionSet::best_of(KERNELS),
        })
    }

    /// Changes the shift; the phase continues from where it is.
    ///
    /// # Errors
    /// If `shift` is not finite.
    pub fn set_shift(&mut self, shift: f64) -> Result<(), ParamError> {
        finite("shift", shift)?;
        self.nco.set_frequency(shift, self.sample_rate);
        Ok(())
    }

    /// Sets the phase of the next sample, in radians.
    ///
    /// # Panics
    /// If `radians` is not finite.
    pub fn set_phase(&mut self, radians: f64) {
        self.nco.set_phase(radians);
    }

    /// Shifts `input` into the first `input.len()` samples of `output`.
    ///
    /// # Panics
    /// If `output` is shorter than `input`.
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) {
        let output = &mut output[..input.len()];
        let nco = &mut self.nco;
        match self.kernel_set {
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx512 => {
                // SAFETY: `kernel_set` is `Avx512` only when `InstructionSet::detected()` (the
                // CPU's features, `is_x86_feature_detected!`) has AVX-512 F/DQ/BW/VL, AVX2
                // and FMA.
                unsafe { rotate_avx512(nco, input, output) }
            }
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx2Fma => {
                // SAFETY: `kernel_set` is `Avx2Fma` only when the CPU has AVX2 and FMA.
                unsafe { rotate_avx2_fma(nco, input, output) }
            }
            _ => rotate(nco, input, output),
        }
    }
}

/// `output[n] = input[n] · e^{jφ_n}`, the phases from `nco` (`output.len() == input.len()`).
#[inline(always)]
fn rotate(nco: &mut Nco, input: &[Complex32], output: &mut [Complex32]) {
    nco.fill_exp(output, 1.0, Complex32::default());
    for (o, &x) in output.iter_mut().zip(input) {
        *o *= x;
    }
}

/// [`rotate`] compiled with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn rotate_avx2_fma(nco: &mut Nco, input: &[Complex32], output: &mut [Complex32]) {
    rotate(nco, input, output);
}

/// [`rotate`] compiled with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")]
fn rotate_avx512(nco: &mut Nco, input: &[Complex32], output: &mut [Complex32]) {
    rotate(nco, input, output);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex64;
    use std::f64::consts::PI;

    #[test]
    fn every_compiled_loop_gives_the_portable_bits() {
        let x = random_complex(7, 6000);
        let run = |set: InstructionSet| {
            let mut r = Rotator::new(-1234.5, 48e3).unwrap();
            r.kernel_set = set;
            let y = run_split_sync(8, &x, 900, |i, o: &mut [Complex32]| r.process(i, o));
            bytemuck::cast_slice::<Complex32, u32>(&y).to_vec()
        };
        let want = run(InstructionSet::Portable);
        for set in InstructionSet::available().filter(|s| KERNELS.contains(s)) {
            assert!(run(set) == want, "{set}: not the portable bits");
        }
    }

    #[test]
    fn matches_the_naive_mixer_across_calls() {
        let x = random_complex(1, 100_000);
        let (f, fs, phi) = (-1234.5, 10e3, 0.3);
        let mut r = Rotator::new(f, fs).unwrap();
        r.set_phase(phi);
        let got = run_split_sync(2, &x, 3000, |i, o| r.process(i, o));
        for (n, (g, x)) in got.iter().zip(to64(&x)).enumerate() {
            let want = x * Complex64::from_polar(1.0, 2.0 * PI * f * n as f64 / fs + phi);
            // f32 product of unit-scale values.
            assert!(
                (Complex64::new(g.re.into(), g.im.into()) - want).norm() < 1e-6,
                "{n}"
            );
        }
        assert_eq!(Rotator::new(f64::INFINITY, 1.0).unwrap_err().name, "shift");
    }

    #[test]
    fn equals_gnu_radios_rotator_cc() {
        let x = golden_complex("noise");
        let mut r = Rotator::new(-0.123, 1.0).unwrap();
        let mut y = vec![Complex32::default(); x.len()];
        r.process(&x, &mut y);
        // GNU Radio's rotator multiplies by an f32 phase increment, renormalizing every 512
        // samples: its phase strays by about 1e-7 rad per sample (from the f32 increment).
        let want = golden_complex("rotator");
        for (n, (g, w)) in y.iter().zip(&want).enumerate() {
            let tol = 1e-5 + 2e-7 * n as f32;
            assert!((g - w).norm() <= tol * w.norm().max(1.0), "{n}: {g} vs {w}");
        }
    }
}
