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

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive DFT of `x`, in f64.
    fn dft(x: &[Complex32], sign: f64) -> Vec<(f64, f64)> {
        let n = x.len();
        (0..n)
            .map(|k| {
                x.iter().enumerate().fold((0.0, 0.0), |(re, im), (i, v)| {
                    let a = sign * 2.0 * std::f64::consts::PI * (k * i % n) as f64 / n as f64;
                    let (s, c) = a.sin_cos();
                    let (vr, vi) = (f64::from(v.re), f64::from(v.im));
                    (re + vr * c - vi * s, im + vr * s + vi * c)
                })
            })
            .collect()
    }

    #[test]
    fn plans_match_the_naive_dft_in_both_directions_and_sizes_are_shared() {
        for size in [1, 2, 7, 64, 100, 1024] {
            let x: Vec<Complex32> = (0..size)
                .map(|i| Complex32::new((i as f32 * 0.37).sin(), (i as f32 * 0.11).cos()))
                .collect();
            for (fft, sign) in [(forward(size), -1.0), (inverse(size), 1.0)] {
                assert_eq!(fft.len(), size);
                let mut y = x.clone();
                fft.process(&mut y);
                for (got, want) in y.iter().zip(dft(&x, sign)) {
                    let tol = 1e-4 * size as f64;
                    assert!(
                        (f64::from(got.re) - want.0).abs() < tol
                            && (f64::from(got.im) - want.1).abs() < tol,
                        "size {size}: {got} against {want:?}"
                    );
                }
            }
        }
        assert!(Arc::ptr_eq(&forward(64), &forward(64)));
    }
}
