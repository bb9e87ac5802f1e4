//! The plans against a naive DFT. An integration test, not a unit test: a unit test would
//! compile rustfft's planner a second time (with the crate's cfg(test), ~18 CPU-seconds at
//! opt-level 2), the cost this crate exists to pay once.

use radioflow_fftplan::{forward, inverse, Complex32};
use std::sync::Arc;

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
