//! Receiver decoding throughput per core: the LDPC decoder alone at fixed iterations, and
//! the whole `FrameDecoder` (demapping to TS bytes), in Mb/s of information (Kbch bits).
//!
//! `cargo run --release -p radioflow-dvbs2 --example rx_throughput`
//!
//! Times are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), so other processes sharing
//! the cores do not inflate them (cache and SMT sharing still can); wall time is printed too.

use std::time::Instant;

/// Seconds of CPU time this thread has used.
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write; the clock id is a constant of the platform.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// CPU and wall seconds of `f`.
fn timed(f: impl FnOnce()) -> (f64, f64) {
    let (c0, w0) = (cpu_seconds(), Instant::now());
    f();
    (cpu_seconds() - c0, w0.elapsed().as_secs_f64())
}

use num_complex::Complex32;
use radioflow_dvbs2::rx::{
    llr_target_mean, quantize_llrs, Depacketizer, FrameDecoder, IdealSync, Isa, LdpcCode,
    LdpcDecoder, StageProfile,
};
use radioflow_dvbs2::{FrameSize, Modcod, Transmitter, TxConfig};

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
    quantize_llrs(&llrs(fec.nldpc, 7), &mut q, llr_target_mean(m.rate()));
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
        let (s, wall) = timed(|| {
            for _ in 0..frames {
                std::hint::black_box(dec.decode(&code, &q, iterations));
            }
        });
        println!(
            "LDPC {modcod} {frame:?}, {iterations} iterations, {isa:?}: {:.1} Mb/s of information (Kbch) per core, {:.1} us/frame (wall {:.1} Mb/s)",
            (frames * fec.kbch) as f64 / s / 1e6,
            s / frames as f64 * 1e6,
            (frames * fec.kbch) as f64 / wall / 1e6,
        );
    }
}

/// Noisy data symbols of `n` frames of `modcod` at `es_n0_db`, and the TS they carry.
fn frames(
    modcod: Modcod,
    frame: FrameSize,
    es_n0_db: f32,
    n: usize,
) -> (Vec<Vec<Complex32>>, Vec<u8>, f32) {
    let cfg = TxConfig::new(modcod, frame, true);
    let mut tx = Transmitter::new(cfg).unwrap();
    let sync = IdealSync::new(cfg.gold);
    let ts: Vec<u8> = (0..n * 8200)
        .map(|i| {
            if i % 188 == 0 {
                0x47
            } else {
                ((i * 2_654_435_761usize) >> 13) as u8 & 0x7F
            }
        })
        .collect();
    let n0 = 10f32.powf(-es_n0_db / 10.0);
    let sigma = (n0 / 2.0).sqrt();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut gauss = move || {
        let mut s = 0.0f32;
        for _ in 0..12 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s += (seed >> 40) as f32 / (1u64 << 24) as f32;
        }
        s - 6.0
    };
    let mut pos = 0;
    let mut out = Vec::new();
    for _ in 0..n {
        let mut pl = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        pos += tx.encode_frame(&ts[pos..], &mut pl).unwrap().consumed;
        let mut sym = vec![Complex32::new(0.0, 0.0); pl.len()];
        let k = sync.data_symbols(&pl, true, &mut sym);
        sym.truncate(k);
        for s in &mut sym {
            *s += Complex32::new(sigma * gauss(), sigma * gauss());
        }
        out.push(sym);
    }
    (out, ts[..pos].to_vec(), n0)
}

fn frame_decoder(modcod: &str, frame: FrameSize, es_n0_db: f32) {
    let m: Modcod = modcod.parse().unwrap();
    let (syms, sent, n0) = frames(m, frame, es_n0_db, 8);
    let mut dec = FrameDecoder::new();
    // Correctness before timing: the TS comes back.
    let mut got = Vec::new();
    let mut depack = Depacketizer::new();
    let mut iterations = 0;
    for s in &syms {
        let st = dec.decode(s, m, frame, n0).unwrap();
        assert!(st.ok(), "{st:?}");
        iterations += st.ldpc.iterations;
        depack.push(
            st.header.ok().as_ref(),
            dec.bbframe(),
            true,
            &mut |p: &[u8]| got.extend_from_slice(p),
        );
    }
    assert!(got == sent[..got.len()] && got.len() > sent.len() - 2 * 188);
    let rounds = 4000 * 16200 / m.fec(frame).unwrap().nldpc / syms.len();
    let mut bits = 0;
    let (secs, wall) = timed(|| {
        for _ in 0..rounds {
            for s in &syms {
                let st = dec.decode(s, m, frame, n0).unwrap();
                bits += st.info_bits();
            }
        }
    });
    let frames = rounds * syms.len();
    println!(
        "FrameDecoder {modcod} {frame:?} pilots at Es/N0 {es_n0_db} dB ({:.1} LDPC iterations/frame): {:.1} Mb/s of information per core, {:.1} us/frame (wall {:.1} Mb/s)",
        f64::from(iterations) / syms.len() as f64,
        bits as f64 / secs / 1e6,
        secs / frames as f64 * 1e6,
        bits as f64 / wall / 1e6,
    );
    // The stages, in the form of the seed's Table 3 (wall time between stages).
    let mut profile = StageProfile::default();
    for _ in 0..rounds {
        for s in &syms {
            dec.decode_profiled(s, m, frame, n0, &mut profile).unwrap();
        }
    }
    println!(
        "  {:<26} {:>12} {:>14} {:>8}",
        "stage", "Mb/s (info)", "latency (us)", "time %"
    );
    for (stage, mbps, latency, share) in profile.rows() {
        println!(
            "  {:<26} {mbps:>12.1} {latency:>14.1} {share:>8.1}",
            stage.name()
        );
    }
}

fn main() {
    // `rx_throughput frame` or `rx_throughput ldpc` runs one half (for profiling).
    let only = std::env::args().nth(1).unwrap_or_default();
    if only != "ldpc" {
        frame_decoder("qpsk-8/9", FrameSize::Short, 8.0);
        frame_decoder("8psk-3/5", FrameSize::Normal, 7.0);
    }
    if only == "frame" {
        return;
    }
    ldpc(FrameSize::Short, "qpsk-8/9", 10);
    ldpc(FrameSize::Normal, "8psk-3/5", 10);
}
