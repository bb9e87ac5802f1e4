//! [`FreqXlatingFir`]: shift a channel to DC, filter and decimate.

use crate::decimating_fir::DecimatingFir;
use crate::error::{check, finite, positive, ParamError};
use crate::instruction_set::InstructionSet;
use crate::nco::Nco;
use num_complex::Complex32;
use std::f64::consts::PI;

/// A frequency-translating FIR filter, as GNU Radio's `freq_xlating_fir_filter_ccf`: the
/// signal at `centre` Hz is moved to DC, low-pass filtered by real `taps` and decimated.
///
/// `y[k] = Σ_j taps[j] · x[kD - j] · e^{-jω(kD - j + (N-1)/2)}` with `ω = 2π·centre/fs`, `N`
/// taps and zero history. The phase term is GNU Radio 3.10's: it rotates the taps about their
/// centre (`taps[j]·e^{jω(j - (N-1)/2)}`) and the outputs by `e^{-jωkD}`, so the mixer's phase
/// is zero half a filter after the first input sample. This mixes the input instead, which
/// costs two complex multiplies per input sample rather than complex taps, and filters with
/// the real taps: the mixer's phasor is the exact phase of an [`Nco`] (which does not drift)
/// read once per 256 samples, times a table of `e^{jkω}` for the samples in between.
///
/// ```
/// use radioflow_dsp::{Complex32, FreqXlatingFir, Nco};
/// // A tone at 12 kHz, moved to DC: after the filter's start, every output is the same,
/// // e^{-jω(N-1)/2} (ω = π/2 rad/sample, 4 taps).
/// let mut tone = vec![Complex32::default(); 4800];
/// Nco::new(12e3, 48e3).fill_exp(&mut tone, 1.0, Complex32::default());
/// let mut xlate = FreqXlatingFir::new(&[0.25; 4], 4, 12e3, 48e3)?;
/// let mut y = vec![Complex32::default(); 1200];
/// assert_eq!(xlate.process(&tone, &mut y), (4800, 1200));
/// let want = Complex32::from_polar(1.0, -std::f32::consts::FRAC_PI_2 * 1.5);
/// assert!((y[100] - want).norm() < 1e-5);
/// # Ok::<(), radioflow_dsp::ParamError>(())
/// ```
#[derive(Clone, Debug)]
pub struct FreqXlatingFir {
    fir: DecimatingFir<Complex32>,
    /// The mixer's exact phase, read once per [`STEP`] samples.
    mixer: Nco,
    /// `e^{jkω}` for `k < STEP`, `ω` the mixer's step: the phasors within a step are the
    /// step's first one times these (one f32 complex multiply each, vectorized, and no error
    /// carried from step to step).
    steps: Vec<Complex32>,
    /// The phasor of the current step's first sample.
    first: Complex32,
    /// Samples of the current step mixed so far (steps start at multiples of [`STEP`]
    /// samples from the start or the last retune, so the output does not depend on how
    /// calls are split).
    at: usize,
    centre: f64,
    sample_rate: f64,
    /// The compiled mixing loop this filter runs: the widest of [`MIX_KERNELS`] this CPU has
    /// (the filter picks its own kernel).
    kernel_set: InstructionSet,
}

/// The instruction sets the mixing loop is compiled for besides the portable one. No
/// multiply-add is fused on any (Rust does not contract `a * b + c`), so every path gives the
/// portable one's bits.
const MIX_KERNELS: &[InstructionSet] = &[InstructionSet::Avx2Fma, InstructionSet::Avx512];

/// `slots[i] = x[i] · (first · steps[i])`: the input mixed by the step's phasors.
#[inline(always)]
fn mix(slots: &mut [Complex32], x: &[Complex32], first: Complex32, steps: &[Complex32]) {
    for ((s, &x), &k) in slots.iter_mut().zip(x).zip(steps) {
        *s = x * (first * k);
    }
}

/// [`mix`] compiled with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn mix_avx2_fma(slots: &mut [Complex32], x: &[Complex32], first: Complex32, steps: &[Complex32]) {
    mix(slots, x, first, steps);
}

/// [`mix`] compiled with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")]
fn mix_avx512(slots: &mut [Complex32], x: &[Complex32], first: Complex32, steps: &[Complex32]) {
    mix(slots, x, first, steps);
}

/// Samples mixed from one exact phase.
const STEP: usize = 256;

/// Fills `steps` with `e^{jkω}` for `k < STEP`, `ω` the step of `mixer` (its fixed-point
/// step, exactly). In place, so that a retune while data flows does not allocate.
fn fill_phasors(mixer: &Nco, steps: &mut [Complex32]) {
    let mut probe = mixer.clone();
    probe.set_phase(0.0);
    for step in steps {
        let (s, c) = probe.phase().sin_cos();
        probe.skip(1);
        *step = Complex32::new(c as f32, s as f32);
    }
}

impl FreqXlatingFir {
    /// A filter moving `centre` Hz (of a signal at `sample_rate`) to DC, then filtering with
    /// `taps` and keeping one output in `decimation`.
    ///
    /// # Errors
    /// If `taps` is empty, `decimation` is 0, `sample_rate` is not finite and positive, or
    /// `centre` is not finite, or so far beyond the rate that `centre / sample_rate` is not.
    pub fn new(
        taps: &[f32],
        decimation: usize,
        centre: f64,
        sample_rate: f64,
    ) -> Result<Self, ParamError> {
        positive("sample_rate", sample_rate)?;
        let ratio = turns_per_sample(centre, sample_rate)?;
        let mut mixer = Nco::new(-centre, sample_rate);
        // Half a turn per sample of `ratio` over the taps' span, taken modulo whole turns
        // first (an even number of half turns) so that a huge `ratio` stays finite.
        mixer.set_phase(-PI * ratio.rem_euclid(2.0) * (taps.len() as f64 - 1.0));
        let mut steps = vec![Complex32::default(); STEP];
        fill_phasors(&mixer, &mut steps);
        Ok(Self {
            fir: DecimatingFir::new(taps, decimation)?,
            steps,
            first: Complex32::default(),
            at: 0,
            mixer,
            centre,
            sample_rate,
            kernel_set: InstructionSet::best_of(MIX_KERNELS),
        })
    }

    /// The frequency moved to DC, in Hz.
    pub fn centre(&self) -> f64 {
        self.centre
    }

    /// Retunes to `centre` Hz; the mixer's phase continues from where it is.
    ///
    /// # Errors
    /// If `centre` is not finite, or `centre / sample_rate` is not.
    pub fn set_centre(&mut self, centre: f64) -> Result<(), ParamError> {
        turns_per_sample(centre, self.sample_rate)?;
        self.centre = centre;
        self.mixer.set_frequency(-centre, self.sample_rate);
        fill_phasors(&self.mixer, &mut self.steps);
        // A new step from the next sample on, at the new frequency.
        self.at = 0;
        Ok(())
    }

    /// Translates, filters and decimates `input` into `output`: returns `(consumed,
    /// produced)`, as [`DecimatingFir::process`].
    pub fn process(&mut self, input: &[Complex32], output: &mut [Complex32]) -> (usize, usize) {
        let (mixer, steps) = (&mut self.mixer, &self.steps);
        let (first, at) = (&mut self.first, &mut self.at);
        let kernel_set = self.kernel_set;
        self.fir.process_with(input, output, |mut x, mut slots| {
            while !x.is_empty() {
                if *at == 0 {
                    let (s, c) = mixer.phase().sin_cos();
                    *first = Complex32::new(c as f32, s as f32);
                }
                let n = x.len().min(STEP - *at);
                let (f, out, xs, k) = (*first, &mut slots[..n], &x[..n], &steps[*at..][..n]);
                match kernel_set {
                    #[cfg(target_arch = "x86_64")]
                    InstructionSet::Avx512 => {
                        // SAFETY: `kernel_set` is `Avx512` only when
                        // `InstructionSet::detected()` (the CPU's features,
                        // `is_x86_feature_detected!`) has AVX-512 F/DQ/BW/VL, AVX2 and FMA.
                        unsafe { mix_avx512(out, xs, f, k) }
                    }
                    #[cfg(target_arch = "x86_64")]
                    InstructionSet::Avx2Fma => {
                        // SAFETY: `kernel_set` is `Avx2Fma` only when the CPU has AVX2 and FMA.
                        unsafe { mix_avx2_fma(out, xs, f, k) }
                    }
                    _ => mix(out, xs, f, k),
                }
                mixer.skip(n as u64);
                *at = (*at + n) % STEP;
                (x, slots) = (&x[n..], &mut slots[n..]);
            }
        })
    }
}

/// `centre / sample_rate` (turns per sample), which must be finite: a finite centre far
/// beyond a tiny rate gives infinity, and the mixer's phase would be undefined.
fn turns_per_sample(centre: f64, sample_rate: f64) -> Result<f64, ParamError> {
    finite("centre", centre)?;
    let ratio = centre / sample_rate;
    check(ratio.is_finite(), "centre", || {
        format!("{centre:e} Hz is too far beyond the sample rate ({sample_rate:e})")
    })?;
    Ok(ratio)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::*;
    use num_complex::Complex64;

    /// The definition, summed in f64.
    fn naive(taps: &[f32], d: usize, w: f64, x: &[Complex32]) -> Vec<Complex32> {
        let x = to64(x);
        (0..x.len())
            .step_by(d)
            .map(|n| {
                let mut acc = Complex64::default();
                for (j, &t) in taps.iter().enumerate().take(n + 1) {
                    let m = (n - j) as f64 + (taps.len() - 1) as f64 / 2.0;
                    acc += x[n - j] * Complex64::from_polar(f64::from(t), -w * m);
                }
                Complex32::new(acc.re as f32, acc.im as f32)
            })
            .collect()
    }

    #[test]
    fn matches_the_definition_however_the_input_is_split() {
        let x = random_complex(1, 20_000);
        for (taps_len, d, centre) in [(31, 5, 0.13), (8, 1, -0.4), (61, 10, 0.31)] {
            let taps = random_real(2, taps_len);
            let want = naive(&taps, d, 2.0 * PI * centre, &x);
            let mut f = FreqXlatingFir::new(&taps, d, centre * 1e6, 1e6).unwrap();
            let whole = run_whole(&x, want.len(), |i, o| f.process(i, o));
            // The mixer rounds to f32 before the filter: within 1e-5 of the RMS.
            assert_close_complex(&whole, &want, 1e-5, "whole");
            let mut f = FreqXlatingFir::new(&taps, d, centre * 1e6, 1e6).unwrap();
            let split = run_split(3, &x, 500, |i, o| f.process(i, o));
            assert_eq!(split, whole);
        }
    }

    #[test]
    fn every_compiled_mixing_loop_gives_the_portable_bits() {
        let x = random_complex(4, 9000);
        let taps = random_real(5, 45);
        let run = |set: InstructionSet| {
            let mut f = FreqXlatingFir::new(&taps, 5, 0.23e6, 1e6).unwrap();
            f.kernel_set = set;
            let y = run_split(6, &x, 700, |i, o| f.process(i, o));
            bytemuck::cast_slice::<Complex32, u32>(&y).to_vec()
        };
        let want = run(InstructionSet::Portable);
        for set in InstructionSet::available().filter(|s| MIX_KERNELS.contains(s)) {
            assert!(run(set) == want, "{set}: not the portable bits");
        }
    }

    #[test]
    fn equals_gnu_radios_freq_xlating_fir_filter_ccf() {
        let taps = golden_real("lowpass_taps");
        let x = golden_complex("noise");
        for centre in ["0.13", "-0.21"] {
            let f: f64 = centre.parse().unwrap();
            let mut xlate = FreqXlatingFir::new(&taps, 5, f * 48e3, 48e3).unwrap();
            let got = run_whole(&x, x.len(), |i, o| xlate.process(i, o));
            // GNU Radio steps its output rotator by an f32 phase increment, so its phase
            // drifts linearly from the exact one (fitted: 2.6e-7 and -1.7e-7 rad per output
            // for these two): allow 1e-5 of the RMS plus 4e-7 rad per output.
            let want = golden_complex(&format!("xlating_{centre}"));
            assert_eq!(got.len(), want.len());
            let rms = (want.iter().map(|z| z.norm_sqr()).sum::<f32>() / want.len() as f32).sqrt();
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                let tol = 1e-5 * rms + 4e-7 * k as f32 * w.norm();
                assert!((g - w).norm() <= tol, "{centre}: output {k}: {g} vs {w}");
            }
        }
    }

    #[test]
    fn retuning_keeps_the_phase_continuous() {
        let mut f = FreqXlatingFir::new(&[1.0], 1, 1e3, 8e3).unwrap();
        let ones = vec![Complex32::new(1.0, 0.0); 8];
        let mut y = vec![Complex32::default(); 8];
        f.process(&ones, &mut y);
        // e^{-jπn/4}: after 8 samples, a full turn; then at 2 kHz, e^{-jπn/2}.
        assert!((y[2] - Complex32::new(0.0, -1.0)).norm() < 1e-6);
        f.set_centre(2e3).unwrap();
        f.process(&ones, &mut y);
        assert!((y[1] - Complex32::new(0.0, -1.0)).norm() < 1e-6);
        assert_eq!(f.centre(), 2e3);
        assert!(f.set_centre(f64::NAN).is_err());
    }

    #[test]
    fn a_centre_far_beyond_the_rate_is_an_error_or_works_never_a_panic() {
        // centre / sample_rate overflowing to infinity used to panic in the mixer's phase.
        for (centre, rate) in [(1e3, 1e-320), (f64::MAX, 0.5), (-f64::MAX, 1e-3)] {
            let Err(e) = FreqXlatingFir::new(&[1.0; 3], 1, centre, rate) else {
                panic!("{centre:e} at {rate:e} was taken");
            };
            assert_eq!(e.name, "centre", "{centre:e} at {rate:e}");
        }
        // Finite but huge: the phase taken modulo whole turns stays finite.
        let mut f = FreqXlatingFir::new(&[1.0; 31], 1, 1e300, 1.0).unwrap();
        let mut y = vec![Complex32::default(); 4];
        f.process(&[Complex32::new(1.0, 0.0); 34], &mut y);
        assert!(
            y.iter().all(|z| z.re.is_finite() && z.im.is_finite()),
            "{y:?}"
        );
        assert!(f.set_centre(1e3).is_ok());
        let mut tiny = FreqXlatingFir::new(&[1.0; 3], 1, 1e3, 1e-200).unwrap();
        assert!(tiny.set_centre(1e300).is_err());
    }
}
