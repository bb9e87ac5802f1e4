//! End-to-end tests: the crate's transmitter, the test channel, the synchroniser.

use num_complex::Complex32;
use rand::{Rng, SeedableRng};

use super::channel::{channel, Impairments};
use super::front_end::FrontEnd;

/// Random QPSK symbols.
fn qpsk(n: usize, seed: u64) -> Vec<Complex32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let a = std::f32::consts::FRAC_1_SQRT_2;
    (0..n)
        .map(|_| {
            Complex32::new(
                if rng.gen() { a } else { -a },
                if rng.gen() { a } else { -a },
            )
        })
        .collect()
}

/// EVM (rms error / rms reference) of `rx` against `tx` after the best lag in `lags` and the
/// least-squares complex gain.
fn evm_aligned(rx: &[Complex32], tx: &[Complex32], lags: std::ops::Range<isize>) -> (f64, isize) {
    let mut best = (f64::MAX, 0);
    for lag in lags {
        let pairs = rx.iter().enumerate().filter_map(|(i, r)| {
            let j = i as isize + lag;
            (j >= 0 && (j as usize) < tx.len()).then(|| (*r, tx[j as usize]))
        });
        let (mut num, mut den) = (Complex32::new(0.0, 0.0), 0.0f32);
        let pv: Vec<_> = pairs.collect();
        for (r, t) in &pv {
            num += r * t.conj();
            den += t.norm_sqr();
        }
        let g = num / den;
        let err: f32 = pv.iter().map(|(r, t)| (r - g * t).norm_sqr()).sum();
        let evm = f64::from((err / (den * g.norm_sqr())).sqrt());
        if evm < best.0 {
            best = (evm, lag);
        }
    }
    best
}

#[test]
fn timing_recovery_from_fractional_offset_and_clock_error() {
    let tx = qpsk(20_000, 3);
    for (timing, ppm) in [(0.37, 100.0), (0.81, -150.0), (0.0, 0.0)] {
        let imp = Impairments {
            timing,
            clock_ppm: ppm,
            gain: 0.3,
            ..Impairments::default()
        };
        let samples = channel(&tx, &imp);
        let mut fe = FrontEnd::new(0.2, 0.005);
        let mut out = Vec::new();
        for b in samples.chunks(super::front_end::BLOCK) {
            fe.process_block(b, &mut out);
        }
        // After convergence: the last 10 000 symbols.
        let skip = out.len() - 10_000;
        let (evm, lag) = evm_aligned(&out[skip..], &tx, skip as isize - 40..skip as isize + 40);
        let db = 20.0 * evm.log10();
        eprintln!("timing {timing} ppm {ppm}: EVM {db:.1} dB lag {lag}");
        assert!(db < -28.0, "timing {timing}, {ppm} ppm: EVM {db:.1} dB");
    }
}
