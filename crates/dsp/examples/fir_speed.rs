//! The FIR kernel against the naive double loop it is tested against, 100 taps, f32 and
//! complex samples: `cargo run --release -p radioflow-dsp --example fir_speed`.
//! Prints samples per second of each and the ratio (median of 7 runs each, alternated).

use radioflow_dsp::{Complex32, Fir, FirSample};
use std::hint::black_box;
use std::time::Instant;

/// `y[n] = Σ_k taps[k] x[n + h - k]`, one sample at a time.
fn naive<T: FirSample + std::ops::Mul<f32, Output = T> + std::ops::Add<Output = T>>(
    taps: &[f32],
    x: &[T],
    y: &mut [T],
) {
    let h = taps.len() - 1;
    for (n, y) in y.iter_mut().enumerate().take(x.len() - h) {
        let mut acc = T::default();
        for (k, &t) in taps.iter().enumerate() {
            acc = acc + x[n + h - k] * t;
        }
        *y = acc;
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn compare<T>(label: &str, x: &[T])
where
    T: FirSample + std::ops::Mul<f32, Output = T> + std::ops::Add<Output = T>,
{
    let taps: Vec<f32> = (0..100).map(|k| ((k * 37) % 101) as f32 / 101.0).collect();
    let fir = Fir::<T>::new(&taps);
    let mut y = vec![T::default(); x.len()];
    let outputs = (x.len() - 99) as f64;
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let t = Instant::now();
        black_box(fir.filter(black_box(x), &mut y));
        fast.push(outputs / t.elapsed().as_secs_f64());
        let t = Instant::now();
        naive(&taps, black_box(x), &mut y);
        black_box(&y);
        slow.push(outputs / t.elapsed().as_secs_f64());
    }
    let (f, s) = (median(fast), median(slow));
    println!(
        "{label:<9} 100 taps: kernel ({}) {:>7.1} Msamples/s, naive {:>7.1} Msamples/s, {:.1}x",
        fir.kernel_name(),
        f / 1e6,
        s / 1e6,
        f / s
    );
}

fn main() {
    let n = 1 << 20;
    let x: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 500.0 - 1.0)
        .collect();
    compare("f32", &x);
    let c: Vec<Complex32> = x.chunks(2).map(|p| Complex32::new(p[0], p[1])).collect();
    compare("Complex32", &c);
}
