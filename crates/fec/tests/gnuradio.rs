//! Every code through the FEC blocks against GNU Radio 3.10's on the same input: random bits
//! encoded, mapped to ±1, Gaussian noise added, decoded; code bits and decoded bits equal.
//! The stream blocks (`fec.extended_encoder`, `fec.extended_decoder`, punctured and not) run
//! under each scheduler; the PDU blocks (`fec.async_encoder`, `fec.async_decoder`, packed and
//! not, PDUs of the frame size, smaller and larger) in a harness; the tagged stream blocks
//! (`fec.extended_tagged_encoder`, `fec.extended_tagged_decoder`: packets shorter and longer
//! than the frame, one cut off by the end, other tags moved) under each scheduler. The noise
//! is strong enough that decoders make errors (and the Viterbi decoder's metrics saturate and
//! renormalize), so equal output means the same decisions, not merely both correct. The
//! codes: dummy, repetition, convolutional, CCSDS, LDPC of an alist (belief propagation), of
//! GNU Radio's H and G matrix objects (bit flipping), polar (SC, systematic SC, SC-list of 4
//! and 8 paths); GNU Radio's polar channel construction (frozen positions) for five codes;
//! `fec.ber_bf` streaming (the last value) and in test mode (every value). Run by
//! `gnuradio/run_fec.py` in one GNU Radio process; SKIPPED where GNU Radio is not installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_fec::{
    AsyncDecoder, AsyncEncoder, DecoderDef, EncoderDef, ExtendedDecoder, ExtendedEncoder,
    GenericByteDecoder, GenericDecoder, GenericEncoder, SoftInput, TaggedDecoder, TaggedEncoder,
};
use radioflow_runtime::testing::Harness;
use radioflow_runtime::{
    FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

/// GNU Radio's LDPC matrices (installed with it).
const LDPC_ENC: &str =
    "fec.ldpc_encoder_make('/usr/share/gnuradio/fec/ldpc/n_0100_k_0042_gap_02.alist')";
const LDPC_DEC: &str =
    "fec.ldpc_decoder.make('/usr/share/gnuradio/fec/ldpc/n_0100_k_0042_gap_02.alist', 0.5, 50)";

/// GNU Radio's LDPC matrix objects: an H matrix in approximate lower-triangular form (gap 2)
/// and a generator matrix G = [I P], each with its encoder and bit-flip decoder.
const H_MATRIX: &str =
    "fec.ldpc_H_matrix('/usr/share/gnuradio/fec/ldpc/n_0100_k_0042_gap_02.alist', 2)";
const G_MATRIX: &str =
    "fec.ldpc_G_matrix('/usr/share/gnuradio/fec/ldpc/n_0100_k_0058_gen_matrix.alist')";
/// A larger H matrix (n 300, gap 3): more flipping rounds.
const H_MATRIX_300: &str =
    "fec.ldpc_H_matrix('/usr/share/gnuradio/fec/ldpc/n_0300_k_0152_gap_03.alist', 3)";

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn h_encoder(matrix: &str) -> &'static str {
    leak(format!("fec.ldpc_par_mtrx_encoder_make_H({matrix})"))
}

fn g_encoder() -> &'static str {
    leak(format!("fec.ldpc_gen_mtrx_encoder_make({G_MATRIX})"))
}

fn bit_flip(matrix: &str, max_iter: usize) -> &'static str {
    leak(format!(
        "fec.ldpc_bit_flip_decoder.make({matrix}, {max_iter})"
    ))
}

/// The frozen positions GNU Radio's BEC construction gives (N, K at 0 dB), as a list.
fn frozen(n: usize, k: usize) -> String {
    let p = radioflow_fec::bec_frozen_positions(n, k, 0.0).unwrap();
    format!("{p:?}")
}

/// Polar encoder and decoder pairs: SC with frozen values not all 0, systematic, and lists of
/// 4 and 8 paths (past 8 GNU Radio sorts its slots otherwise than stably).
fn polar_defs() -> Vec<(&'static str, &'static str, usize, f32)> {
    let (f64_, f128) = (frozen(64, 32), frozen(128, 80));
    let values: Vec<u8> = (0..32).map(|i| (i * 5 % 3 == 0) as u8).collect();
    let values = format!("{values:?}");
    vec![
        (
            leak(format!(
                "fec.polar_encoder.make(64, 32, {f64_}, {values}, False)"
            )),
            leak(format!(
                "fec.polar_decoder_sc.make(64, 32, {f64_}, {values})"
            )),
            32,
            0.8,
        ),
        (
            leak(format!(
                "fec.polar_encoder_systematic.make(128, 80, {f128})"
            )),
            leak(format!(
                "fec.polar_decoder_sc_systematic.make(128, 80, {f128})"
            )),
            80,
            0.7,
        ),
        (
            leak(format!(
                "fec.polar_encoder.make(128, 80, {f128}, [], False)"
            )),
            leak(format!(
                "fec.polar_decoder_sc_list.make(8, 128, 80, {f128}, [])"
            )),
            80,
            0.75,
        ),
        (
            leak(format!(
                "fec.polar_encoder.make(64, 32, {f64_}, {values}, False)"
            )),
            leak(format!(
                "fec.polar_decoder_sc_list.make(4, 64, 32, {f64_}, {values})"
            )),
            32,
            0.85,
        ),
    ]
}

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.fec"])
        .output()
        .is_ok_and(|o| o.status.success())
}

struct Case {
    encoder: &'static str,
    decoder: &'static str,
    puncpat: &'static str,
    /// Frames of input.
    bits: Vec<u8>,
    /// Noise per code bit (more than needed).
    noise: Vec<f32>,
}

fn cases() -> Vec<Case> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let defs: [(&str, &str, usize, f32); 16] = [
        (LDPC_ENC, LDPC_DEC, 42, 0.8),
        (h_encoder(H_MATRIX), bit_flip(H_MATRIX, 100), 42, 0.45),
        (g_encoder(), bit_flip(G_MATRIX, 100), 58, 0.4),
        (
            h_encoder(H_MATRIX_300),
            bit_flip(H_MATRIX_300, 7),
            152,
            0.45,
        ),
        (
            "fec.dummy_encoder_make(64)",
            "fec.dummy_decoder.make(64)",
            64,
            0.8,
        ),
        (
            "fec.repetition_encoder_make(64, 3)",
            "fec.repetition_decoder.make(64, 3, 0.5)",
            64,
            1.0,
        ),
        (
            "fec.repetition_encoder_make(50, 4)",
            "fec.repetition_decoder.make(50, 4, 0.25)",
            50,
            1.0,
        ),
        (
            "fec.cc_encoder_make(128, 7, 2, [109, 79], 0, fec.CC_STREAMING, False)",
            "fec.cc_decoder.make(128, 7, 2, [109, 79], 0, -1, fec.CC_STREAMING, False)",
            128,
            0.9,
        ),
        (
            "fec.cc_encoder_make(128, 7, 2, [109, 79], 0, fec.CC_TERMINATED, False)",
            "fec.cc_decoder.make(128, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)",
            128,
            0.9,
        ),
        (
            "fec.cc_encoder_make(96, 7, 2, [109, -79], 5, fec.CC_TERMINATED, True)",
            "fec.cc_decoder.make(96, 7, 2, [109, -79], 5, 5, fec.CC_TERMINATED, True)",
            96,
            0.8,
        ),
        (
            "fec.cc_encoder_make(120, 7, 2, [79, 109], 0, fec.CC_TAILBITING, False)",
            "fec.cc_decoder.make(120, 7, 2, [79, 109], 0, -1, fec.CC_TAILBITING, False)",
            120,
            0.9,
        ),
        (
            "fec.cc_encoder_make(100, 7, 2, [109, 79], 0, fec.CC_TRUNCATED, False)",
            "fec.cc_decoder.make(100, 7, 2, [109, 79], 0, -1, fec.CC_TRUNCATED, False)",
            100,
            0.8,
        ),
        (
            "fec.ccsds_encoder_make(128, 0, fec.CC_STREAMING)",
            "fec.cc_decoder.make(128, 7, 2, [109, 79], 0, -1, fec.CC_STREAMING, False)",
            128,
            0.7,
        ),
        // Punctured (the pattern after `@`): groups running across frames and part groups.
        (
            "fec.cc_encoder_make(128, 7, 2, [109, 79], 0, fec.CC_STREAMING, False)@1101",
            "fec.cc_decoder.make(128, 7, 2, [109, 79], 0, -1, fec.CC_STREAMING, False)",
            128,
            0.6,
        ),
        (
            "fec.cc_encoder_make(96, 7, 2, [109, 79], 0, fec.CC_TERMINATED, False)@110",
            "fec.cc_decoder.make(96, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)",
            96,
            0.6,
        ),
        (
            "fec.ccsds_encoder_make(128, 0, fec.CC_STREAMING)@11011",
            "fec.cc_decoder.make(128, 7, 2, [109, 79], 0, -1, fec.CC_STREAMING, False)",
            128,
            0.6,
        ),
    ];
    defs.iter()
        .copied()
        .chain(polar_defs())
        .map(|(encoder, decoder, frame, sigma)| {
            // Five frames and a part: the part makes no output.
            let n = 5 * frame + frame / 2;
            let bits = (0..n).map(|_| rng.gen_range(0..2u8)).collect();
            let noise = (0..8 * n + 64)
                .map(|_| {
                    // Box-Muller, in f64 then rounded: only the f32 values matter.
                    let (u, v): (f64, f64) = (rng.gen_range(1e-12..1.0), rng.r#gen());
                    (sigma as f64 * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos())
                        as f32
                })
                .collect();
            let (encoder, puncpat) = encoder.split_once('@').unwrap_or((encoder, "11"));
            Case {
                encoder,
                decoder,
                puncpat,
                bits,
                noise,
            }
        })
        .collect()
}

/// The stream cases' lines for `run_fec.py`.
fn stream_input(cases: &[Case]) -> String {
    let mut input = String::new();
    for c in cases {
        let join = |v: Vec<String>| v.join(",");
        input += &format!(
            "stream|{}|{}|{}|{}|{}\n",
            c.encoder,
            c.decoder,
            c.puncpat,
            join(c.bits.iter().map(u8::to_string).collect()),
            join(c.noise.iter().map(|x| format!("{x:?}")).collect()),
        );
    }
    input
}

/// `run_fec.py`'s output lines for `input`, each without its `enc:`-style prefix.
fn gnu_radio(input: &str) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/run_fec.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "run_fec.py failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        // GNU Radio's logger writes to stdout too ("info: tried to set frame to ...").
        .filter_map(|l| {
            [
                "enc:", "dec:", "meta:", "enctags:", "dectags:", "cfg:", "ber:",
            ]
            .iter()
            .find_map(|p| l.strip_prefix(p))
            .map(str::to_owned)
        })
        .collect()
}

fn bits(line: &str) -> Vec<u8> {
    line.bytes().map(|b| b - b'0').collect()
}

fn values(line: &str) -> Vec<u8> {
    line.split(',')
        .filter(|s| !s.is_empty())
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("not a byte list: {line}"))
        })
        .collect()
}

/// A PDU case: the code objects, the flags, the PDUs' data.
struct PduCase {
    encoder: &'static str,
    decoder: &'static str,
    packed: bool,
    rev_unpack: bool,
    rev_pack: bool,
    pdus: Vec<Vec<u8>>,
    noise: Vec<f32>,
}

fn pdu_cases() -> Vec<PduCase> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(36);
    let mut data = |n: usize, max: u8| (0..n).map(|_| rng.gen_range(0..=max)).collect::<Vec<u8>>();
    let cc = |mode: &str| {
        (
            format!("fec.cc_encoder_make(200, 7, 2, [109, 79], 0, fec.CC_{mode}, False)"),
            format!("fec.cc_decoder.make(200, 7, 2, [109, 79], 0, -1, fec.CC_{mode}, False)"),
        )
    };
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let (te, td) = cc("TERMINATED");
    let (be, bd) = cc("TAILBITING");
    let (ue, ud) = cc("TRUNCATED");
    let bitpdus = |d: &mut dyn FnMut(usize, u8) -> Vec<u8>, sizes: &[usize]| {
        sizes.iter().map(|n| d(*n, 1)).collect::<Vec<_>>()
    };
    let mut cases = vec![
        (
            leak(te.clone()),
            leak(td.clone()),
            false,
            bitpdus(&mut data, &[200, 120]),
        ),
        (leak(be), leak(bd), false, bitpdus(&mut data, &[200, 96])),
        (leak(ue), leak(ud), false, bitpdus(&mut data, &[200, 64])),
        (
            "fec.repetition_encoder_make(64, 3)",
            "fec.repetition_decoder.make(64, 3, 0.5)",
            false,
            bitpdus(&mut data, &[64, 40, 128]),
        ),
        (
            "fec.dummy_encoder_make(64)",
            "fec.dummy_decoder.make(64)",
            false,
            bitpdus(&mut data, &[64, 24]),
        ),
        (LDPC_ENC, LDPC_DEC, false, bitpdus(&mut data, &[42, 84])),
        (
            h_encoder(H_MATRIX),
            bit_flip(H_MATRIX, 100),
            false,
            bitpdus(&mut data, &[42, 84]),
        ),
    ]
    .into_iter()
    .map(|(e, d, packed, pdus)| (e, d, packed, true, true, pdus))
    .collect::<Vec<_>>();
    for (rev_unpack, rev_pack) in [(true, true), (false, false)] {
        let pdus = vec![data(25, 255), data(12, 255)];
        cases.push((
            leak(te.clone()),
            leak(td.clone()),
            true,
            rev_unpack,
            rev_pack,
            pdus,
        ));
    }
    cases.push((
        "fec.ccsds_encoder_make(200, 0, fec.CC_TERMINATED)",
        leak(td),
        true,
        true,
        true,
        vec![data(25, 255)],
    ));
    // Polar codes (one block of 32 data bits each PDU): bits, and bytes as
    // fecapi_polar_encoders.grc sends them.
    let f64_ = frozen(64, 32);
    let (pe, pd) = (
        leak(format!("fec.polar_encoder.make(64, 32, {f64_}, [], False)")),
        leak(format!(
            "fec.polar_decoder_sc_list.make(2, 64, 32, {f64_}, [])"
        )),
    );
    let pdus = bitpdus(&mut data, &[32, 32]);
    cases.push((pe, pd, false, true, true, pdus));
    cases.push((pe, pd, true, false, false, vec![data(4, 255)]));
    cases
        .into_iter()
        .map(
            |(encoder, decoder, packed, rev_unpack, rev_pack, pdus)| PduCase {
                encoder,
                decoder,
                packed,
                rev_unpack,
                rev_pack,
                pdus,
                // Within ±1.5: GNU Radio's async decoder wraps bytes beyond ±2.66 (see AsyncDecoder).
                noise: (0..1024).map(|_| rng.gen_range(-1.5f32..1.5)).collect(),
            },
        )
        .collect()
}

fn pdu_input(cases: &[PduCase]) -> String {
    let flag = |b: bool| if b { "1" } else { "0" };
    let join = |v: Vec<String>| v.join(",");
    cases
        .iter()
        .map(|c| {
            format!(
                "async|{}|{}|{}|{}|{}|{}|{}\n",
                c.encoder,
                c.decoder,
                flag(c.packed),
                flag(c.rev_unpack),
                flag(c.rev_pack),
                c.pdus
                    .iter()
                    .map(|p| join(p.iter().map(u8::to_string).collect()))
                    .collect::<Vec<_>>()
                    .join(";"),
                join(c.noise.iter().map(|x| format!("{x:?}")).collect()),
            )
        })
        .collect()
}

/// The data of the one PDU `h` posted on `out`, and its metadata.
fn posted<B: radioflow_runtime::Block>(h: &mut Harness<B>) -> (Pmt, Pmt) {
    let mut out = h.take_messages("out");
    assert_eq!(out.len(), 1);
    let pdu = out.remove(0);
    let (meta, data) = pdu.as_pair().unwrap();
    (meta.clone(), data.clone())
}

fn check_pdu_cases(cases: &[PduCase], theirs: &[String]) {
    let mut lines = theirs.iter();
    for c in cases {
        let mut enc = Harness::new(AsyncEncoder::new(
            c.encoder.parse().unwrap(),
            c.packed,
            c.rev_unpack,
            c.rev_pack,
            1500,
        ));
        let mut dec = Harness::new(
            AsyncDecoder::new(c.decoder.parse().unwrap(), c.packed, c.rev_pack, 1500).unwrap(),
        );
        for (i, pdu) in c.pdus.iter().enumerate() {
            let at = format!("{} PDU {i} (packed {})", c.encoder, c.packed);
            let (want_code, want_bits, want_meta) = (
                lines.next().unwrap(),
                lines.next().unwrap(),
                lines.next().unwrap(),
            );
            enc.post(
                "in",
                Pmt::pair(Pmt::dict_from::<&str, i64>([]), Pmt::blob(pdu.clone())),
            )
            .unwrap();
            let (_, code) = posted(&mut enc);
            let code = code.as_blob().unwrap().to_vec();
            assert_eq!(code, values(want_code), "code of {at}");
            let bits: Vec<u8> = if c.packed {
                code.iter()
                    .flat_map(|b| (0..8).map(move |j| (b >> j) & 1))
                    .collect()
            } else {
                code
            };
            let soft: Vec<f32> = bits
                .iter()
                .zip(&c.noise)
                .map(|(b, n)| (f32::from(*b) * 2.0 - 1.0) + n)
                .collect();
            dec.post(
                "in",
                Pmt::pair(Pmt::dict_from::<&str, i64>([]), Pmt::F32Vector(soft.into())),
            )
            .unwrap();
            let (meta, decoded) = posted(&mut dec);
            assert_eq!(
                decoded.as_blob().unwrap(),
                values(want_bits),
                "decoded data of {at}"
            );
            let iterations = meta.dict_get("iterations");
            let iterations = iterations.map_or("#f".to_owned(), |v| v.to_string());
            // Python writes an absent entry (nil) as `()`.
            let want = if want_meta.as_str() == "()" {
                "#f"
            } else {
                want_meta.as_str()
            };
            assert_eq!(iterations, want, "iterations of {at}");
        }
    }
    assert!(lines.next().is_none());
}

fn run<I: radioflow_runtime::Item, O: radioflow_runtime::Item>(
    block: impl radioflow_runtime::Block,
    input: Vec<I>,
    scheduler: &dyn Scheduler,
) -> Vec<O> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input));
    let b = fg.add(block);
    let sink = fg.add(VectorSink::<O>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    fg.run_with(scheduler).unwrap();
    fg.block::<VectorSink<O>>(sink).unwrap().data().to_vec()
}

/// A tagged stream case: packets of bits (the last may be cut off by the end of the stream)
/// with tags `x` on some bits.
struct TaggedCase {
    encoder: &'static str,
    decoder: &'static str,
    bits: Vec<u8>,
    lengths: Vec<usize>,
    marks: Vec<u64>,
    noise: Vec<f32>,
}

fn tagged_cases() -> Vec<TaggedCase> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(37);
    let cc = |mode: &str, frame: usize| -> (&'static str, &'static str) {
        (
            Box::leak(
                format!("fec.cc_encoder_make({frame}, 7, 2, [109, 79], 0, fec.CC_{mode}, False)")
                    .into_boxed_str(),
            ),
            Box::leak(
                format!(
                    "fec.cc_decoder.make({frame}, 7, 2, [109, 79], 0, -1, fec.CC_{mode}, False)"
                )
                .into_boxed_str(),
            ),
        )
    };
    // (encoder, decoder, packet lengths, bits in all, tagged bits). A terminated code's
    // packets are longer than the data: a tag past the first packet lands before its
    // packet's code (GNU Radio keeps it or not by thread timing), so none there.
    type Def = (&'static str, &'static str, Vec<usize>, usize, Vec<u64>);
    let defs: Vec<Def> = vec![
        (
            "fec.dummy_encoder_make(64)",
            "fec.dummy_decoder.make(64)",
            vec![64, 30, 64, 20],
            168,
            vec![1, 70, 100],
        ),
        (
            "fec.repetition_encoder_make(64, 3)",
            "fec.repetition_decoder.make(64, 3, 0.5)",
            vec![40, 64, 80, 16],
            200,
            vec![0, 5, 41, 150],
        ),
        {
            let (e, d) = cc("TERMINATED", 128);
            (e, d, vec![128, 60, 100], 288, vec![3, 50])
        },
        {
            let (e, d) = cc("TAILBITING", 120);
            (e, d, vec![120, 80], 200, vec![7, 130])
        },
        {
            let (e, d) = cc("TRUNCATED", 100);
            (e, d, vec![100, 50], 150, vec![10, 120])
        },
        (LDPC_ENC, LDPC_DEC, vec![42, 84, 42], 168, vec![1, 30]),
        {
            let f = frozen(64, 32);
            (
                leak(format!("fec.polar_encoder.make(64, 32, {f}, [], False)")),
                leak(format!("fec.polar_decoder_sc.make(64, 32, {f}, [])")),
                vec![32, 32],
                64,
                // Tags move by GNU Radio's rate() of the encoder, 1/2: one in the second
                // packet would land before its code (kept or not by thread timing).
                vec![1, 11],
            )
        },
        (
            h_encoder(H_MATRIX),
            bit_flip(H_MATRIX, 50),
            vec![84, 42],
            126,
            vec![2, 40],
        ),
        // GNU Radio packs the bits for CCSDS but keeps the lengths in bits: a packet takes
        // eight, the inner length tags move with the code, the ninth packet is cut off.
        (
            "fec.ccsds_encoder_make(128, 0, fec.CC_STREAMING)",
            "fec.cc_decoder.make(128, 7, 2, [109, 79], 0, -1, fec.CC_TRUNCATED, False)",
            vec![16; 9],
            144,
            vec![1, 17, 100],
        ),
    ];
    defs.into_iter()
        .map(|(encoder, decoder, lengths, n, marks)| TaggedCase {
            encoder,
            decoder,
            bits: (0..n).map(|_| rng.gen_range(0..2u8)).collect(),
            lengths,
            marks,
            noise: (0..1024).map(|_| rng.gen_range(-1.2f32..1.2)).collect(),
        })
        .collect()
}

/// A case of the generic blocks (fec.encoder, fec.decoder): the code objects, bits (not
/// a whole number of frames), tagged items, noise.
struct GenericCase {
    encoder: &'static str,
    decoder: &'static str,
    bits: Vec<u8>,
    marks: Vec<u64>,
    noise: Vec<f32>,
}

fn generic_cases() -> Vec<GenericCase> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(41);
    let f = frozen(32, 16);
    let polar_enc = leak(format!("fec.polar_encoder.make(32, 16, {f}, [], False)"));
    let polar_dec = leak(format!("fec.polar_decoder_sc.make(32, 16, {f}, [])"));
    // (encoder, decoder, bits, tagged items). A streaming Viterbi decoder is left out: GNU
    // Radio's block asks for more than its look-ahead, so how many frames it decodes at the
    // end of a stream depends on how its scheduler cut it.
    let defs: Vec<(&'static str, &'static str, usize, Vec<u64>)> = vec![
        (
            "fec.dummy_encoder_make(16)",
            "fec.dummy_decoder.make(16)",
            85,
            vec![0, 7, 33, 70],
        ),
        (
            "fec.repetition_encoder_make(16, 3)",
            "fec.repetition_decoder.make(16, 3, 0.5)",
            70,
            vec![1, 15, 16, 40],
        ),
        (
            "fec.cc_encoder_make(24, 7, 2, [109, 79], 0, fec.CC_TERMINATED, False)",
            "fec.cc_decoder.make(24, 7, 2, [109, 79], 0, -1, fec.CC_TERMINATED, False)",
            80,
            vec![2, 23, 50],
        ),
        (polar_enc, polar_dec, 40, vec![3, 20]),
    ];
    defs.into_iter()
        .map(|(encoder, decoder, n, marks)| GenericCase {
            encoder,
            decoder,
            bits: (0..n).map(|_| rng.gen_range(0..2u8)).collect(),
            marks,
            noise: (0..1024).map(|_| rng.gen_range(-1.2f32..1.2)).collect(),
        })
        .collect()
}

/// Whether `decoder` reads bytes (GNU Radio's "uchar" input conversion).
fn reads_bytes(decoder: &str) -> bool {
    let d: DecoderDef = decoder.parse().unwrap();
    matches!(d.build().unwrap().soft_input(), SoftInput::Uchar { .. })
}

fn generic_input(cases: &[GenericCase]) -> String {
    let join = |v: Vec<String>| v.join(",");
    cases
        .iter()
        .map(|c| {
            format!(
                "generic|{}|{}|{}|{}|{}|{}\n",
                c.encoder,
                c.decoder,
                u8::from(reads_bytes(c.decoder)),
                join(c.bits.iter().map(u8::to_string).collect()),
                join(c.marks.iter().map(u64::to_string).collect()),
                join(c.noise.iter().map(|x| format!("{x:?}")).collect()),
            )
        })
        .collect()
}

/// Tags as `run_fec.py` prints a generic case's: a decoder's frame marks without the number
/// GNU Radio gives its decoder objects, `#t` as `T`. GNU Radio's polar decoders have no name
/// (their key is a number from uninitialized memory): `unnamed` leaves the marks' keys out.
fn show_generic_tags(tags: &[Tag], unnamed: bool) -> String {
    tags.iter()
        .map(|t| {
            let value = match t.value {
                Pmt::Bool(true) => "T".to_string(),
                ref v => v.as_i64().unwrap().to_string(),
            };
            let key = t.key.to_string();
            let key = if unnamed && value == "T" {
                ""
            } else {
                key.trim_end_matches(|c: char| c.is_ascii_digit())
            };
            format!("{}:{key}:{value}", t.offset)
        })
        .collect::<Vec<_>>()
        .join(";")
}

fn check_generic_cases(
    cases: &[GenericCase],
    theirs: &[String],
    schedulers: &[Box<dyn Scheduler>],
) {
    for (c, want) in cases.iter().zip(theirs.chunks(4)) {
        let tags: Vec<Tag> = c
            .marks
            .iter()
            .map(|m| Tag::new(*m, Pmt::symbol("x"), Pmt::Int(*m as i64)))
            .collect();
        for s in schedulers {
            let at = format!("generic {} under {}", c.encoder, s.name());
            let (code, code_tags): (Vec<u8>, _) = run_tagged(
                GenericEncoder::new(c.encoder.parse().unwrap()).unwrap(),
                c.bits.clone(),
                tags.clone(),
                s.as_ref(),
            );
            assert_eq!(code, values(&want[0]), "code bits of {at}");
            assert_eq!(
                show_generic_tags(&code_tags, false),
                want[1],
                "code tags of {at}"
            );
            let soft: Vec<f32> = code
                .iter()
                .zip(&c.noise)
                .map(|(b, n)| (f32::from(*b) * 2.0 - 1.0) + n)
                .collect();
            let decoder: DecoderDef = c.decoder.parse().unwrap();
            let (bits, bit_tags): (Vec<u8>, Vec<Tag>) = if reads_bytes(c.decoder) {
                let q = soft
                    .iter()
                    .map(|x| SoftInput::quantize(128.0, *x))
                    .collect();
                run_tagged(
                    GenericByteDecoder::new(decoder).unwrap(),
                    q,
                    code_tags,
                    s.as_ref(),
                )
            } else {
                run_tagged(
                    GenericDecoder::new(decoder).unwrap(),
                    soft,
                    code_tags,
                    s.as_ref(),
                )
            };
            assert!(!bits.is_empty(), "nothing decoded by {at}");
            assert_eq!(bits, values(&want[2]), "decoded bits of {at}");
            let unnamed = c.decoder.starts_with("fec.polar");
            assert_eq!(
                show_generic_tags(&bit_tags, unnamed),
                want[3],
                "decoded tags of {at}"
            );
        }
    }
}

/// The tagged blocks' MTU: whole LDPC codewords of 42 data bits, as GNU Radio needs.
const TAGGED_MTU: usize = 1512;

fn tagged_input(cases: &[TaggedCase]) -> String {
    let join = |v: Vec<String>| v.join(",");
    cases
        .iter()
        .map(|c| {
            format!(
                "tagged|{}|{}|{}|{}|{}|{}\n",
                c.encoder,
                c.decoder,
                join(c.bits.iter().map(u8::to_string).collect()),
                join(c.lengths.iter().map(usize::to_string).collect()),
                join(c.marks.iter().map(u64::to_string).collect()),
                join(c.noise.iter().map(|x| format!("{x:?}")).collect()),
            )
        })
        .collect()
}

/// Tags as `run_fec.py` prints them.
fn show_tags(tags: &[Tag]) -> String {
    tags.iter()
        .map(|t| format!("{}:{}:{}", t.offset, t.key, t.value.as_i64().unwrap()))
        .collect::<Vec<_>>()
        .join(";")
}

/// `block` on `input` with `tags` under `scheduler`: the items and tags out.
fn run_tagged<I: radioflow_runtime::Item, O: radioflow_runtime::Item>(
    block: impl radioflow_runtime::Block,
    input: Vec<I>,
    tags: Vec<Tag>,
    scheduler: &dyn Scheduler,
) -> (Vec<O>, Vec<Tag>) {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(input).tags(tags));
    let b = fg.add(block);
    let sink = fg.add(VectorSink::<O>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    fg.run_with(scheduler).unwrap();
    let sink = fg.block::<VectorSink<O>>(sink).unwrap();
    (sink.data().to_vec(), sink.tags().to_vec())
}

fn check_tagged_cases(cases: &[TaggedCase], theirs: &[String], schedulers: &[Box<dyn Scheduler>]) {
    for (c, want) in cases.iter().zip(theirs.chunks(4)) {
        let mut tags = Vec::new();
        let mut at = 0;
        for n in &c.lengths {
            tags.push(Tag::new(at, Pmt::symbol("len"), Pmt::Int(*n as i64)));
            at += *n as u64;
        }
        tags.extend(
            c.marks
                .iter()
                .map(|m| Tag::new(*m, Pmt::symbol("x"), Pmt::Int(*m as i64))),
        );
        for s in schedulers {
            let at = format!("tagged {} under {}", c.encoder, s.name());
            let (code, code_tags): (Vec<u8>, _) = run_tagged(
                TaggedEncoder::new(c.encoder.parse().unwrap(), "11", "len", TAGGED_MTU).unwrap(),
                c.bits.clone(),
                tags.clone(),
                s.as_ref(),
            );
            assert_eq!(code, values(&want[0]), "code bits of {at}");
            assert_eq!(show_tags(&code_tags), want[1], "code tags of {at}");
            let soft: Vec<f32> = code
                .iter()
                .zip(&c.noise)
                .map(|(b, n)| (f32::from(*b) * 2.0 - 1.0) + n)
                .collect();
            let (bits, bit_tags): (Vec<u8>, _) = run_tagged(
                TaggedDecoder::new(c.decoder.parse().unwrap(), "11", "len", TAGGED_MTU).unwrap(),
                soft,
                code_tags,
                s.as_ref(),
            );
            assert_eq!(bits, values(&want[2]), "decoded bits of {at}");
            assert_eq!(show_tags(&bit_tags), want[3], "decoded tags of {at}");
        }
    }
}

/// `polar.load_frozen_bits_info` of GNU Radio against [`radioflow_fec::bec_frozen_positions`].
const POLAR_CONFIGS: [(usize, usize, f64); 5] = [
    (32, 16, 0.0),
    (512, 240, 0.0),
    (1024, 512, 0.0),
    (256, 100, -1.5),
    (2048, 1500, 3.5),
];

fn polar_config_input() -> String {
    POLAR_CONFIGS
        .iter()
        .map(|(n, k, snr)| format!("polarcfg|{n}|{k}|{snr:?}\n"))
        .collect()
}

/// BER cases: (test mode, berminerrors, berlimit, bytes sent, bytes received).
type BerCase = (bool, i64, f32, Vec<u8>, Vec<u8>);

fn ber_cases() -> Vec<BerCase> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(38);
    let sent: Vec<u8> = (0..3000).map(|_| rng.r#gen()).collect();
    // A bit flipped in about one byte in 20.
    let noisy: Vec<u8> = sent
        .iter()
        .map(|b| {
            if rng.gen_range(0..20) == 0 {
                b ^ (1 << rng.gen_range(0..8))
            } else {
                *b
            }
        })
        .collect();
    let half: Vec<u8> = sent.iter().map(|b| b ^ 0x0f).collect();
    let mut one = sent.clone();
    one[0] ^= 1;
    vec![
        // Streaming: the last value is the whole rate, and -inf without errors.
        (false, 100, -7.0, sent.clone(), noisy),
        (false, 100, -7.0, sent.clone(), sent.clone()),
        // Test mode: 100 errors reached at a rate of 1/2 whatever the chunks.
        (true, 100, -7.0, sent.clone(), half),
        // Test mode: one error, and the rate below the limit at once.
        (true, 1000, -2.0, sent, one),
    ]
}

fn ber_input(cases: &[BerCase]) -> String {
    let join = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    cases
        .iter()
        .map(|(t, m, l, a, b)| format!("ber|{}|{m}|{l:?}|{}|{}\n", u8::from(*t), join(a), join(b)))
        .collect()
}

fn check_ber_cases(cases: &[BerCase], theirs: &[String], schedulers: &[Box<dyn Scheduler>]) {
    for ((test_mode, min_errors, limit, a, b), want) in cases.iter().zip(theirs) {
        let want: Vec<f32> = want
            .split(',')
            .map(|v| v.parse::<f64>().unwrap() as f32)
            .collect();
        for s in schedulers {
            let mut fg = Flowgraph::new();
            let sa = fg.add(VectorSource::new(a.clone()));
            let sb = fg.add(VectorSource::new(b.clone()));
            let ber = fg.add(radioflow_fec::Ber::new(*test_mode, *min_errors, *limit));
            let sink = fg.add(VectorSink::<f32>::new());
            fg.connect(sa, (ber, 0)).unwrap();
            fg.connect(sb, (ber, 1)).unwrap();
            fg.connect(ber, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let ours = fg.block::<VectorSink<f32>>(sink).unwrap().data().to_vec();
            let at = format!("BER (test mode {test_mode}) under {}", s.name());
            if *test_mode {
                assert_eq!(ours, want, "{at}");
            } else {
                // One value per call of the work function: the last is the whole rate.
                assert_eq!(ours.last(), want.last(), "{at}");
            }
        }
    }
}

#[test]
fn codes_match_gnu_radio_through_noise() {
    if !gnuradio_present() {
        eprintln!("SKIPPED: GNU Radio 3.10 (python3 -c 'import gnuradio.fec') is not installed");
        return;
    }
    let (cases, tagged, pdu_cases) = (cases(), tagged_cases(), pdu_cases());
    let generic = generic_cases();
    let ber = ber_cases();
    let theirs = gnu_radio(
        &(polar_config_input()
            + &ber_input(&ber)
            + &stream_input(&cases)
            + &tagged_input(&tagged)
            + &pdu_input(&pdu_cases)
            + &generic_input(&generic)),
    );
    let (configs, theirs) = theirs.split_at(POLAR_CONFIGS.len());
    let (ber_lines, theirs) = theirs.split_at(ber.len());
    for ((n, k, snr), want) in POLAR_CONFIGS.iter().zip(configs) {
        let ours = radioflow_fec::bec_frozen_positions(*n, *k, *snr).unwrap();
        let ours = ours
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(&ours, want, "frozen positions of N {n}, K {k}, {snr} dB");
    }
    let (stream, rest) = theirs.split_at(2 * cases.len());
    let (tagged_lines, rest) = rest.split_at(4 * tagged.len());
    let (pdus, generic_lines) = rest.split_at(rest.len() - 4 * generic.len());
    check_pdu_cases(&pdu_cases, pdus);
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new().chunk_bytes(64).buffer_bytes(4096)),
    ];
    check_tagged_cases(&tagged, tagged_lines, &schedulers);
    check_generic_cases(&generic, generic_lines, &schedulers);
    check_ber_cases(&ber, ber_lines, &schedulers);
    for (c, want) in cases.iter().zip(stream.chunks(2)) {
        let (want_code, want_bits) = (&bits(&want[0]), &bits(&want[1]));
        let enc: EncoderDef = c.encoder.parse().unwrap();
        let dec: DecoderDef = c.decoder.parse().unwrap();
        for s in &schedulers {
            let at = format!("{} ({}) under {}", c.encoder, c.puncpat, s.name());
            let code: Vec<u8> = run(
                ExtendedEncoder::new(enc.clone(), c.puncpat).unwrap(),
                c.bits.clone(),
                s.as_ref(),
            );
            assert_eq!(&code, want_code, "code bits of {at}");
            let soft: Vec<f32> = code
                .iter()
                .zip(&c.noise)
                .map(|(b, n)| (f32::from(*b) * 2.0 - 1.0) + n)
                .collect();
            let bits: Vec<u8> = run(
                ExtendedDecoder::new(dec.clone(), c.puncpat).unwrap(),
                soft,
                s.as_ref(),
            );
            assert_eq!(bits.len(), want_bits.len(), "decoded length of {at}");
            let errors = bits.iter().zip(&c.bits).filter(|(a, b)| a != b).count();
            assert_eq!(
                &bits, want_bits,
                "decoded bits of {at} ({errors} bit errors)"
            );
        }
    }
}
