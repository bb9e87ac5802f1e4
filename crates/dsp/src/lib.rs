//! Pure DSP kernels for radioflow: plain functions and state machines over slices, with no
//! runtime dependency, so blocks stay thin adapters and the math is testable on its own.
//!
//! Each kernel is checked against a naive reference on fixed-seed random input; those that
//! mirror a GNU Radio block are also checked against that block's own output (`golden/`,
//! made by `golden/firdes.py` with Debian's GNU Radio 3.10). Streaming kernels keep their
//! state between calls and allocate only in `new`. Constructors and designs check their
//! parameters and return a [`ParamError`] naming the one that is wrong.
//!
//! Design and filtering:
//! - [`firdes`]: GNU Radio's filter designs (low/high/band-pass, band-reject with
//!   [`firdes::Window`]s, complex band-pass, root-raised-cosine, Gaussian, Hilbert,
//!   resampler taps), same taps; [`optfir`]: GNU Radio's equiripple designs
//!   (`optfir.low_pass` and others, over [`optfir::pm_remez`], the Parks-McClellan exchange).
//! - [`Fir`]: FIR filter with real taps on `f32` or `Complex32` samples (SIMD, AVX-512 or
//!   AVX2+FMA chosen at run time where available: [`InstructionSet`], decided once for every
//!   kernel and capped by `RADIOFLOW_ISA`), over caller-held history.
//! - [`DecimatingFir`], [`InterpolatingFir`], [`RationalResampler`]: streaming FIRs keeping
//!   one output in `D`, making `I` per input (polyphase), or both.
//! - [`ArbResampler`]: any rate ratio (a polyphase bank, linear interpolation between
//!   adjacent branches); [`PfbArbResampler`]: the same filter stepped as GNU Radio's
//!   `pfb_arb_resampler` steps it, for GNU Radio's outputs.
//! - [`FreqXlatingFir`]: moves a channel to DC, filters and decimates.
//! - [`ComplexTapFir`]: complex taps on real or complex samples (a complex band-pass picks one
//!   side), [`ComplexTapInterpFir`] its interpolating version.
//! - [`ComplexFir`]: complex taps on complex samples (a multipath channel).
//! - [`MmseInterpolator`], [`MmseResampler`]: GNU Radio's 8-tap MMSE interpolation between
//!   samples, and resampling by any ratio with it (timing offsets).
//! - [`FftFir`]: overlap-save FFT convolution, for long filters.
//! - [`Hilbert`]: a real signal to its analytic signal.
//! - [`Iir`] (with [`Iir::fm_deemphasis`]), [`SinglePoleIir`], [`Biquad`]: recursive filters.
//! - [`MovingAverage`], [`DcBlocker`], [`Delay`]: running sums, DC removal, delay lines.
//!
//! Synchronization and demodulation:
//! - [`Nco`]: numerically controlled oscillator producing sine, cosine and complex
//!   exponential samples with a drift-free phase that stays continuous across calls.
//! - [`Rotator`]: frequency shift by an NCO mixer.
//! - [`CfoWalk`]: a carrier frequency offset walking at random (GNU Radio's CFO model).
//! - [`SroWalk`]: resampling by a sample rate offset walking at random (GNU Radio's SRO
//!   model).
//! - [`FlatFader`]: Rayleigh or Rician flat-fading gains, GNU Radio's sum-of-sinusoids model.
//! - [`SelectiveFader`]: frequency-selective fading, flat faders on delayed paths.
//! - [`QuadratureDemod`]: FM demodulation, `gain · arg(x[n]·conj(x[n-1]))`.
//! - [`Agc`]: automatic gain control toward a reference amplitude.
//! - [`Pll`]: carrier-tracking phase-locked loop with frequency and lock outputs.
//! - [`ControlLoop`]: GNU Radio's second-order loop filter (gains [`loop_gains`]), shared by
//!   the synchronizers.
//! - [`PfbClockSync`]: symbol timing recovery by a polyphase filterbank.
//! - [`CostasLoop`]: carrier phase recovery for BPSK, QPSK and 8PSK.
//! - [`FllBandEdge`]: coarse carrier frequency recovery by band-edge filters.
//! - [`Spectrum`]: windowed log-power spectrum of a frame.
//! - [`StereoDecoder`]: FM broadcast stereo (pilot PLL, 38 kHz `L-R`, matrix).
//! - [`GrRandom`]: GNU Radio's random variates (uniform, Gaussian, Laplacian, impulse), the
//!   same numbers for the same seed.
//!
//! Packets:
//! - [`Crc`]: cyclic redundancy checks of 8 to 64 bits, GNU Radio's parameters and values.
//!
//! Samples:
//! - [`add_const`], [`multiply_const`], [`add_into`], [`subtract_into`], [`multiply_into`]:
//!   element-wise arithmetic with a constant or between streams, for any [`Arith`] sample
//!   type (floats, complex floats, wrapping integers).
//! - [`magnitude`], [`magnitude_squared`], [`arg`], [`real`], [`imag`], [`conjugate`],
//!   [`to_complex`]: complex conversions.
//! - [`cu8_to_complex`], [`cs8_to_complex`], [`cs16_to_complex`], [`cf32_to_complex`] and
//!   back ([`complex_to_cu8`], ...): the I/Q formats of SDR recordings.
//!
//! A mono FM receiver's core: a station 60 kHz off centre at 480 kHz, carrying a 1 kHz tone
//! at 50 kHz deviation, brought to 48 kHz audio.
//!
//! ```
//! use radioflow_dsp::{firdes, Complex32, DecimatingFir, FreqXlatingFir, Iir, QuadratureDemod};
//! use std::f64::consts::PI;
//!
//! let (fs, offset, deviation) = (480e3, 60e3, 50e3);
//! let mut phase = 0.0f64;
//! let iq: Vec<Complex32> = (0..48_000)
//!     .map(|n| {
//!         let tone = (2.0 * PI * 1e3 * n as f64 / fs).sin();
//!         phase += 2.0 * PI * (offset + deviation * tone) / fs;
//!         Complex32::new(phase.cos() as f32, phase.sin() as f32)
//!     })
//!     .collect();
//!
//! // Channel: 100 kHz low-pass, 480 -> 240 kHz.
//! let taps = firdes::low_pass(1.0, fs, 100e3, 20e3, firdes::Window::Hamming)?;
//! let mut channel = FreqXlatingFir::new(&taps, 2, offset, fs)?;
//! let mut baseband = vec![Complex32::default(); 24_000];
//! assert_eq!(channel.process(&iq, &mut baseband), (48_000, 24_000));
//!
//! // Demodulate to ±1 at full deviation, de-emphasize (50 µs), 240 -> 48 kHz.
//! let mut fm = vec![0.0f32; 24_000];
//! QuadratureDemod::new((240e3 / (2.0 * PI * deviation)) as f32).process(&baseband, &mut fm);
//! let mut deemphasized = vec![0.0f32; 24_000];
//! Iir::fm_deemphasis(240e3, 50e-6)?.process(&fm, &mut deemphasized);
//! let audio_taps = firdes::low_pass(1.0, 240e3, 15e3, 5e3, firdes::Window::Hamming)?;
//! let mut audio = vec![0.0f32; 4_800];
//! DecimatingFir::new(&audio_taps, 5)?.process(&deemphasized, &mut audio);
//!
//! // The tone, at the de-emphasis gain at 1 kHz (1/√(1 + (2π·1 kHz·50 µs)²) ≈ 0.95).
//! let peak = audio[1_000..].iter().fold(0.0f32, |m, v| m.max(v.abs()));
//! assert!((peak - 0.95).abs() < 0.02, "peak {peak}");
//! # Ok::<(), radioflow_dsp::ParamError>(())
//! ```

mod agc;
mod arb_resampler;
mod arith;
mod carrier_allocator;
mod cfo_walk;
mod clock_tracking_loop;
mod complex;
mod complex_fir;
mod complex_tap_fir;
mod complex_tap_interp_fir;
mod control_loop;
mod convert;
mod cos_table;
mod costas_loop;
mod crc;
mod cyclic_prefixer;
mod dc_blocker;
mod decimating_fir;
mod error;
mod fft_fir;
mod fir;
pub mod firdes;
mod flat_fader;
mod fll_band_edge;
mod fm_chains;
mod freq_xlating_fir;
mod frequency_modulator;
mod gr_moving_average;
mod gr_random;
mod hilbert;
mod history;
mod iir;
mod instruction_set;
mod integrate;
mod interp_resampler;
mod interpolating_fir;
mod mmse_interpolator;
mod mmse_resampler;
mod moving_average;
mod mt19937;
mod nco;
pub mod optfir;
mod peak_detector;
mod peak_detector2;
mod pfb_arb_resampler;
mod pfb_clock_sync;
mod pll;
mod quadrature_demod;
mod rational_resampler;
mod remez;
mod rotator;
mod sample_format;
mod selective_fader;
mod spectrum;
mod sro_walk;
mod stereo_decoder;
mod symbol_sync;
#[cfg(test)]
mod test_util;
mod timing_error_detector;
mod vector_fft;
mod window;

pub use agc::{Agc, Agc2};
pub use arb_resampler::ArbResampler;
pub use arith::{
    abs, add_const, add_const_per_position, add_into, divide_into, multiply_const,
    multiply_const_per_position, multiply_into, nlog10, subtract_into, Abs, Arith,
};
pub use carrier_allocator::CarrierAllocator;
pub use cfo_walk::CfoWalk;
pub use clock_tracking_loop::ClockTrackingLoop;
pub use complex::{
    arg, conjugate, from_polar, imag, magnitude, magnitude_phase, magnitude_squared,
    multiply_conjugate, parts, phase, real, real_to_complex, to_complex,
};
pub use complex_fir::ComplexFir;
pub use complex_tap_fir::{ComplexTapFir, ComplexTapSample};
pub use complex_tap_interp_fir::ComplexTapInterpFir;
pub use control_loop::{branchless_clip, loop_gains, tanh_lut, ControlLoop};
pub use convert::{
    char_to_short, complex_to_interleaved, float_to_int, int_to_float, interleaved_to_complex,
    short_to_char, FromScaled,
};
pub use costas_loop::CostasLoop;
pub use crc::Crc;
pub use cyclic_prefixer::CyclicPrefixer;
pub use dc_blocker::DcBlocker;
pub use decimating_fir::DecimatingFir;
pub use error::{Num, ParamError};
pub use fft_fir::FftFir;
pub use fir::{Fir, FirSample};
pub use flat_fader::FlatFader;
pub use fll_band_edge::FllBandEdge;
pub use fm_chains::{FmReceiver, FmTransmitter};
pub use freq_xlating_fir::FreqXlatingFir;
pub use frequency_modulator::FrequencyModulator;
pub use gr_moving_average::GrMovingAverage;
pub use gr_random::GrRandom;
pub use hilbert::Hilbert;
pub use iir::{Biquad, Iir, SinglePoleIir};
pub use instruction_set::{InstructionSet, ISA_VARIABLE};
pub use integrate::integrate;
pub use interp_resampler::{InterpResampler, ResamplerKind};
pub use interpolating_fir::InterpolatingFir;
pub use mmse_interpolator::MmseInterpolator;
pub use mmse_resampler::MmseResampler;
pub use moving_average::{Delay, MovingAverage};
pub use mt19937::Mt19937;
pub use nco::Nco;
pub use peak_detector::{PeakDetector, PeakSample, PEAK_SEARCH_LIMIT};
pub use peak_detector2::PeakDetector2;
pub use pfb_arb_resampler::PfbArbResampler;
pub use pfb_clock_sync::{ClockSample, PfbClockSync};
pub use pll::Pll;
pub use quadrature_demod::QuadratureDemod;
pub use rational_resampler::RationalResampler;
pub use rotator::Rotator;
pub use sample_format::{
    cf32_to_complex, complex_to_cf32, complex_to_cs16, complex_to_cs8, complex_to_cu8,
    cs16_to_complex, cs8_to_complex, cu8_to_complex,
};
pub use selective_fader::SelectiveFader;
pub use spectrum::Spectrum;
pub use sro_walk::SroWalk;
pub use stereo_decoder::StereoDecoder;
pub use symbol_sync::{SymbolSync, SymbolSyncConfig, SyncSample, SyncState, SyncTag};
pub use timing_error_detector::{Slicer, TedKind, TimingErrorDetector};
pub use vector_fft::{FftSample, VectorFft};

/// Re-exported so callers can name the complex sample type without another dependency.
pub use num_complex::Complex32;
