//! The layered i8 decoder against the f64 flooding reference, on codewords of the
//! transmitter's encoder.

use rand::{Rng, SeedableRng};
use rand_distr_free::gaussian;

use super::ldpc_kernel::CheckRule;
use super::ldpc_reference::{flooding_min_sum, h_rows, satisfies};
use super::{
    llr_target_mean, quantize_llrs, InterFrameLdpcDecoder, Isa, LdpcCode, LdpcDecoder, LdpcStatus,
};
use crate::ldpc::LdpcEncoder;
use crate::modcod::{CodeRate, FecParams, FrameSize};

/// Gaussian samples without another dependency: Box–Muller.
mod rand_distr_free {
    use rand::Rng;
    pub(crate) fn gaussian(rng: &mut impl Rng) -> f64 {
        let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
        let v: f64 = rng.r#gen();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// EN 302 307-1 Table 13 QPSK Es/N0 (dB) per code rate (normal frames), the BPSK equivalent
/// being 3 dB lower.
fn qpsk_threshold_db(rate: CodeRate) -> f64 {
    [
        -2.35, -1.24, -0.30, 1.00, 2.23, 3.10, 4.03, 4.68, 5.18, 6.20, 6.42,
    ][CodeRate::ALL.iter().position(|&r| r == rate).unwrap()]
}

fn codeword(fec: &FecParams, rng: &mut impl Rng) -> Vec<u8> {
    let mut c = vec![0u8; fec.nldpc];
    for b in &mut c[..fec.kldpc()] {
        *b = rng.gen_range(0..2);
    }
    LdpcEncoder::new(fec).encode(&mut c);
    c
}

/// BPSK over AWGN at `es_n0_db`: exact LLRs 2y/σ².
fn awgn_llrs(c: &[u8], es_n0_db: f64, rng: &mut impl Rng) -> Vec<f64> {
    let sigma2 = 0.5 / 10f64.powf(es_n0_db / 10.0);
    c.iter()
        .map(|&b| {
            let y = 1.0 - 2.0 * f64::from(b) + sigma2.sqrt() * gaussian(rng);
            2.0 * y / sigma2
        })
        .collect()
}

fn quantized(llr: &[f64], rate: CodeRate) -> Vec<i8> {
    quantized_with_scale(llr, rate).0
}

fn quantized_with_scale(llr: &[f64], rate: CodeRate) -> (Vec<i8>, f32) {
    let f: Vec<f32> = llr.iter().map(|&v| v as f32).collect();
    let mut q = vec![0i8; f.len()];
    let scale = quantize_llrs(&f, &mut q, llr_target_mean(rate));
    (q, scale)
}

#[test]
fn layered_decoder_agrees_with_flooding_reference_on_every_code() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(20);
    let mut dec = LdpcDecoder::new();
    for frame in [FrameSize::Short, FrameSize::Normal] {
        for rate in CodeRate::ALL {
            let Ok(code) = LdpcCode::new(frame, rate) else {
                continue;
            };
            let fec = *code.fec();
            let h = h_rows(&fec);
            let c = codeword(&fec, &mut rng);
            // BPSK equivalent of QPSK 1 dB (normal) or 1.5 dB (short) above the threshold.
            let margin = if frame == FrameSize::Short { 1.5 } else { 1.0 };
            let llr = awgn_llrs(&c, qpsk_threshold_db(rate) - 3.01 + margin, &mut rng);
            let errors = llr
                .iter()
                .zip(&c)
                .filter(|&(&l, &b)| (l < 0.0) != (b == 1))
                .count();
            assert!(
                errors > 0,
                "{frame:?} {rate}: the channel must cause errors"
            );
            // The decoder's check rule in the reference's units (the quantizer's scale).
            let (q, scale) = quantized_with_scale(&llr, rate);
            let rule = CheckRule::for_code(&code);
            let alpha = 1.0 - 0.5f64.powi(i32::from(rule.shift));
            let beta = f64::from(rule.offset) / f64::from(scale);
            let (reference, ref_ok) = flooding_min_sum(&h, &llr, 50, alpha, beta);
            let status = dec.decode(&code, &q, 50);
            let mut bits = vec![0u8; fec.nldpc];
            dec.hard_bits(&code, &mut bits);
            assert!(ref_ok, "{frame:?} {rate}: reference did not converge");
            assert!(status.converged, "{frame:?} {rate}: {status:?}");
            assert!(
                satisfies(&h, &bits),
                "{frame:?} {rate}: reported success, H·c ≠ 0"
            );
            assert!(bits == reference, "{frame:?} {rate}: decisions differ");
            assert!(bits == c, "{frame:?} {rate}: not the transmitted codeword");
        }
    }
}

#[test]
fn success_is_reported_only_when_every_check_holds() {
    // Near and below threshold, with hard errors too: whatever happens, a reported success
    // must satisfy H, and a failure must not.
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    let mut dec = LdpcDecoder::new();
    let (mut ok, mut failed) = (0, 0);
    for rate in [CodeRate::R1_2, CodeRate::R8_9, CodeRate::R3_5] {
        let code = LdpcCode::new(FrameSize::Short, rate).unwrap();
        let fec = *code.fec();
        let h = h_rows(&fec);
        for trial in 0..6 {
            let c = codeword(&fec, &mut rng);
            let llr: Vec<f64> = if trial % 2 == 0 {
                awgn_llrs(
                    &c,
                    qpsk_threshold_db(rate) - 3.01 - 0.6 + 0.3 * trial as f64,
                    &mut rng,
                )
            } else {
                // Hard decisions of reliability 1 with a few percent flipped.
                let p = 0.002 + 0.01 * trial as f64;
                c.iter()
                    .map(|&b| {
                        let flip = rng.gen_bool(p);
                        if (b == 1) != flip {
                            -1.0
                        } else {
                            1.0
                        }
                    })
                    .collect()
            };
            let status = dec.decode(&code, &quantized(&llr, rate), 30);
            let mut bits = vec![0u8; fec.nldpc];
            dec.hard_bits(&code, &mut bits);
            assert_eq!(
                status.converged,
                satisfies(&h, &bits),
                "{rate} trial {trial}"
            );
            if status.converged {
                ok += 1;
            } else {
                failed += 1;
                assert_eq!(status.iterations, 30);
            }
        }
    }
    assert!(
        ok > 0 && failed > 0,
        "both outcomes exercised: {ok} ok, {failed} failed"
    );
}

#[test]
fn every_instruction_set_gives_identical_results() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(22);
    let isas = Isa::available();
    assert_eq!(isas.last(), Some(&Isa::Portable));
    for (frame, rate) in [
        (FrameSize::Short, CodeRate::R8_9),
        (FrameSize::Short, CodeRate::R1_4),
        (FrameSize::Normal, CodeRate::R3_5),
    ] {
        let code = LdpcCode::new(frame, rate).unwrap();
        let fec = *code.fec();
        let c = codeword(&fec, &mut rng);
        // Slightly below threshold so that many iterations run and messages saturate.
        let llr = quantized(
            &awgn_llrs(&c, qpsk_threshold_db(rate) - 3.3, &mut rng),
            rate,
        );
        let mut results = Vec::new();
        for &isa in &isas {
            let mut dec = LdpcDecoder::with_isa(isa);
            assert_eq!(dec.isa(), isa);
            let status = dec.decode(&code, &llr, 12);
            let mut bits = vec![0u8; fec.nldpc];
            dec.hard_bits(&code, &mut bits);
            results.push((status, bits));
        }
        for (isa, r) in isas.iter().zip(&results) {
            assert!(
                *r == results[0],
                "{frame:?} {rate}: {isa:?} differs from {:?}",
                isas[0]
            );
        }
    }
}

/// Frames of `code` at the BPSK equivalent of QPSK threshold + `margins_db[f]`, random
/// codewords and Box–Muller noise from a xorshift generator (`rand` is built unoptimized in
/// the test profile and would take most of these tests' time).
fn noisy_frames(code: &LdpcCode, margins_db: &[f64], seed: u64) -> Vec<Vec<i8>> {
    let fec = *code.fec();
    let mut x = seed | 1;
    let mut uniform = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut encoder = LdpcEncoder::new(&fec);
    margins_db
        .iter()
        .map(|&margin| {
            let mut c = vec![0u8; fec.nldpc];
            for b in &mut c[..fec.kldpc()] {
                *b = u8::from(uniform() < 0.5);
            }
            encoder.encode(&mut c);
            let es_n0 = qpsk_threshold_db(fec.rate) - 3.01 + margin;
            let sigma2 = 0.5 / 10f64.powf(es_n0 / 10.0);
            let llr: Vec<f64> = c
                .iter()
                .map(|&b| {
                    let u = uniform().max(f64::MIN_POSITIVE);
                    let g = (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * uniform()).cos();
                    2.0 * (1.0 - 2.0 * f64::from(b) + sigma2.sqrt() * g) / sigma2
                })
                .collect();
            quantized(&llr, fec.rate)
        })
        .collect()
}

/// Decodes `frames` as one batch with `inter` and one by one with `intra`; asserts equal
/// statuses and decisions per frame and returns the statuses.
fn batch_equals_single_frames(
    inter: &mut InterFrameLdpcDecoder,
    intra: &mut LdpcDecoder,
    code: &LdpcCode,
    frames: &[Vec<i8>],
    max_iterations: u32,
) -> Vec<LdpcStatus> {
    let n = code.fec().nldpc;
    let llrs: Vec<&[i8]> = frames.iter().map(|f| &f[..]).collect();
    let statuses = inter.decode(code, &llrs, max_iterations).to_vec();
    assert_eq!(statuses.len(), frames.len());
    let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
    let (mut pa, mut pb) = (vec![0u8; n / 8], vec![0u8; n / 8]);
    let mut all = vec![0u8; frames.len() * n / 8];
    inter.pack_info_all(code, &mut all, n / 8);
    for (f, (llr, status)) in frames.iter().zip(&statuses).enumerate() {
        let single = intra.decode(code, llr, max_iterations);
        let what = format!(
            "{:?} {} frame {f} ({:?})",
            code.fec().frame,
            code.fec().rate,
            inter.isa()
        );
        assert_eq!(*status, single, "{what}");
        inter.hard_bits(code, f, &mut a);
        intra.hard_bits(code, &mut b);
        assert!(a == b, "{what}: decisions differ");
        inter.pack_info(code, f, &mut pa);
        intra.pack_info(code, &mut pb);
        assert!(pa == pb, "{what}: packed decisions differ");
        let k = code.fec().kldpc() / 8;
        assert!(
            all[f * n / 8..][..k] == pb[..k],
            "{what}: pack_info_all differs"
        );
    }
    statuses
}

#[test]
fn inter_frame_decoder_equals_the_intra_frame_decoder_on_every_code() {
    // A partial batch per code, from far above threshold to below it, with and without
    // early termination.
    let mut inter = InterFrameLdpcDecoder::new();
    let mut intra = LdpcDecoder::new();
    for frame in [FrameSize::Short, FrameSize::Normal] {
        for rate in CodeRate::ALL {
            let Ok(code) = LdpcCode::new(frame, rate) else {
                continue;
            };
            let frames = noisy_frames(&code, &[2.0, 0.8, -0.4], code.fec().nldpc as u64);
            for early in [true, false] {
                inter.set_early_termination(early);
                intra.set_early_termination(early);
                batch_equals_single_frames(&mut inter, &mut intra, &code, &frames, 8);
            }
        }
    }
}

#[test]
fn inter_frame_full_batch_with_frames_stopping_at_different_iterations() {
    // A full batch of one code, some frames converging after a few iterations, some never:
    // each frame as if decoded alone, on every instruction set for the two short codes
    // (normalized and offset check rules), on the best for the normal one.
    let isas = Isa::available();
    assert_eq!(isas.last(), Some(&Isa::Portable));
    let mut intra = LdpcDecoder::new();
    for (frame, rate, all_isas) in [
        (FrameSize::Short, CodeRate::R8_9, true),
        (FrameSize::Short, CodeRate::R1_2, true),
        (FrameSize::Normal, CodeRate::R3_5, false),
    ] {
        let code = LdpcCode::new(frame, rate).unwrap();
        let margins: Vec<f64> = (0..InterFrameLdpcDecoder::LANES)
            .map(|f| [3.0, 1.0, 0.2, -1.0][f % 4])
            .collect();
        let frames = noisy_frames(&code, &margins, 24);
        let isas = if all_isas { &isas[..] } else { &isas[..1] };
        for &isa in isas {
            let mut inter = InterFrameLdpcDecoder::with_isa(isa);
            assert_eq!(inter.isa(), isa);
            let statuses = batch_equals_single_frames(&mut inter, &mut intra, &code, &frames, 30);
            let converged = statuses.iter().filter(|s| s.converged).count();
            assert!(
                converged > 0 && converged < statuses.len(),
                "{frame:?} {rate}: {statuses:?}"
            );
            let min = statuses.iter().map(|s| s.iterations).min().unwrap();
            assert!(min < 30, "{frame:?} {rate}: {statuses:?}");
            // One frame alone in the batch.
            batch_equals_single_frames(&mut inter, &mut intra, &code, &frames[2..3], 30);
        }
    }
}
