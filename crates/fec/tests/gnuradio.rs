//! Every code through the extended encoder and decoder against GNU Radio 3.10's
//! (`fec.extended_encoder`, `fec.extended_decoder`) on the same input: random bits encoded,
//! mapped to ±1, Gaussian noise added, decoded; code bits and decoded bits equal, with
//! radioflow's blocks run under each scheduler. The noise is strong enough that decoders
//! make errors (and the Viterbi decoder's metrics saturate and renormalize), so equal output
//! means the same decisions, not merely both correct. Run by `gnuradio/run_fec.py` in one
//! GNU Radio process; SKIPPED where GNU Radio is not installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_fec::{DecoderDef, EncoderDef, ExtendedDecoder, ExtendedEncoder};
use radioflow_runtime::{FlowScheduler, Flowgraph, Scheduler, SingleThread, ThreadPerBlock};
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.fec"])
        .output()
        .is_ok_and(|o| o.status.success())
}

struct Case {
    encoder: &'static str,
    decoder: &'static str,
    /// Frames of input.
    bits: Vec<u8>,
    /// Noise per code bit (more than needed).
    noise: Vec<f32>,
}

fn cases() -> Vec<Case> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let defs: [(&str, &str, usize, f32); 9] = [
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
    ];
    defs.iter()
        .map(|&(encoder, decoder, frame, sigma)| {
            // Five frames and a part: the part makes no output.
            let n = 5 * frame + frame / 2;
            let bits = (0..n).map(|_| rng.gen_range(0..2u8)).collect();
            let noise = (0..8 * n + 64)
                .map(|_| {
                    // Box-Muller, in f64 then rounded: only the f32 values matter.
                    let (u, v): (f64, f64) = (rng.gen_range(1e-12..1.0), rng.gen());
                    (sigma as f64 * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos())
                        as f32
                })
                .collect();
            Case {
                encoder,
                decoder,
                bits,
                noise,
            }
        })
        .collect()
}

fn gnu_radio(cases: &[Case]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gnuradio/run_fec.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for c in cases {
        let join = |v: Vec<String>| v.join(",");
        input += &format!(
            "{}|{}|{}|{}\n",
            c.encoder,
            c.decoder,
            join(c.bits.iter().map(u8::to_string).collect()),
            join(c.noise.iter().map(|x| format!("{x:?}")).collect()),
        );
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "run_fec.py failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let bits = |l: &str| l.bytes().map(|b| b - b'0').collect::<Vec<u8>>();
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(2)
        .map(|p| {
            (
                bits(p[0].strip_prefix("enc:").unwrap()),
                bits(p[1].strip_prefix("dec:").unwrap()),
            )
        })
        .collect()
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

#[test]
fn codes_match_gnu_radio_through_noise() {
    if !gnuradio_present() {
        eprintln!("SKIPPED: GNU Radio 3.10 (python3 -c 'import gnuradio.fec') is not installed");
        return;
    }
    let cases = cases();
    let theirs = gnu_radio(&cases);
    assert_eq!(theirs.len(), cases.len());
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new().chunk_bytes(64).buffer_bytes(4096)),
    ];
    for (c, (want_code, want_bits)) in cases.iter().zip(&theirs) {
        let enc: EncoderDef = c.encoder.parse().unwrap();
        let dec: DecoderDef = c.decoder.parse().unwrap();
        for s in &schedulers {
            let at = format!("{} under {}", c.encoder, s.name());
            let code: Vec<u8> = run(
                ExtendedEncoder::new(enc.clone(), "11").unwrap(),
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
                ExtendedDecoder::new(dec.clone(), "11").unwrap(),
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
