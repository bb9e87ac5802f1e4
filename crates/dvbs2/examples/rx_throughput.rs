//! Receiver decoding throughput per core: the LDPC decoders alone (intra-frame and
//! inter-frame side by side, at fixed iterations and with early termination), and the whole
//! `FrameDecoder` (demapping to TS bytes) frame by frame and in batches, in Mb/s of
//! information (Kbch bits).
//!
//! `cargo run --release -p radioflow-dvbs2 --example rx_throughput [frame [rounds] | ldpc [rounds] | count qpsk|8psk intra|inter fixed|early]`
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
    llr_target_mean, quantize_llrs, Demapper, Depacketizer, FrameDecoder, IdealSync,
    InterFrameLdpcDecoder, Isa, LdpcCode, LdpcDecoder, StageProfile,
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

/// `frames` frames of `n` synthetic LLRs quantized as the receiver does for `m`'s rate.
fn synthetic(n: usize, m: Modcod, frames: usize) -> Vec<Vec<i8>> {
    (0..frames as u64)
        .map(|seed| {
            let mut q = vec![0i8; n];
            quantize_llrs(&llrs(n, 7 + seed), &mut q, llr_target_mean(m.rate()));
            q
        })
        .collect()
}

/// Decodes `frames` with `dec` one at a time, `rounds` times, and returns the iterations
/// run.
#[inline(never)]
fn run_intra(
    dec: &mut LdpcDecoder,
    code: &LdpcCode,
    frames: &[Vec<i8>],
    max: u32,
    rounds: usize,
) -> u64 {
    let mut iterations = 0u64;
    for _ in 0..rounds {
        for f in frames {
            iterations += u64::from(std::hint::black_box(dec.decode(code, f, max)).iterations);
        }
    }
    iterations
}

/// Decodes `batch` with `dec`, `rounds` times, and returns the iterations run (summed over
/// frames).
#[inline(never)]
fn run_inter(
    dec: &mut InterFrameLdpcDecoder,
    code: &LdpcCode,
    batch: &[&[i8]],
    max: u32,
    rounds: usize,
) -> u64 {
    let mut iterations = 0u64;
    for _ in 0..rounds {
        let st = std::hint::black_box(dec.decode(code, batch, max));
        iterations += st.iter().map(|s| u64::from(s.iterations)).sum::<u64>();
    }
    iterations
}

/// The intra-frame ([`LdpcDecoder`]) and inter-frame ([`InterFrameLdpcDecoder`], one batch
/// of 32 frames) decoders side by side on the same 32 frames: at `iterations` fixed
/// iterations, then with early termination (at most 30), `rounds` alternating timings of
/// AVX2 (the best instruction set) and one of each other instruction set.
fn ldpc(frame: FrameSize, modcod: &str, es_n0_db: Option<f32>, iterations: u32, rounds: usize) {
    let m: Modcod = modcod.parse().unwrap();
    let code = LdpcCode::new(frame, m.rate()).unwrap();
    let fec = *code.fec();
    let lanes = InterFrameLdpcDecoder::LANES;
    let (frames, source): (Vec<Vec<i8>>, String) = match es_n0_db {
        // Transmitted frames through AWGN, demapped and quantized as FrameDecoder does.
        Some(db) => {
            let (syms, _, n0) = self::frames(m, frame, db, lanes);
            let demapper = Demapper::new(m);
            let mut llr = vec![0f32; fec.nldpc];
            let frames = syms
                .iter()
                .map(|s| {
                    demapper.demap_fec(m, s, n0, &mut llr);
                    let mut q = vec![0i8; fec.nldpc];
                    quantize_llrs(&llr, &mut q, llr_target_mean(m.rate()));
                    q
                })
                .collect();
            (frames, format!("channel LLRs at Es/N0 {db} dB"))
        }
        None => (synthetic(fec.nldpc, m, lanes), "synthetic LLRs".to_string()),
    };
    let batch: Vec<&[i8]> = frames.iter().map(|f| &f[..]).collect();
    // Correctness before timing: every frame decodes, the same in both variants (to the
    // all-zero codeword for the synthetic LLRs).
    let mut check = InterFrameLdpcDecoder::new();
    let statuses = check.decode(&code, &batch, 30).to_vec();
    let mut bits = vec![0u8; fec.nldpc];
    let mut single = vec![0u8; fec.nldpc];
    let mut intra = LdpcDecoder::new();
    for (f, (q, st)) in frames.iter().zip(&statuses).enumerate() {
        assert_eq!(intra.decode(&code, q, 30), *st);
        check.hard_bits(&code, f, &mut bits);
        intra.hard_bits(&code, &mut single);
        assert!(st.converged && bits == single, "{st:?}");
        assert!(es_n0_db.is_some() || bits.iter().all(|&b| b == 0));
    }
    let its: Vec<u32> = statuses.iter().map(|s| s.iterations).collect();
    println!(
        "LDPC {modcod} {frame:?}, {source}: iterations per frame with early termination {its:?}, the batch runs {}",
        its.iter().max().unwrap()
    );
    // Enough batches for about 2000 short frames' worth of work per timing.
    let reps = (2000 * 16200 / fec.nldpc / frames.len()).max(1);
    let info = |n: usize| (n * frames.len() * fec.kbch) as f64;
    for (label, early, max) in [
        (format!("{iterations} iterations"), false, iterations),
        ("early termination (max 30)".to_string(), true, 30),
    ] {
        println!("LDPC {modcod} {frame:?}, {source}, {label}:");
        let mut ratios = Vec::new();
        for isa in Isa::available() {
            let mut intra = LdpcDecoder::with_isa(isa);
            let mut inter = InterFrameLdpcDecoder::with_isa(isa);
            intra.set_early_termination(early);
            inter.set_early_termination(early);
            let n = if isa == Isa::detect() { rounds } else { 1 };
            for round in 0..n {
                let mut its = (0, 0);
                let (a, _) = timed(|| its.0 = run_intra(&mut intra, &code, &frames, max, reps));
                let (b, _) = timed(|| its.1 = run_inter(&mut inter, &code, &batch, max, reps));
                assert_eq!(its.0, its.1);
                let per_frame = its.0 as f64 / (reps * frames.len()) as f64;
                println!(
                    "  {isa:?} round {round}: intra {:.1} Mb/s, {:.1} us/frame | inter {:.1} Mb/s, {:.1} us/frame, {:.0} us/batch of {} | inter/intra {:.2} ({per_frame:.2} iterations/frame)",
                    info(reps) / a / 1e6,
                    a / (reps * frames.len()) as f64 * 1e6,
                    info(reps) / b / 1e6,
                    b / (reps * frames.len()) as f64 * 1e6,
                    b / reps as f64 * 1e6,
                    frames.len(),
                    a / b,
                );
                if isa == Isa::detect() {
                    ratios.push(a / b);
                }
            }
        }
        ratios.sort_by(f64::total_cmp);
        println!(
            "  inter/intra throughput ({:?}, {} rounds): median {:.2}, min {:.2}, max {:.2}",
            Isa::detect(),
            ratios.len(),
            ratios[ratios.len() / 2],
            ratios[0],
            ratios[ratios.len() - 1],
        );
    }
}

/// A fixed amount of decoding with the best instruction set, for instruction counts: two
/// batches of 32 frames (a fifth argument sets how many) with one variant, e.g.
/// `valgrind --tool=callgrind --toggle-collect='*run_inter*' rx_throughput count qpsk inter fixed`
/// (`8psk` for 8PSK 3/5 normal, `intra` or `inter`, `fixed` 10 iterations or `early`
/// termination at most 30).
fn count(args: &[String]) {
    let arg = |i: usize| args.get(i).map_or("", String::as_str);
    let (frame, modcod) = if arg(0) == "8psk" {
        (FrameSize::Normal, "8psk-3/5")
    } else {
        (FrameSize::Short, "qpsk-8/9")
    };
    let early = arg(2) == "early";
    let max = if early { 30 } else { 10 };
    let rounds = arg(3).parse().unwrap_or(2);
    let m: Modcod = modcod.parse().unwrap();
    let code = LdpcCode::new(frame, m.rate()).unwrap();
    let fec = *code.fec();
    let frames = synthetic(fec.nldpc, m, InterFrameLdpcDecoder::LANES);
    let batch: Vec<&[i8]> = frames.iter().map(|f| &f[..]).collect();
    let its = if arg(1) == "inter" {
        let mut inter = InterFrameLdpcDecoder::new();
        inter.set_early_termination(early);
        run_inter(&mut inter, &code, &batch, max, rounds)
    } else {
        let mut intra = LdpcDecoder::new();
        intra.set_early_termination(early);
        run_intra(&mut intra, &code, &frames, max, rounds)
    };
    println!(
        "{modcod} {frame:?} {} early termination {early}: {} frames, {its} iterations",
        arg(1),
        rounds * frames.len()
    );
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

/// `FrameDecoder::decode` frame by frame and `decode_batch` on the same 32 frames,
/// alternating, `rounds` times.
fn frame_decoder(modcod: &str, frame: FrameSize, es_n0_db: f32, rounds: usize) {
    let m: Modcod = modcod.parse().unwrap();
    let (syms, sent, n0) = frames(m, frame, es_n0_db, FrameDecoder::BATCH);
    let mut dec = FrameDecoder::new();
    // Correctness before timing: the TS comes back, and the batch decodes as the frames
    // one by one.
    let mut got = Vec::new();
    let mut depack = Depacketizer::new();
    let mut iterations = 0;
    let symbols: Vec<&[Complex32]> = syms.iter().map(|s| &s[..]).collect();
    let n0s = vec![n0; syms.len()];
    let mut batch = vec![dec.decode(symbols[0], m, frame, n0).unwrap(); syms.len()];
    dec.decode_batch(&symbols, &n0s, m, frame, &mut batch)
        .unwrap();
    for (f, s) in syms.iter().enumerate() {
        let st = dec.decode(s, m, frame, n0).unwrap();
        assert!(st.ok() && st == batch[f], "{st:?}");
        assert!(dec.bbframe() == dec.batch_bbframe(f));
        iterations += st.ldpc.iterations;
        depack.push(
            st.header.ok().as_ref(),
            dec.bbframe(),
            true,
            &mut |p: &[u8]| got.extend_from_slice(p),
        );
    }
    assert!(got == sent[..got.len()] && got.len() > sent.len() - 2 * 188);
    let reps = (4000 * 16200 / m.fec(frame).unwrap().nldpc / syms.len() / rounds).max(1);
    let info = (reps * syms.len() * m.fec(frame).unwrap().kbch) as f64;
    let mut ratios = Vec::new();
    for round in 0..rounds {
        let (single, wall) = timed(|| {
            for _ in 0..reps {
                for s in &syms {
                    std::hint::black_box(dec.decode(s, m, frame, n0).unwrap());
                }
            }
        });
        let (batched, batch_wall) = timed(|| {
            for _ in 0..reps {
                dec.decode_batch(&symbols, &n0s, m, frame, &mut batch)
                    .unwrap();
                std::hint::black_box(&batch);
            }
        });
        println!(
            "FrameDecoder {modcod} {frame:?} pilots at Es/N0 {es_n0_db} dB ({:.1} LDPC iterations/frame), round {round}: decode {:.1} Mb/s of information per core, {:.1} us/frame (wall {:.1} Mb/s) | decode_batch {:.1} Mb/s, {:.1} us/frame, {:.0} us/batch of {} (wall {:.1} Mb/s) | batch/single {:.2}",
            f64::from(iterations) / syms.len() as f64,
            info / single / 1e6,
            single / (reps * syms.len()) as f64 * 1e6,
            info / wall / 1e6,
            info / batched / 1e6,
            batched / (reps * syms.len()) as f64 * 1e6,
            batched / reps as f64 * 1e6,
            syms.len(),
            info / batch_wall / 1e6,
            single / batched,
        );
        ratios.push(single / batched);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "  decode_batch/decode throughput ({rounds} rounds): median {:.2}, min {:.2}, max {:.2}",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1]
    );
    let rounds = reps * rounds;
    // The stages, in the form of Table 3 of Cassagne et al. 2023 (wall time between stages).
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
    // `rx_throughput frame [rounds]` or `rx_throughput ldpc [rounds]` runs one half;
    // `rx_throughput count ...` a fixed amount of LDPC decoding (instruction counts).
    let args: Vec<String> = std::env::args().collect();
    let only = args.get(1).map_or("", String::as_str);
    if only == "count" {
        count(&args[2..]);
        return;
    }
    let rounds = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    if only != "ldpc" {
        frame_decoder("qpsk-8/9", FrameSize::Short, 8.0, rounds);
        frame_decoder("8psk-3/5", FrameSize::Normal, 7.0, rounds);
    }
    if only == "frame" {
        return;
    }
    ldpc(FrameSize::Short, "qpsk-8/9", None, 10, rounds);
    ldpc(FrameSize::Normal, "8psk-3/5", None, 10, rounds);
    // FrameDecoder's operating points above: early termination on real frames.
    ldpc(FrameSize::Short, "qpsk-8/9", Some(8.0), 10, rounds);
    ldpc(FrameSize::Normal, "8psk-3/5", Some(7.0), 10, rounds);
}
