//! Receiver decoding throughput per core: the LDPC decoder alone at fixed iterations, and
//! the whole `FrameDecoder` (demapping to TS bytes), in Mb/s of information (Kbch bits).
//!
//! `cargo run --release -p radioflow-dvbs2 --example rx_throughput`

use std::time::Instant;

use radioflow_dvbs2::rx::{quantize_llrs, Isa, LdpcCode, LdpcDecoder};
use radioflow_dvbs2::{FrameSize, Modcod};

/// A deterministic noisy LLR vector of the all-zero codeword (the decoder's work does not
/// depend on the codeword) at a given LLR mean, with a little of the frame wrong.
fn llrs(n: usize, seed: u64) -> Vec<f32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            // xorshift, then a crude Gaussian from the sum of 4 uniforms.
            let mut s = 0.0f32;
            for _ in 0..4 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s += (x >> 40) as f32 / (1u64 << 24) as f32;
            }
            // Mean 8, standard deviation 3.5: about 1 % of the hard decisions wrong.
            8.0 + (s - 2.0) * 3.5 * 1.732
        })
        .collect()
}

fn ldpc(frame: FrameSize, modcod: &str, iterations: u32) {
    let m: Modcod = modcod.parse().unwrap();
    let code = LdpcCode::new(frame, m.rate()).unwrap();
    let fec = *code.fec();
    let mut q = vec![0i8; fec.nldpc];
    quantize_llrs(&llrs(fec.nldpc, 7), &mut q);
    for isa in Isa::available() {
        let mut dec = LdpcDecoder::with_isa(isa);
        dec.set_early_termination(false);
        // Correctness before timing: this input decodes to the all-zero codeword.
        dec.set_early_termination(true);
        let st = dec.decode(&code, &q, 50);
        let mut bits = vec![0u8; fec.nldpc];
        dec.hard_bits(&code, &mut bits);
        assert!(st.converged && bits.iter().all(|&b| b == 0), "{st:?}");
        dec.set_early_termination(false);
        let frames = 2000 * 16200 / fec.nldpc;
        let t0 = Instant::now();
        for _ in 0..frames {
            std::hint::black_box(dec.decode(&code, &q, iterations));
        }
        let s = t0.elapsed().as_secs_f64();
        println!(
            "LDPC {modcod} {frame:?}, {iterations} iterations, {isa:?}: {:.1} Mb/s of information (Kbch), {:.1} us/frame",
            (frames * fec.kbch) as f64 / s / 1e6,
            s / frames as f64 * 1e6
        );
    }
}

fn main() {
    ldpc(FrameSize::Short, "qpsk-8/9", 10);
    ldpc(FrameSize::Normal, "8psk-3/5", 10);
}
