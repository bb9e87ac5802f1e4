//! Transmitter → AWGN → FrameDecoder → Depacketizer: the TS comes back bit for bit.

use num_complex::Complex32;
use rand::{Rng, SeedableRng};

use super::{Depacketizer, FrameDecoder, IdealSync, RxError, StageProfile};
use crate::{FrameSize, Modcod, Transmitter, TxConfig};

/// EN 302 307-1 Table 13: Es/N0 (dB) for quasi-error-free reception, normal FECFRAMEs, AWGN.
fn table13_es_n0_db(m: Modcod) -> f64 {
    m.qef_esn0_db()
}

fn ts(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut v = vec![0u8; n * 188];
    rng.fill(&mut v[..]);
    for p in v.chunks_mut(188) {
        p[0] = 0x47;
        p[1] &= 0x7F; // TEI clear at the source
    }
    v
}

fn gaussian(rng: &mut impl Rng) -> f32 {
    let u: f32 = rng.gen_range(f32::MIN_POSITIVE..1.0);
    let v: f32 = rng.r#gen();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f32::consts::PI * v).cos()
}

/// Sends one frame of `modcod` per entry of `es_n0_db` at that Es/N0, decodes them; returns
/// the TS received, the TS consumed and the indices of the frames that failed.
fn round_trip(
    modcod: Modcod,
    frame: FrameSize,
    pilots: bool,
    es_n0_db: &[f64],
    dec: &mut FrameDecoder,
    rng: &mut impl Rng,
) -> (Vec<u8>, Vec<u8>, Vec<usize>) {
    let frames = es_n0_db.len();
    let cfg = TxConfig::new(modcod, frame, pilots);
    let mut tx = Transmitter::new(cfg).unwrap();
    let sync = IdealSync::new(cfg.gold);
    let mut sym = vec![Complex32::new(0.0, 0.0); 64_800];
    let input = ts(frames * 60_000 / 188 / 8 + 2, rng.r#gen());
    let mut depack = Depacketizer::new();
    let mut got = Vec::new();
    let mut pos = 0;
    let mut failed = Vec::new();
    for (f, &es_n0) in es_n0_db.iter().enumerate() {
        let n0 = 10f32.powf(-(es_n0 as f32) / 10.0);
        let sigma = (n0 / 2.0).sqrt();
        let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        pos += tx.encode_frame(&input[pos..], &mut out).unwrap().consumed;
        let n = sync.data_symbols(&out, pilots, &mut sym);
        let sym = &mut sym[..n];
        for s in sym.iter_mut() {
            *s += Complex32::new(sigma * gaussian(rng), sigma * gaussian(rng));
        }
        let status = dec.decode(sym, modcod, frame, n0).unwrap();
        if !status.ok() {
            failed.push(f);
        }
        let header = status.header.ok();
        depack.push(
            header.as_ref(),
            dec.bbframe(),
            status.ok(),
            &mut |p: &[u8]| got.extend_from_slice(p),
        );
    }
    depack.flush(&mut |p: &[u8]| got.extend_from_slice(p));
    (got, input[..pos].to_vec(), failed)
}

#[test]
fn every_modcod_and_frame_size_round_trips_above_its_threshold() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2020);
    let mut dec = FrameDecoder::new();
    for frame in [FrameSize::Short, FrameSize::Normal] {
        for (i, modcod) in Modcod::all().enumerate() {
            if modcod.fec(frame).is_err() {
                continue;
            }
            let pilots = i % 2 == 0;
            // Short frames need more than the normal frames' thresholds of Table 13.
            let margin = if frame == FrameSize::Short { 1.5 } else { 1.0 };
            let es_n0 = table13_es_n0_db(modcod) + margin;
            let (got, sent, failed) =
                round_trip(modcod, frame, pilots, &[es_n0; 2], &mut dec, &mut rng);
            assert_eq!(failed, [], "{modcod} {frame:?} at {es_n0:.2} dB");
            // Every whole packet sent comes back, bit for bit.
            assert_eq!(got.len(), sent.len() / 188 * 188, "{modcod} {frame:?}");
            assert!(got == sent[..got.len()], "{modcod} {frame:?}");
        }
    }
}

#[test]
fn packets_of_a_failed_frame_are_marked_and_the_count_kept() {
    // Frame 2 of 5 far below threshold: it fails, header included; the depacketizer carries
    // on through it, marks the packets with bytes from it and leaves the others intact.
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut dec = FrameDecoder::new();
    dec.set_max_iterations(5);
    let m: Modcod = "qpsk-8/9".parse().unwrap();
    let (got, sent, failed) = round_trip(
        m,
        FrameSize::Short,
        true,
        &[8.0, 8.0, -3.0, 8.0, 8.0],
        &mut dec,
        &mut rng,
    );
    assert_eq!(failed, [2]);
    assert_eq!(got.len(), sent.len() / 188 * 188);
    let per_frame = (14232 - 80) / 8;
    let (lo, hi) = (2 * per_frame, 3 * per_frame);
    let mut marked = 0;
    for (k, (g, s)) in got.chunks(188).zip(sent.chunks(188)).enumerate() {
        if k * 188 < hi && k * 188 + 188 > lo {
            assert_eq!(
                g[1] & 0x80,
                0x80,
                "packet {k} has bytes of the failed frame"
            );
            marked += 1;
        } else {
            assert!(g == s, "packet {k}");
        }
    }
    assert_eq!(marked, hi.div_ceil(188) - lo / 188);
}

#[test]
fn bad_input_is_an_error_naming_what_is_wrong() {
    let mut dec = FrameDecoder::new();
    let m: Modcod = "8psk-3/5".parse().unwrap();
    let sym = vec![Complex32::new(1.0, 0.0); 100];
    assert_eq!(
        dec.decode(&sym, m, FrameSize::Short, 0.1),
        Err(RxError::SymbolCount {
            modcod: m,
            frame: FrameSize::Short,
            need: 5400,
            got: 100
        })
    );
    let sym = vec![Complex32::new(1.0, 0.0); 5400];
    for n0 in [f32::NAN, 0.0, -1.0, f32::INFINITY] {
        assert!(matches!(
            dec.decode(&sym, m, FrameSize::Short, n0),
            Err(RxError::NoiseVariance(_))
        ));
    }
    let q: Modcod = "qpsk-9/10".parse().unwrap();
    assert!(matches!(
        dec.decode(&sym, q, FrameSize::Short, 0.1),
        Err(RxError::Modcod(_))
    ));
}

#[test]
fn vcm_frames_each_decode_with_their_own_modcod_and_the_stream_continues() {
    // One decoder, MODCOD and frame size changing every frame (signalled as ACM/VCM); the
    // depacketizer follows the packets across the switches.
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let plan = [
        ("qpsk-1/2", FrameSize::Short),
        ("32apsk-9/10", FrameSize::Normal),
        ("8psk-3/5", FrameSize::Short),
        ("16apsk-2/3", FrameSize::Normal),
        ("qpsk-1/2", FrameSize::Short),
    ];
    let first: Modcod = plan[0].0.parse().unwrap();
    let cfg = TxConfig {
        ccm: false,
        ..TxConfig::new(first, plan[0].1, true)
    };
    let mut tx = Transmitter::new(cfg).unwrap();
    let sync = IdealSync::new(cfg.gold);
    let input = ts(800, 5);
    let mut dec = FrameDecoder::new();
    let mut depack = Depacketizer::new();
    let (mut pos, mut got) = (0, Vec::new());
    let mut sym = vec![Complex32::new(0.0, 0.0); 64_800];
    for (name, frame) in plan {
        let m: Modcod = name.parse().unwrap();
        tx.set_modcod(m, frame).unwrap();
        let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        pos += tx.encode_frame(&input[pos..], &mut out).unwrap().consumed;
        let n = sync.data_symbols(&out, true, &mut sym);
        let n0 = 10f32.powf(-(table13_es_n0_db(m) as f32 + 2.0) / 10.0);
        let sigma = (n0 / 2.0).sqrt();
        for s in &mut sym[..n] {
            *s += Complex32::new(sigma * gaussian(&mut rng), sigma * gaussian(&mut rng));
        }
        let status = dec.decode(&sym[..n], m, frame, n0).unwrap();
        assert!(status.ok(), "{m} {frame:?}: {status:?}");
        let header = status.header.unwrap();
        assert!(!header.is_ccm());
        depack.push(Some(&header), dec.bbframe(), true, &mut |p: &[u8]| {
            got.extend_from_slice(p)
        });
    }
    depack.flush(&mut |p: &[u8]| got.extend_from_slice(p));
    assert_eq!(got.len(), pos / 188 * 188);
    assert!(got == input[..got.len()]);
    assert_eq!(depack.stats().crc_errors, 0);
}

#[test]
fn garbage_symbols_fail_cleanly() {
    // NaN, infinite, huge and all-zero symbols: no panic, the frame reported failed.
    let mut dec = FrameDecoder::new();
    let m: Modcod = "16apsk-3/4".parse().unwrap();
    let n = FrameDecoder::symbols_per_frame(m, FrameSize::Short).unwrap();
    for v in [f32::NAN, f32::INFINITY, 1e30, 0.0] {
        let mut sym = vec![Complex32::new(v, -v); n];
        sym[7] = Complex32::new(0.3, 0.1);
        let status = dec.decode(&sym, m, FrameSize::Short, 0.1).unwrap();
        assert!(!status.ok(), "{v}: {status:?}");
        assert_eq!(dec.bbframe().len(), 11712 / 8);
    }
}

#[test]
fn profiled_decoding_gives_the_same_status_and_counts_frames() {
    let m: Modcod = "qpsk-3/4".parse().unwrap();
    let cfg = TxConfig::new(m, FrameSize::Short, false);
    let mut tx = Transmitter::new(cfg).unwrap();
    let mut pl = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
    tx.encode_frame(&ts(10, 1), &mut pl).unwrap();
    let mut sym = vec![Complex32::new(0.0, 0.0); pl.len()];
    let n = IdealSync::new(0).data_symbols(&pl, false, &mut sym);
    let mut dec = FrameDecoder::new();
    let plain = dec.decode(&sym[..n], m, FrameSize::Short, 0.05).unwrap();
    let mut profile = StageProfile::default();
    for _ in 0..2 {
        let timed = dec
            .decode_profiled(&sym[..n], m, FrameSize::Short, 0.05, &mut profile)
            .unwrap();
        assert_eq!(timed, plain);
    }
    assert_eq!((profile.frames, profile.info_bits), (2, 2 * 11712));
    assert_eq!(profile.rows().count(), 5);
    let share: f64 = profile.rows().map(|r| r.3).sum();
    assert!(share == 0.0 || (share - 100.0).abs() < 1e-6);
}

#[test]
fn decodes_within_a_db_of_table_13() {
    // Guards the decoder's quantization and saturation choices: at 0.7 dB above Table 13
    // (rx_fer: 200 of 200 frames decode there), low, middle and high rates decode; with i8
    // posteriors the low rates failed here, with a coarser channel scale the middle ones.
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    let mut dec = FrameDecoder::new();
    for name in [
        "qpsk-1/4",
        "qpsk-1/2",
        "8psk-3/5",
        "16apsk-3/4",
        "32apsk-9/10",
    ] {
        let m: Modcod = name.parse().unwrap();
        let es_n0 = table13_es_n0_db(m) + 0.7;
        let (got, sent, failed) =
            round_trip(m, FrameSize::Normal, false, &[es_n0; 2], &mut dec, &mut rng);
        assert_eq!(failed, [], "{m} at {es_n0:.2} dB");
        assert!(got == sent[..got.len()], "{m}");
    }
}

#[test]
fn a_batch_decodes_as_each_frame_alone() {
    // Frames near, above and far below threshold (one fails), through decode_batch and
    // through decode one by one: same statuses, same BBFRAMEs; a partial batch of each
    // MODCOD, then a bad frame makes the whole batch an error.
    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    let mut dec = FrameDecoder::new();
    for (name, offsets) in [
        ("qpsk-8/9", [1.5, 0.6, 3.0, -3.0, 1.0, 2.0]),
        ("8psk-3/5", [1.5, 1.0, 2.0, -3.0, 3.0, 1.2]),
    ] {
        let modcod: Modcod = name.parse().unwrap();
        let frame = FrameSize::Short;
        let cfg = TxConfig::new(modcod, frame, true);
        let mut tx = Transmitter::new(cfg).unwrap();
        let sync = IdealSync::new(cfg.gold);
        let input = ts(offsets.len() * 60, rng.r#gen());
        let mut pos = 0;
        let mut frames = Vec::new();
        let mut n0s = Vec::new();
        for offset in offsets {
            let n0 = 10f32.powf(-(table13_es_n0_db(modcod) + 1.5 + offset) as f32 / 10.0);
            let sigma = (n0 / 2.0).sqrt();
            let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
            pos += tx.encode_frame(&input[pos..], &mut out).unwrap().consumed;
            let mut sym = vec![Complex32::new(0.0, 0.0); out.len()];
            let n = sync.data_symbols(&out, true, &mut sym);
            sym.truncate(n);
            for s in &mut sym {
                *s += Complex32::new(sigma * gaussian(&mut rng), sigma * gaussian(&mut rng));
            }
            frames.push(sym);
            n0s.push(n0);
        }
        let symbols: Vec<&[Complex32]> = frames.iter().map(|f| &f[..]).collect();
        let mut status = vec![dec.decode(symbols[0], modcod, frame, n0s[0]).unwrap(); 6];
        dec.decode_batch(&symbols, &n0s, modcod, frame, &mut status)
            .unwrap();
        let ok = status.iter().filter(|s| s.ok()).count();
        assert!(ok > 0 && ok < status.len(), "{name}: {status:?}");
        for (f, (s, &n0)) in symbols.iter().zip(&n0s).enumerate() {
            let alone = dec.decode(s, modcod, frame, n0).unwrap();
            assert_eq!(status[f], alone, "{name} frame {f}");
            assert!(dec.batch_bbframe(f) == dec.bbframe(), "{name} frame {f}");
        }
        let mut short = symbols.clone();
        short[4] = &symbols[4][1..];
        assert!(matches!(
            dec.decode_batch(&short, &n0s, modcod, frame, &mut status),
            Err(RxError::SymbolCount { .. })
        ));
    }
}

#[test]
fn erased_symbols_carry_no_information() {
    // The end of a recording cut inside the last pulses: the last 60 data symbols at 0.55 of
    // their amplitude (APSK rings told apart by amplitude: confidently wrong bits) or zero
    // (for APSK no erasure either). Decoded as erasures they cost nothing at 2 dB above the
    // threshold: the BBFRAME of the whole frame.
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let mut dec = FrameDecoder::new();
    let sync = IdealSync::new(0);
    for (name, frame) in [
        ("qpsk-1/2", FrameSize::Short),
        ("8psk-3/5", FrameSize::Short),
        ("16apsk-8/9", FrameSize::Short),
        ("32apsk-9/10", FrameSize::Normal),
    ] {
        let m: Modcod = name.parse().unwrap();
        let mut tx = Transmitter::new(TxConfig::new(m, frame, false)).unwrap();
        let mut out = vec![Complex32::new(0.0, 0.0); tx.frame_len()];
        tx.encode_frame(&ts(40, 3), &mut out).unwrap();
        let mut sym = vec![Complex32::new(0.0, 0.0); out.len()];
        let n = sync.data_symbols(&out, false, &mut sym);
        let sym = &mut sym[..n];
        let n0 = 10f32.powf(-(table13_es_n0_db(m) as f32 + 2.0) / 10.0);
        let sigma = (n0 / 2.0).sqrt();
        for s in sym.iter_mut() {
            *s += Complex32::new(sigma * gaussian(&mut rng), sigma * gaussian(&mut rng));
        }
        let whole = dec.decode(sym, m, frame, n0).unwrap();
        assert!(whole.ok(), "{name}");
        let want = dec.bbframe().to_vec();
        for scale in [0.55, 0.0] {
            let mut cut = sym.to_vec();
            for s in &mut cut[n - 60..] {
                *s *= scale;
            }
            let erased = dec.decode_erased(&cut, 60, m, frame, n0).unwrap();
            assert!(erased.ok(), "{name}, scale {scale}: {erased:?}");
            assert!(dec.bbframe() == want, "{name}, scale {scale}");
        }
    }
    let sym = vec![Complex32::new(1.0, 0.0); 8100];
    let m: Modcod = "qpsk-1/2".parse().unwrap();
    assert_eq!(
        dec.decode_erased(&sym, 8101, m, FrameSize::Short, 0.1),
        Err(RxError::Erased {
            erased: 8101,
            symbols: 8100
        })
    );
}
