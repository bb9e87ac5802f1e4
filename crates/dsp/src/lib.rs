//! Pure DSP kernels for radioflow: plain functions and state machines over slices, with no
//! runtime dependency, so blocks stay thin adapters and the math is testable on its own.
//!
//! - [`Nco`]: numerically controlled oscillator producing sine, cosine and complex
//!   exponential samples with a drift-free phase that stays continuous across calls.
//! - [`add_const`], [`multiply_const`]: element-wise arithmetic with a constant, for any
//!   [`Arith`] sample type (floats, complex floats, wrapping integers).
//! - [`Fir`]: FIR filter with real taps on `f32` or `Complex32` samples (SIMD, AVX2+FMA chosen
//!   at run time where available).
//!
//! ```
//! use radioflow_dsp::{multiply_const, Complex32, Nco};
//!
//! // 1 kHz at 48 kHz: a complex exponential, then scaled by 2.
//! let mut nco = Nco::new(1_000.0, 48_000.0);
//! let mut tone = vec![Complex32::default(); 480];
//! nco.fill_exp(&mut tone, 1.0, Complex32::new(0.0, 0.0));
//! let mut louder = vec![Complex32::default(); 480];
//! multiply_const(&tone, Complex32::new(2.0, 0.0), &mut louder);
//!
//! // Ten full cycles later the phase is back at zero.
//! assert!(nco.phase().abs() < 1e-12);
//! assert!((louder[12].im - 2.0).abs() < 1e-6); // a quarter cycle in: 2·sin(π/2)
//! ```

mod arith;
mod decimating_fir;
mod error;
mod fir;
pub mod firdes;
mod freq_xlating_fir;
mod history;
mod interpolating_fir;
mod nco;
mod rational_resampler;
#[cfg(test)]
mod test_util;
mod window;

pub use arith::{add_const, multiply_const, multiply_into, Arith};
pub use decimating_fir::DecimatingFir;
pub use error::ParamError;
pub use fir::{Fir, FirSample};
pub use freq_xlating_fir::FreqXlatingFir;
pub use interpolating_fir::InterpolatingFir;
pub use nco::Nco;
pub use rational_resampler::RationalResampler;

/// Re-exported so callers can name the complex sample type without another dependency.
pub use num_complex::Complex32;
