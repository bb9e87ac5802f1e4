//! Helpers shared by the tests: random inputs, random call splits, golden data.

use num_complex::{Complex32, Complex64};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::sync::OnceLock;

pub(crate) fn random_complex(seed: u64, n: usize) -> Vec<Complex32> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| Complex32::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
        .collect()
}

pub(crate) fn random_real(seed: u64, n: usize) -> Vec<f32> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect()
}

/// Runs a streaming `process(input, output) -> (consumed, produced)` over all of `input` in
/// calls with random input and output lengths (fixed seed, some of them 0 or 1), until it
/// neither consumes nor produces; returns everything produced.
pub(crate) fn run_split<I: Copy, O: Copy + Default>(
    seed: u64,
    input: &[I],
    max_out: usize,
    mut process: impl FnMut(&[I], &mut [O]) -> (usize, usize),
) -> Vec<O> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut buf = vec![O::default(); max_out];
    let mut at = 0;
    let mut idle = 0;
    while idle < 50 {
        let n_in = match rng.gen_range(0..4) {
            0 => rng.gen_range(0..=2),
            _ => rng.gen_range(0..=700),
        }
        .min(input.len() - at);
        let n_out = match rng.gen_range(0..4) {
            0 => rng.gen_range(0..=2),
            _ => rng.gen_range(0..=max_out),
        };
        let (c, p) = process(&input[at..at + n_in], &mut buf[..n_out]);
        assert!(c <= n_in && p <= n_out);
        at += c;
        out.extend_from_slice(&buf[..p]);
        idle = if c == 0 && p == 0 { idle + 1 } else { 0 };
    }
    // Drain with room to spare: whatever is left must come out now.
    loop {
        let (c, p) = process(&input[at..], &mut buf);
        at += c;
        out.extend_from_slice(&buf[..p]);
        if c == 0 && p == 0 {
            break;
        }
    }
    assert_eq!(at, input.len(), "input left unconsumed");
    out
}

/// [`run_split`] for a one-to-one kernel `process(input, output)` that fills
/// `output[..input.len()]`.
pub(crate) fn run_split_sync<I: Copy, O: Copy + Default>(
    seed: u64,
    input: &[I],
    max_out: usize,
    mut process: impl FnMut(&[I], &mut [O]),
) -> Vec<O> {
    run_split(seed, input, max_out, |i, o| {
        let n = i.len().min(o.len());
        process(&i[..n], &mut o[..n]);
        (n, n)
    })
}

/// Runs `process` over all of `input` in one call with ample output room.
pub(crate) fn run_whole<I: Copy, O: Copy + Default>(
    input: &[I],
    out_len: usize,
    mut process: impl FnMut(&[I], &mut [O]) -> (usize, usize),
) -> Vec<O> {
    let mut out = vec![O::default(); out_len];
    let (mut at, mut n) = (0, 0);
    loop {
        let (c, p) = process(&input[at..], &mut out[n..]);
        at += c;
        n += p;
        if c == 0 && p == 0 {
            break;
        }
    }
    assert_eq!(at, input.len(), "input left unconsumed");
    out.truncate(n);
    out
}

/// `blocks.json`, made by `golden/firdes.py` from GNU Radio's blocks.
pub(crate) fn golden() -> &'static Value {
    static GOLDEN: OnceLock<Value> = OnceLock::new();
    GOLDEN.get_or_init(|| {
        serde_json::from_str(include_str!("../golden/blocks.json")).expect("golden JSON")
    })
}

pub(crate) fn golden_real(key: &str) -> Vec<f32> {
    golden()[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} in blocks.json"))
        .iter()
        .map(|v| v.as_f64().expect("number") as f32)
        .collect()
}

pub(crate) fn golden_complex(key: &str) -> Vec<Complex32> {
    golden()[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} in blocks.json"))
        .iter()
        .map(|v| {
            Complex32::new(
                v[0].as_f64().expect("re") as f32,
                v[1].as_f64().expect("im") as f32,
            )
        })
        .collect()
}

/// Asserts `|got - want| <= tol · scale` element-wise, where `scale` is the RMS of `want`,
/// over the first `want.len()` elements (`got` may be longer: GNU Radio stops at its last
/// full window).
pub(crate) fn assert_close_complex(got: &[Complex32], want: &[Complex32], tol: f32, what: &str) {
    assert!(
        got.len() >= want.len(),
        "{what}: {} outputs, want {}",
        got.len(),
        want.len()
    );
    let rms = (want.iter().map(|z| z.norm_sqr()).sum::<f32>() / want.len() as f32).sqrt();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).norm() <= tol * rms,
            "{what}: sample {i}: {g} vs {w} (rms {rms})"
        );
    }
}

/// As [`assert_close_complex`] for real samples.
pub(crate) fn assert_close_real(got: &[f32], want: &[f32], tol: f32, what: &str) {
    assert!(
        got.len() >= want.len(),
        "{what}: {} outputs, want {}",
        got.len(),
        want.len()
    );
    let rms = (want.iter().map(|x| x * x).sum::<f32>() / want.len() as f32).sqrt();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * rms,
            "{what}: sample {i}: {g} vs {w} (rms {rms})"
        );
    }
}

/// `Σ h[k] x[n - k]` for every `n` of `x` (zeros before it), in f64.
pub(crate) fn naive_convolve(h: &[f64], x: &[Complex64]) -> Vec<Complex64> {
    (0..x.len())
        .map(|n| {
            h.iter()
                .enumerate()
                .take(n + 1)
                .map(|(k, &t)| x[n - k] * t)
                .sum()
        })
        .collect()
}

pub(crate) fn to64(x: &[Complex32]) -> Vec<Complex64> {
    x.iter()
        .map(|z| Complex64::new(z.re.into(), z.im.into()))
        .collect()
}
