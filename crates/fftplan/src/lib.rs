//! FFT plans of `f32` by size, forward or inverse, as [rustfft] makes them.
//!
//! rustfft's planner is generic: every crate that calls it compiles its own copy of every
//! algorithm and SIMD variant it may choose (with optimization, about 35 CPU-seconds per
//! copy; once in a crate and again in its unit tests). Here it is compiled once, behind two
//! functions that are not generic, so the crates that need FFTs (`radioflow-dsp`,
//! `radioflow-dvbs2`) and their tests link this one copy. The plans run as rustfft's own
//! ([`Fft`] trait objects, the algorithm chosen for the CPU at run time).
//!
//! One planner serves the process, so a size planned twice (two blocks with the same FFT
//! size) gets the same plan. Planning takes a lock: it is done when a block is made, never
//! while data flows.

use std::sync::{Arc, Mutex, OnceLock};

pub use rustfft::num_complex::Complex32;
pub use rustfft::Fft;

fn planner() -> &'static Mutex<rustfft::FftPlanner<f32>> {
    static PLANNER: OnceLock<Mutex<rustfft::FftPlanner<f32>>> = OnceLock::new();
    PLANNER.get_or_init(|| Mutex::new(rustfft::FftPlanner::new()))
}

fn plan(size: usize, direction: rustfft::FftDirection) -> Arc<dyn Fft<f32>> {
    // A panic while planning leaves the planner's cache as it was (it only adds plans).
    let mut planner = planner().lock().unwrap_or_else(|e| e.into_inner());
    planner.plan_fft(size, direction)
}

/// The forward FFT of `size` points (not normalized: `X[k] = Σ x[n] e^(-2πikn/size)`).
pub fn forward(size: usize) -> Arc<dyn Fft<f32>> {
    plan(size, rustfft::FftDirection::Forward)
}

/// The inverse FFT of `size` points (not normalized: a forward then an inverse FFT multiply
/// by `size`).
pub fn inverse(size: usize) -> Arc<dyn Fft<f32>> {
    plan(size, rustfft::FftDirection::Inverse)
}
