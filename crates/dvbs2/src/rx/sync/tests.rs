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
                if rng.r#gen() { a } else { -a },
                if rng.r#gen() { a } else { -a },
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
        let mut fe = FrontEnd::new(0.2, 0.005, 2.0);
        let mut out = Vec::new();
        for b in samples.chunks(super::sizes::BLOCK) {
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

#[test]
fn timing_recovery_at_other_rates_through_the_resampler() {
    let tx = qpsk(20_000, 4);
    for (sps, timing, ppm) in [
        (1.25, 0.2, 50.0),
        (1.7, 0.37, 100.0),
        (2.5, 0.81, -150.0),
        (3.37, 0.1, 40.0),
        (16.0, 0.6, 80.0),
    ] {
        let imp = Impairments {
            timing,
            clock_ppm: ppm,
            gain: 0.3,
            sps,
            ..Impairments::default()
        };
        let samples = channel(&tx, &imp);
        let mut fe = FrontEnd::new(0.2, 0.005, sps);
        let mut out = Vec::new();
        for b in samples.chunks(fe.input_block()) {
            fe.process_block(b, &mut out);
        }
        // The resampler starts at its first full window: the symbols lead by up to 100.
        let skip = out.len() - 10_000;
        let (evm, _) = evm_aligned(&out[skip..], &tx, skip as isize - 40..skip as isize + 200);
        let db = 20.0 * evm.log10();
        assert!(db < -28.0, "{sps} samples/symbol: EVM {db:.1} dB");
        let est = fe.samples_per_symbol() / (1.0 + ppm * 1e-6);
        assert!((est / sps - 1.0).abs() < 1e-3, "{sps}: estimated {est}");
    }
}

use super::decide::Decider;
use super::derotate::descramble;
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
    dummy: bool,
}

/// A frame of a schedule: MODCOD, frame size, pilots; `None` for a dummy PLFRAME.
type Slot = Option<(Modcod, FrameSize, bool)>;

/// Symbols of `n` PLFRAMEs following `schedule` (cycled), from random TS packets.
fn transmit(schedule: &[Slot], n: usize, gold: u32, seed: u64) -> (Vec<Complex32>, Vec<SentFrame>) {
    let (m0, f0, p0) = schedule.iter().flatten().next().copied().unwrap();
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
        let Some((m, f, p)) = schedule[k % schedule.len()] else {
            let mut out = vec![Complex32::new(0.0, 0.0); Transmitter::DUMMY_LEN];
            tx.dummy_frame(&mut out).unwrap();
            symbols.extend_from_slice(&out);
            sent.push(SentFrame {
                len: out.len(),
                modcod: m0,
                frame: f0,
                pilots: false,
                data: Vec::new(),
                dummy: true,
            });
            continue;
        };
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
            dummy: false,
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
    /// Per received frame: carrier locked, MER (dB), hard-decision errors, Es/N0 estimate.
    per_frame: Vec<(bool, f64, usize, f32)>,
}

fn run(schedule: &[Slot], n: usize, gold: u32, imp: &Impairments) -> Outcome {
    run_with(schedule, n, gold, imp, true)
}

/// `strict`: no frame lost and no lock lost; otherwise only every delivered frame must be one
/// that was sent, at its start, with its MODCOD.
fn run_with(schedule: &[Slot], n: usize, gold: u32, imp: &Impairments, strict: bool) -> Outcome {
    let (symbols, sent) = transmit(schedule, n, gold, imp.seed);
    let samples = channel(&symbols, imp);
    let cfg = SyncConfig {
        gold,
        samples_per_symbol: imp.sps,
        ..SyncConfig::default()
    };
    let (got, stats) = receive(&samples, cfg);
    assert!(!got.is_empty(), "no frame delivered: {stats:?}");
    let decide = |m: Modcod, d: &[Complex32]| -> Vec<usize> {
        let dec = Decider::new(m);
        d.iter().map(|&z| dec.nearest_label(z)).collect()
    };
    // Transmitted frame of each received one: by start position, the matched filter's delay
    // (12 symbols) apart, ±8 for timing slips; a resampler, starting at its first full
    // window, takes up to 100 symbols off that delay.
    let starts: Vec<u64> = sent
        .iter()
        .scan(0u64, |acc, s| {
            let at = *acc;
            *acc += s.len as u64;
            Some(at)
        })
        .collect();
    let lead: i64 = if cfg.resamples() { 128 } else { -4 };
    let which = |r: &Received| -> usize {
        let at = starts.partition_point(|&s| s as i64 <= r.symbol_index as i64 + lead);
        assert!(
            at > 0 && r.symbol_index as i64 - starts[at - 1] as i64 <= 20,
            "frame at symbol {} is no transmitted frame's start",
            r.symbol_index
        );
        at - 1
    };
    if std::env::var("SYNC_TEST_VERBOSE").is_ok() {
        eprintln!("{stats:?}");
        for r in &got {
            eprintln!(
                "  at {} {} {:?} {} {:.2} locked {}",
                r.symbol_index, r.modcod, r.frame, r.pilots, r.esn0_db, r.carrier_locked
            );
        }
    }
    let first = which(&got[0]);
    for pair in got.windows(2).filter(|_| strict) {
        let (a, b) = (which(&pair[0]), which(&pair[1]));
        // Only dummy frames may be skipped.
        assert!(
            b > a && sent[a + 1..b].iter().all(|s| s.dummy),
            "frame lost after {a}"
        );
    }
    // Dummy frames between the first and the last frame delivered are skipped (and up to
    // two after the last, before the signal ends).
    let last = which(got.last().unwrap());
    let dummies = (first..last).filter(|&i| sent[i].dummy).count() as u64;
    assert!(
        !strict || (dummies..=dummies + 2).contains(&stats.dummy_frames),
        "{} dummy frames skipped, {dummies} between the first and last frames",
        stats.dummy_frames
    );
    let mut per_frame = Vec::new();
    for (k, r) in got.iter().enumerate() {
        let s = &sent[which(r)];
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
    assert!(!strict || stats.lock_losses == 0, "{stats:?}");
    Outcome {
        first,
        frames: got.len(),
        per_frame,
    }
}

fn slot(m: &str, f: FrameSize, pilots: bool) -> Slot {
    Some((m.parse().unwrap(), f, pilots))
}

#[test]
fn every_constellation_frame_size_and_pilots_recovered_exactly_at_high_snr() {
    // Es/N0 where the hard decisions are error-free; offsets of the carrier (cycles/symbol),
    // timing and sample clock.
    let cases = [
        ("qpsk-2/3", 18.0),
        ("8psk-3/5", 22.0),
        ("16apsk-3/4", 26.0),
        ("32apsk-4/5", 30.0),
    ];
    let mut seed = 10;
    for (m, esn0) in cases {
        for frame in [FrameSize::Short, FrameSize::Normal] {
            for pilots in [false, true] {
                seed += 1;
                let imp = Impairments {
                    esn0_db: Some(esn0),
                    cfo: if seed % 2 == 0 { 0.021 } else { -0.017 },
                    phase: 0.1 * seed as f64,
                    phase_noise: 1e-3,
                    timing: 0.05 * (seed % 17) as f64,
                    clock_ppm: 40.0,
                    gain: 0.2,
                    seed,
                    ..Impairments::default()
                };
                // Enough frames for the warm-up, a search window and a confirmation.
                let len = Transmitter::new(TxConfig::new(m.parse().unwrap(), frame, pilots))
                    .unwrap()
                    .frame_len();
                let n = (70_000 / len).max(5);
                let o = run(&[slot(m, frame, pilots)], n, 0, &imp);
                let what = format!("{m} {frame:?} pilots {pilots}");
                if std::env::var("SYNC_TEST_VERBOSE").is_ok() {
                    eprintln!("{what}: {:?}", o.per_frame);
                }
                // Acquisition looks at a longest-frame window (4 short frames) and confirms with 3 more.
                assert!(o.first <= 1, "{what}: first frame {}", o.first);
                assert_eq!(o.first + o.frames, n - 1, "{what}: frames delivered");
                // The carrier loop converges within 2 frames and the symbols then equal the
                // transmitter's.
                for (k, &(locked, mer, wrong, _)) in o.per_frame.iter().enumerate() {
                    if k >= 2 {
                        assert!(locked, "{what}: frame {k} carrier not locked");
                    }
                    // The first frame may start while the timing loop converges.
                    if locked && k > 0 {
                        assert_eq!(wrong, 0, "{what}: frame {k} wrong decisions");
                        // The front end's own floor (interpolator, timing jitter) is near 27 dB.
                        assert!(
                            mer > (esn0 - 1.5).min(23.0),
                            "{what}: frame {k} MER {mer:.1}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn frames_at_other_rates_recovered_exactly() {
    // From just over 1 + roll-off (where the carrier offset tolerated shrinks to a quarter of
    // the spare band: 2.5 % at 1.3) to 8 samples per symbol.
    for (k, sps) in [1.3, 1.7, 2.5, 3.37, 8.0].into_iter().enumerate() {
        let imp = Impairments {
            esn0_db: Some(22.0),
            cfo: if k % 2 == 0 { 0.021 } else { -0.017 },
            phase: 0.4,
            phase_noise: 1e-3,
            timing: 0.3,
            clock_ppm: 40.0,
            gain: 0.2,
            sps,
            seed: 40 + k as u64,
            ..Impairments::default()
        };
        let n = 14;
        let o = run(&[slot("8psk-3/5", FrameSize::Short, true)], n, 0, &imp);
        assert!(o.first <= 1, "{sps}: first frame {}", o.first);
        assert_eq!(o.first + o.frames, n - 1, "{sps}: frames delivered");
        for (f, &(locked, mer, wrong, _)) in o.per_frame.iter().enumerate().skip(1) {
            if f >= 2 {
                assert!(locked, "{sps}: frame {f} carrier not locked");
            }
            if locked {
                assert_eq!(wrong, 0, "{sps}: frame {f} wrong decisions");
                assert!(mer > 20.5, "{sps}: frame {f} MER {mer:.1}");
            }
        }
    }
}

#[test]
fn mer_and_esn0_estimate_close_to_the_channel() {
    let cases = [
        (slot("qpsk-3/4", FrameSize::Short, true), 8.0, 0.05),
        (slot("qpsk-1/2", FrameSize::Short, false), 6.0, -0.05),
        (slot("8psk-3/5", FrameSize::Normal, false), 11.0, -0.03),
        (slot("16apsk-3/4", FrameSize::Short, true), 13.0, 0.01),
    ];
    for (i, (s, esn0, cfo)) in cases.into_iter().enumerate() {
        let imp = Impairments {
            esn0_db: Some(esn0),
            cfo,
            timing: 0.6,
            clock_ppm: -20.0,
            phase_noise: 5e-4,
            seed: 40 + i as u64,
            ..Impairments::default()
        };
        let n = if s.unwrap().1 == FrameSize::Short {
            16
        } else {
            8
        };
        let o = run(&[s], n, 0, &imp);
        if std::env::var("SYNC_TEST_VERBOSE").is_ok() {
            eprintln!("case {i}: {:?}", o.per_frame);
        }
        let locked: Vec<_> = o.per_frame.iter().filter(|p| p.0).collect();
        // The carrier loop averages more frames per stage at lower SNR: 3 + 6 at 8 dB.
        assert!(locked.len() >= 3, "case {i}: carrier locked late");
        assert!(o.per_frame.last().unwrap().0, "case {i}: carrier lock lost");
        // Pilots: the phase from the known blocks (and, for QPSK and 8PSK, the data); without:
        // from the header, the next SOF and the data's M-th power alone.
        let loss = if s.unwrap().2 { 0.8 } else { 1.2 };
        for &&(_, mer, _, est) in &locked {
            assert!(
                mer > esn0 - loss,
                "case {i}: MER {mer:.2} dB at Es/N0 {esn0}"
            );
            assert!(
                (f64::from(est) - esn0).abs() < 1.0,
                "case {i}: estimate {est:.2} dB"
            );
        }
    }
}

#[test]
fn eight_psk_short_frames_with_pilots_tracked_half_a_db_above_their_threshold() {
    // 8PSK 3/5 short frames at 6.0 dB (Table 13 + 0.5 dB): one frame's M-th power does not
    // stand out of the noise, so acquisition adds the following frames' coherently; then
    // the phase follows the known blocks and the data with no 2π/8 slip. (Before: every
    // frame derotated at the header's coarse frequency, MER about −3.6 dB.)
    let imp = Impairments {
        esn0_db: Some(6.0),
        cfo: 0.002,
        timing: 0.3,
        seed: 81,
        ..Impairments::default()
    };
    let o = run(&[slot("8psk-3/5", FrameSize::Short, true)], 12, 0, &imp);
    assert!(o.frames >= 10, "{} frames", o.frames);
    for (k, &(locked, mer, _, _)) in o.per_frame.iter().enumerate().skip(4) {
        assert!(locked, "frame {k}: carrier not locked");
        // A slip over a sixth of the frame alone takes the MER below 5 dB.
        assert!(mer > 5.6, "frame {k}: MER {mer:.2} dB at Es/N0 6.0 dB");
    }
}

#[test]
fn frame_sync_at_the_lowest_threshold_with_5_percent_carrier_offset() {
    // QPSK 1/4's quasi-error-free Es/N0 (EN 302 307-1 Table 13): −2.35 dB. Every frame
    // delivered must be a sent frame, at its start, with its MODCOD; a few may be skipped
    // (a header missed twice in a row) and the timing loop may slip a symbol.
    let cases = [
        (slot("qpsk-1/4", FrameSize::Short, true), -0.05, 24),
        (slot("qpsk-1/4", FrameSize::Normal, true), 0.05, 7),
        (slot("qpsk-1/4", FrameSize::Short, false), 0.05, 24),
    ];
    for (i, (s, cfo, n)) in cases.into_iter().enumerate() {
        let imp = Impairments {
            esn0_db: Some(-2.35),
            cfo,
            timing: 0.4,
            clock_ppm: 25.0,
            seed: 60 + i as u64,
            ..Impairments::default()
        };
        let o = run_with(&[s], n, 0, &imp, false);
        assert!(o.frames >= n / 2, "case {i}: {} frames of {n}", o.frames);
    }
}

#[test]
fn vcm_with_dummy_frames_and_another_gold_code() {
    let schedule = [
        slot("qpsk-1/2", FrameSize::Short, true),
        None,
        slot("8psk-2/3", FrameSize::Normal, false),
        slot("16apsk-3/4", FrameSize::Short, true),
        None,
        slot("32apsk-4/5", FrameSize::Normal, true),
        slot("qpsk-9/10", FrameSize::Normal, false),
    ];
    let imp = Impairments {
        esn0_db: Some(30.0),
        cfo: 0.012,
        timing: 0.25,
        clock_ppm: 10.0,
        seed: 77,
        ..Impairments::default()
    };
    let o = run(&schedule, 14, 131_071, &imp);
    assert!(o.frames >= 7, "{} frames", o.frames);
    for (k, &(locked, _, wrong, _)) in o.per_frame.iter().enumerate().skip(2) {
        assert!(locked, "frame {k}");
        assert_eq!(wrong, 0, "frame {k}");
    }
}

#[test]
fn noise_alone_gives_no_frame() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let noise: Vec<Complex32> = (0..300_000)
        .map(|_| {
            Complex32::new(
                super::channel::gauss_pub(&mut rng),
                super::channel::gauss_pub(&mut rng),
            )
        })
        .collect();
    let (got, stats) = receive(&noise, SyncConfig::default());
    assert!(
        got.is_empty(),
        "{stats:?} {:?}",
        got.iter()
            .map(|r| (r.symbol_index, r.modcod.to_string(), r.esn0_db))
            .collect::<Vec<_>>()
    );
    assert_eq!(stats.acquisitions, 0);
}

#[test]
fn settings_out_of_range_are_rejected() {
    use super::SyncError;
    let bad = |cfg: SyncConfig| Synchronizer::new(cfg).unwrap_err();
    let d = SyncConfig::default();
    assert_eq!(
        bad(SyncConfig { roll_off: 0.0, ..d }),
        SyncError::RollOff(0.0)
    );
    assert_eq!(
        bad(SyncConfig { gold: 262_142, ..d }),
        SyncError::Gold(262_142)
    );
    assert_eq!(
        bad(SyncConfig {
            timing_bandwidth: 0.5,
            ..d
        }),
        SyncError::TimingBandwidth(0.5)
    );
    for sps in [0.0, -1.0, 1.0, 1.2, 1.2499, 64.01, f64::NAN, f64::INFINITY] {
        let e = bad(SyncConfig {
            samples_per_symbol: sps,
            ..d
        });
        assert!(
            matches!(e, SyncError::SamplesPerSymbol { .. }),
            "{sps}: {e}"
        );
        assert!(
            e.to_string().contains("out of range [1.25, 64]"),
            "{sps}: {e}"
        );
    }
    // The lowest rate at each roll-off, the highest, and 2 itself.
    for (roll_off, sps) in [
        (0.2, 1.25),
        (0.25, 1.3),
        (0.35, 1.4),
        (0.35, 64.0),
        (0.35, 2.0),
    ] {
        let cfg = SyncConfig {
            roll_off,
            samples_per_symbol: sps,
            ..d
        };
        assert!(Synchronizer::new(cfg).is_ok(), "{roll_off} {sps}");
        assert_eq!(cfg.resamples(), sps != 2.0);
    }
    let e = bad(SyncConfig {
        roll_off: 0.35,
        samples_per_symbol: 1.3,
        ..d
    });
    assert_eq!(
        e.to_string(),
        "1.3 samples per symbol out of range [1.40, 64] (the lowest: the signal's band at \
         roll-off 0.35, 1.35 symbol rates, and 0.05 for the resampler's filter)"
    );
}

#[test]
fn non_finite_and_huge_input_neither_panics_nor_hangs() {
    let mut input = vec![Complex32::new(0.3, -0.2); 50_000];
    for (i, s) in input.iter_mut().enumerate().step_by(97) {
        *s = match i % 3 {
            0 => Complex32::new(f32::NAN, 0.0),
            1 => Complex32::new(f32::INFINITY, -f32::INFINITY),
            _ => Complex32::new(1e30, 1e30),
        };
    }
    let mut rx = Synchronizer::new(SyncConfig::default()).unwrap();
    let mut frames = 0;
    rx.process(&input, |_| frames += 1);
    assert_eq!(frames, 0);
    // The input still advances the timing loop: about one symbol per 2 samples.
    assert!(rx.stats().symbols > 20_000, "{:?}", rx.stats());
}

#[test]
fn split_in_two_halves_the_synchroniser_delivers_the_same_frames() {
    let schedule = [
        slot("qpsk-3/5", FrameSize::Short, true),
        None,
        slot("8psk-3/5", FrameSize::Short, false),
    ];
    let imp = Impairments {
        esn0_db: Some(12.0),
        cfo: 0.01,
        timing: 0.3,
        clock_ppm: 20.0,
        seed: 5,
        ..Impairments::default()
    };
    let (symbols, _) = transmit(&schedule, 9, 0, imp.seed);
    let samples = channel(&symbols, &imp);
    let cfg = SyncConfig::default();
    let (whole, stats) = receive(&samples, cfg);
    assert!(whole.len() >= 3, "{} frames", whole.len());

    let mut front = super::SymbolRecovery::new(cfg).unwrap();
    let mut frames = Synchronizer::new(cfg).unwrap();
    let mut syms = Vec::new();
    let mut split = Vec::new();
    // `receive`'s chunks: the block AGC's blocks are the same (its gain is per block).
    for chunk in samples.chunks(10_007) {
        syms.clear();
        front.process(chunk, &mut syms);
        frames.process_symbols(&syms, |f| {
            split.push((f.modcod, f.frame, f.pilots, f.data.to_vec(), f.symbol_index))
        });
    }
    assert_eq!(split.len(), whole.len());
    for (a, b) in whole.iter().zip(&split) {
        assert_eq!(
            (a.modcod, a.frame, a.pilots, a.symbol_index),
            (b.0, b.1, b.2, b.4)
        );
        assert_eq!(a.data, b.3);
    }
    assert_eq!(frames.stats().frames, stats.frames);
    assert!((front.samples_per_symbol() - stats.samples_per_symbol).abs() < 1e-9);

    // And the front end itself in two: matched filter, then timing loop.
    let mut mf = super::MatchedFilter::new(cfg).unwrap();
    let mut timing = super::TimingRecovery::new(cfg).unwrap();
    let mut whole_front = super::SymbolRecovery::new(cfg).unwrap();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut filtered = vec![Complex32::new(0.0, 0.0); 4096];
    for chunk in samples.chunks(4096) {
        whole_front.process(chunk, &mut a);
        mf.process(chunk, &mut filtered[..chunk.len()]);
        timing.process(&filtered[..chunk.len()], &mut b);
    }
    assert!(a.len() > samples.len() / 2 - 10);
    assert_eq!(a, b);
    assert_eq!(
        timing.samples_per_symbol(),
        whole_front.samples_per_symbol()
    );
}

/// What [`finish`](Synchronizer::finish) adds: the last frame of the input delivered without
/// a next header, its symbols the input lacks erased; and the last frame before silence.
#[test]
fn the_last_frame_is_delivered_when_the_input_ends() {
    // VCM, so the last frame's PLS cannot be taken from the frame before: QPSK, 8PSK without
    // pilots, 16APSK with, 32APSK without; the last of 14, 15 or 16 frames each of these
    // but QPSK (after the first round: APSK's first frames may be lost to the loops'
    // convergence, see the known limits).
    let schedule = [
        slot("qpsk-3/5", FrameSize::Short, true),
        slot("8psk-3/5", FrameSize::Short, false),
        slot("16apsk-3/4", FrameSize::Short, true),
        slot("32apsk-4/5", FrameSize::Short, false),
    ];
    let mut dec = crate::rx::decode::FrameDecoder::new();
    for n in [14, 15, 16] {
        let imp = Impairments {
            esn0_db: Some(20.0),
            cfo: 0.01,
            timing: 0.3,
            clock_ppm: 20.0,
            seed: n as u64,
            ..Impairments::default()
        };
        let (symbols, sent) = transmit(&schedule, n, 0, imp.seed);
        // Pulses evaluated up to the last symbol: the end of the last pulses is missing, as
        // from a transmitter whose filter does not write its tail.
        let samples = channel(&symbols, &imp);
        // The transmitter gone quiet, the receiver's noise going on.
        let mut silence = symbols.clone();
        silence.resize(symbols.len() + 10_000, Complex32::new(0.0, 0.0));
        let quiet = channel(&silence, &imp);
        let cut = &samples[..samples.len() - sent[n - 1].len];
        for (what, input, frames) in [
            ("the recording", &samples[..], n),
            ("noise after it", &quiet[..], n),
            ("cut inside the last frame", cut, n - 1),
        ] {
            let label = format!("{n} frames, {what}");
            let cfg = SyncConfig::default();
            let mut whole = Vec::new();
            let mut rx = Synchronizer::new(cfg).unwrap();
            let keep = |f: &super::SyncFrame<'_>| {
                (f.modcod, f.frame, f.data.to_vec(), f.erased, f.esn0_db)
            };
            for chunk in input.chunks(10_007) {
                rx.process(chunk, |f| whole.push(keep(f)));
            }
            rx.finish(|f| whole.push(keep(f)));
            // The same in two halves.
            let mut front = super::SymbolRecovery::new(cfg).unwrap();
            let mut sync = Synchronizer::new(cfg).unwrap();
            let (mut split, mut syms) = (Vec::new(), Vec::new());
            for chunk in input.chunks(10_007) {
                syms.clear();
                front.process(chunk, &mut syms);
                sync.process_symbols(&syms, |f| split.push(keep(f)));
            }
            syms.clear();
            front.finish(&mut syms);
            sync.finish_symbols(&syms, |f| split.push(keep(f)));
            assert!(whole == split, "{label}: the halves deliver other frames");

            // Every frame from lock on, to the last one the input holds whole or nearly.
            let first = frames - whole.len();
            assert!(first <= 2, "{label}: {} frames delivered", whole.len());
            for (k, (modcod, frame, data, erased, esn0_db)) in whole.iter().enumerate() {
                assert_eq!(
                    *modcod,
                    sent[first + k].modcod,
                    "{label}, frame {}",
                    first + k
                );
                let known = data.len() - erased;
                assert!(data[known..].iter().all(|z| z.norm() == 0.0), "{label}");
                if k + 1 < whole.len() {
                    assert_eq!(*erased, 0, "{label}, frame {}", first + k);
                    continue;
                }
                // The recording's last pulses are cut: the symbols whose matched filter
                // reaches past its end (12 symbols) and the timing loop's lead are erased.
                if what == "the recording" {
                    assert!(
                        (1..=20).contains(erased),
                        "{label}: {erased} symbols erased"
                    );
                } else {
                    assert_eq!(*erased, 0, "{label}");
                }
                let n0 = 10f32.powf(-esn0_db / 10.0);
                let status = dec
                    .decode_erased(data, *erased, *modcod, *frame, n0)
                    .unwrap();
                assert!(status.ok(), "{label}: the last frame failed, {status:?}");
            }
            assert_eq!(rx.stats().frames, whole.len() as u64, "{label}");
        }
    }
}
