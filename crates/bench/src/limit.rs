//! The physical limit of copy-chain benchmarks: single-core in-cache memcpy bandwidth,
//! measured in the same run as the experiments (BENCHMARKS.md).

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Bytes per second one core copies between two buffers that stay in L1 (`chunk_bytes` each,
/// default 8 KiB): the best of three 100 ms trials.
pub fn memcpy_bandwidth(chunk_bytes: usize) -> f64 {
    let n = (chunk_bytes / 4).max(1);
    let mut a = vec![1.0f32; n];
    let mut b = vec![0.0f32; n];
    let mut best = 0.0f64;
    for _ in 0..3 {
        let t0 = Instant::now();
        let mut copies = 0u64;
        while t0.elapsed() < Duration::from_millis(100) {
            for _ in 0..64 {
                b.copy_from_slice(black_box(&a));
                a.copy_from_slice(black_box(&b));
            }
            copies += 128;
        }
        let rate = (copies * (n * 4) as u64) as f64 / t0.elapsed().as_secs_f64();
        best = best.max(rate);
    }
    black_box((&a, &b));
    best
}

/// The shortest possible run time of `buf`: its copy blocks move `pipes * stages * samples`
/// f32 at `bandwidth` bytes/s per core on `cores` cores.
pub fn buf_floor_seconds(
    pipes: usize,
    stages: usize,
    samples: u64,
    bandwidth: f64,
    cores: usize,
) -> f64 {
    (pipes * stages) as f64 * samples as f64 * 4.0 / (bandwidth * cores.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_is_measured_and_the_floor_scales_with_work() {
        let bw = memcpy_bandwidth(8192);
        assert!(bw > 1e8, "memcpy at {bw} B/s is not plausible");
        let one = buf_floor_seconds(1, 1, 1_000_000, bw, 1);
        assert!((buf_floor_seconds(10, 10, 1_000_000, bw, 2) / one - 50.0).abs() < 1e-9);
    }
}
