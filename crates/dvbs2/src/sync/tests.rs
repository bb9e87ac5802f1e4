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

use super::carrier::descramble;
use super::decide::Decider;
use super::{scrambling_sequence, SyncConfig, Synchronizer};
use crate::plframe::{PILOT_BLOCK, SLOT};
use crate::{FrameSize, Modcod, Transmitter, TxConfig};

/// One transmitted PLFRAME: its settings and data symbols (descrambled, no pilots).
struct SentFrame {
    modcod: Modcod,
    frame: FrameSize,
    pilots: bool,
    data: Vec<Complex32>,
    /// PLFRAME length in symbols.
    len: usize,
}

/// Symbols of `n` PLFRAMEs per entry of `schedule` (cycled), from random TS packets.
fn transmit(
    schedule: &[(Modcod, FrameSize, bool)],
    n: usize,
    gold: u32,
    seed: u64,
) -> (Vec<Complex32>, Vec<SentFrame>) {
    let (m0, f0, p0) = schedule[0];
    let mut tx = Transmitter::new(TxConfig {
        gold,
        ccm: schedule.len() == 1,
        ..TxConfig::new(m0, f0, p0)
    })
    .unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let scr = scrambling_sequence(gold);
    let mut symbols = Vec::new();
    let mut sent = Vec::new();
    for k in 0..n {
        let (m, f, p) = schedule[k % schedule.len()];
        tx.set_modcod(m, f).unwrap();
        tx.set_pilots(p);
        let mut ts = vec![0u8; tx.max_input().div_ceil(188) * 188];
        rng.fill(&mut ts[..]);
        // Whole packets only, so the next frame starts on a packet boundary.
        let take = tx.max_input() / 188 * 188;
        for pkt in ts.chunks_mut(188) {
            pkt[0] = 0x47;
        }
        let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        tx.encode_frame(&ts[..take], &mut out).unwrap();
        let mut data = Vec::new();
        for (i, s) in out[SLOT..].iter().enumerate() {
            let in_period = i % (16 * SLOT + PILOT_BLOCK);
            if !p || in_period < 16 * SLOT {
                data.push(descramble(*s, scr[i]));
            }
        }
        symbols.extend_from_slice(&out);
        sent.push(SentFrame {
            len: out.len(),
            modcod: m,
            frame: f,
            pilots: p,
            data,
        });
    }
    (symbols, sent)
}

/// What the synchroniser delivered for one frame.
struct Received {
    modcod: Modcod,
    frame: FrameSize,
    pilots: bool,
    data: Vec<Complex32>,
    esn0_db: f32,
    carrier_locked: bool,
    symbol_index: u64,
}

fn receive(samples: &[Complex32], cfg: SyncConfig) -> (Vec<Received>, super::SyncStats) {
    let mut rx = Synchronizer::new(cfg).unwrap();
    let mut got = Vec::new();
    // Uneven chunks: the output must not depend on how the input is split.
    for chunk in samples.chunks(10_007) {
        rx.process(chunk, |f| {
            got.push(Received {
                modcod: f.modcod,
                frame: f.frame,
                pilots: f.pilots,
                data: f.data.to_vec(),
                esn0_db: f.esn0_db,
                carrier_locked: f.carrier_locked,
                symbol_index: f.symbol_index,
            })
        });
    }
    (got, rx.stats())
}

/// Per-frame results of a transmission through `imp`.
struct Outcome {
    /// Index of the transmitted frame the first received one is.
    first: usize,
    frames: usize,
    /// Per received frame: carrier locked, MER (dB), hard-decision errors.
    per_frame: Vec<(bool, f64, usize, f32)>,
}

fn run(schedule: &[(Modcod, FrameSize, bool)], n: usize, imp: &Impairments) -> Outcome {
    let (symbols, sent) = transmit(schedule, n, 0, imp.seed);
    let t0 = std::time::Instant::now();
    let samples = channel(&symbols, imp);
    eprintln!("channel {:?}", t0.elapsed());
    let (got, stats) = receive(&samples, SyncConfig::default());
    eprintln!("rx {:?} {stats:?}", t0.elapsed());
    assert!(!got.is_empty(), "no frame delivered: {stats:?}");
    let decide = |m: Modcod, d: &[Complex32]| -> Vec<usize> {
        let dec = Decider::new(m);
        d.iter().map(|&z| dec.nearest_label(z)).collect()
    };
    // Transmitted frame of each received one: by start position, the matched filter's delay
    // (12 symbols) apart.
    let starts: Vec<u64> = sent
        .iter()
        .scan(0u64, |acc, s| {
            let at = *acc;
            *acc += s.len as u64;
            Some(at)
        })
        .collect();
    let which = |r: &Received| -> usize {
        let at = starts.partition_point(|&s| s + 6 <= r.symbol_index);
        assert!(
            at > 0 && r.symbol_index - starts[at - 1] <= 18,
            "frame at symbol {} is no transmitted frame's start",
            r.symbol_index
        );
        at - 1
    };
    let first = which(&got[0]);
    for pair in got.windows(2) {
        assert_eq!(which(&pair[1]), which(&pair[0]) + 1, "a frame was lost or repeated");
    }
    let mut per_frame = Vec::new();
    let seq: Vec<String> = got
        .iter()
        .map(|r| format!("{}{:?}{}", r.modcod, r.frame, r.pilots))
        .collect();
    for (k, r) in got.iter().enumerate() {
        if (r.modcod, r.frame, r.pilots) != (sent[first + k].modcod, sent[first + k].frame, sent[first + k].pilots) {
            eprintln!("received {seq:?}");
        }
        let s = &sent[first + k];
        assert_eq!(
            (r.modcod, r.frame, r.pilots),
            (s.modcod, s.frame, s.pilots),
            "frame {k}"
        );
        assert_eq!(r.data.len(), s.data.len(), "frame {k}");
        let err: f64 = r
            .data
            .iter()
            .zip(&s.data)
            .map(|(a, b)| f64::from((a - b).norm_sqr()))
            .sum();
        let mer = -10.0 * (err / r.data.len() as f64).log10();
        let a = decide(s.modcod, &s.data);
        let b = decide(s.modcod, &r.data);
        let wrong = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        per_frame.push((r.carrier_locked, mer, wrong, r.esn0_db));
    }
    Outcome {
        first,
        frames: got.len(),
        per_frame,
    }
}

#[test]
fn debug_one() {
    let cases = [
        ("qpsk-1/4", FrameSize::Short, false, -2.35, 0.05),
        ("qpsk-1/4", FrameSize::Short, true, -2.35, -0.05),
        ("qpsk-1/4", FrameSize::Normal, true, -2.35, 0.05),
        ("8psk-3/5", FrameSize::Short, false, 14.0, 0.02),
        ("qpsk-3/4", FrameSize::Short, false, 12.0, 0.013),
        ("qpsk-3/4", FrameSize::Short, true, 12.0, 0.05),
        ("qpsk-3/4", FrameSize::Short, false, 12.0, -0.05),
        ("8psk-3/5", FrameSize::Short, false, 14.0, 0.02),
        ("8psk-3/5", FrameSize::Normal, true, 14.0, 0.02),
        ("16apsk-2/3", FrameSize::Short, true, 16.0, 0.02),
        ("16apsk-2/3", FrameSize::Short, false, 16.0, 0.02),
        ("32apsk-3/4", FrameSize::Normal, true, 30.0, 0.02),
        ("32apsk-3/4", FrameSize::Normal, false, 30.0, 0.02),
    ];
    let only: Option<usize> = std::env::var("CASE").ok().map(|v| v.parse().unwrap());
    for (ci, (m, f, p, db, cfo)) in cases.into_iter().enumerate() {
        if only.is_some_and(|o| o != ci) {
            continue;
        }
        let t0 = std::time::Instant::now();
        let m: Modcod = m.parse().unwrap();
        let imp = Impairments {
            esn0_db: Some(db),
            cfo,
            timing: 0.3,
            clock_ppm: 30.0,
            phase: 1.0,
            phase_noise: 0.001,
            seed: 5,
            ..Impairments::default()
        };
        let n = if f == FrameSize::Short { 30 } else { 8 };
        let o = run(&[(m, f, p)], n, &imp);
        eprintln!("{m} {f:?} {p} {db} {cfo}: first {} frames {} in {:?}", o.first, o.frames, t0.elapsed());
        for p in &o.per_frame {
            eprintln!("   {p:?}");
        }
    }
}

#[test]
fn debug_metric_stats() {
    use super::header::{HeaderRef, TERMS};
    let m: Modcod = "qpsk-1/4".parse().unwrap();
    let (symbols, _) = transmit(&[(m, FrameSize::Short, true)], 40, 0, 3);
    let h = HeaderRef::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let sigma = (1.0 / 10f64.powf(-0.235) / 2.0).sqrt() as f32;
    let y: Vec<Complex32> = symbols
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let n = Complex32::new(
                sigma * super::channel::gauss_pub(&mut rng),
                sigma * super::channel::gauss_pub(&mut rng),
            );
            (s + n) * Complex32::from_polar(1.0, (0.05 * std::f64::consts::TAU * i as f64) as f32)
        })
        .collect();
    let p: f32 = y.iter().map(|s| s.norm_sqr()).sum::<f32>() / y.len() as f32;
    let norm = 1.0 / (TERMS as f32 * p);
    let (mut t, mut n) = (Vec::new(), Vec::new());
    for pos in 0..y.len() - 90 {
        let m = h.metric(&y[pos..]).0 * norm;
        if pos % 8370 == 0 {
            t.push(m);
        } else {
            n.push(m);
        }
    }
    let stat = |v: &[f32]| {
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / v.len() as f32).sqrt();
        let mut s = v.to_vec();
        s.sort_by(|a, b| a.partial_cmp(b).unwrap());
        (mean, sd, s[s.len() / 100], s[s.len() * 99 / 100], s[s.len() - 1])
    };
    eprintln!("true {:?}\nnoise {:?} p={p}", stat(&t), stat(&n));
    let frac = |th: f32| n.iter().filter(|&&x| x >= th).count() as f32 / n.len() as f32;
    eprintln!("noise >=0.27: {} >=0.3: {} >=0.33: {}", frac(0.27), frac(0.3), frac(0.33));
}
