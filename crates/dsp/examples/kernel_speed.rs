//! The DSP kernels of the FM receiver alone, on the instruction set this process picks:
//! nanoseconds per input sample, the best of many calls on a cache-resident block (the
//! best, not the median, so that a busy shared machine does not blur the comparison).
//!
//! Compare the paths of one CPU by capping the set:
//! `for isa in avx512 avx2fma portable; do RADIOFLOW_ISA=$isa cargo run --release -p radioflow-dsp --example kernel_speed; done`

use radioflow_dsp::{Complex32, Fir, FreqXlatingFir, InstructionSet, QuadratureDemod, Rotator};
use std::time::Instant;

/// Samples per call, and calls (the best one counts).
const N: usize = 8192;
const CALLS: usize = 3000;

fn best(mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..CALLS {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    best * 1e9 / N as f64
}

fn main() {
    println!("kernels: {}", InstructionSet::describe());
    for (complex, taps, d) in [
        (false, 64, 1),
        (true, 64, 1),
        (true, 145, 10),
        (false, 385, 5),
    ] {
        let t: Vec<f32> = (0..taps)
            .map(|i| ((i * 7919) % 101) as f32 / 101.0 - 0.5)
            .collect();
        let ns = if complex {
            let fir = Fir::<Complex32>::new(&t);
            let x: Vec<Complex32> = (0..N + taps)
                .map(|i| Complex32::new(((i * 31) % 17) as f32, ((i * 13) % 11) as f32))
                .collect();
            let mut y = vec![Complex32::default(); N];
            match d {
                1 => best(|| _ = fir.filter(&x[..N + taps - 1], &mut y)),
                _ => best(|| fir.filter_decimated(&x, &mut y[..N / d], d)),
            }
        } else {
            let fir = Fir::<f32>::new(&t);
            let x: Vec<f32> = (0..N + taps)
                .map(|i| ((i * 31) % 17) as f32 / 17.0)
                .collect();
            let mut y = vec![0.0; N];
            match d {
                1 => best(|| _ = fir.filter(&x[..N + taps - 1], &mut y)),
                _ => best(|| fir.filter_decimated(&x, &mut y[..N / d], d)),
            }
        };
        let kind = if complex { "ccf" } else { "fff" };
        let by = if d > 1 {
            format!(" /{d}")
        } else {
            String::new()
        };
        println!("{kind} {taps} taps{by}: {ns:.3} ns per input sample");
    }
    let x: Vec<Complex32> = (0..N)
        .map(|i| Complex32::from_polar(1.0, i as f32 * 0.1))
        .collect();
    let (mut y, mut yc) = (vec![0.0; N], vec![Complex32::default(); N]);
    let mut demod = QuadratureDemod::new(1.0);
    println!(
        "quadrature demod: {:.3} ns per sample",
        best(|| demod.process(&x, &mut y))
    );
    let mut mixer = FreqXlatingFir::new(&[1.0], 1, 0.1e6, 2.4e6).expect("valid");
    println!(
        "frequency-translating mixer (1 tap): {:.3} ns per sample",
        best(|| _ = mixer.process(&x, &mut yc))
    );
    let mut rotator = Rotator::new(1e3, 48e3).expect("valid");
    println!(
        "rotator: {:.3} ns per sample",
        best(|| rotator.process(&x, &mut yc))
    );
}
