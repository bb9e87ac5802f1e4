//! The adaptive equalizers (`linear_equalizer`, `decision_feedback_equalizer`) with each
//! algorithm (LMS, NLMS, CMA), with and without training, against GNU Radio 3.10's own on
//! the same input, run by `gnuradio/run_equalizers.py` in one GNU Radio process, all three
//! outputs connected (symbols, taps, state), radioflow's blocks under each scheduler (one
//! with small chunks, so that the taps and training carry across work calls). SKIPPED where
//! GNU Radio is not installed.
//!
//! The input: QPSK (and 8PSK) symbols at 1 to 4 samples per symbol through a three-path
//! channel with a little noise, a 48-symbol preamble at symbols 20 and 600 and a
//! `corr_est` tag on each (the second past its symbol's first sample where the symbol has
//! more than one), and one tag of another key that must start nothing.
//!
//! Compared: the `state` output exactly (it says where training starts and stops), the
//! output tags exactly, the symbols and taps within 1e-5 (absolute; the symbols' magnitude
//! is 1 to 2; the worst measured is 5e-7, `EQ_REPORT=1` prints each case's). Not
//! bit-exact: GNU Radio's filter sums its dot product with VOLK (SIMD partial sums, their
//! order set by the buffer's alignment), as do its NLMS energy and its LMS/CMA tap updates
//! (with fused multiply-adds where the machine has them); radioflow sums in order. The
//! adaptation carries those last-place differences from symbol to symbol without growing
//! them.

use super::{gnuradio_present, parse_tags, Lcg, PYTHON};
use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_digital::{AdaptiveAlgorithm, DecisionFeedbackEqualizer, LinearEqualizer};
use radioflow_runtime::{
    Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const TOLERANCE: f32 = 1e-5;

const PREAMBLE: usize = 48;
const SYMBOLS: usize = 900;

/// `order`-PSK symbols (GNU Radio's QPSK/8PSK points, unit magnitude) with the preamble at
/// symbols 20 and 600, and the samples: each symbol held `sps` samples, through the
/// channel `1 + (0.3+0.2j) z^-1 - 0.1 z^-2` (per sample), with noise.
fn signal(order: u32, sps: usize) -> (Vec<Complex32>, Vec<Complex32>) {
    let mut r = Lcg(u64::from(order) * 10 + sps as u64);
    let mut symbols: Vec<Complex32> = (0..SYMBOLS)
        .map(|_| {
            let k = (r.next() * order as f32) as u32 % order;
            let base = if order == 4 {
                std::f32::consts::FRAC_PI_4
            } else {
                0.0
            };
            Complex32::from_polar(
                1.0,
                base + 2.0 * std::f32::consts::PI * k as f32 / order as f32,
            )
        })
        .collect();
    let preamble: Vec<Complex32> = symbols[20..20 + PREAMBLE].to_vec();
    symbols[600..600 + PREAMBLE].copy_from_slice(&preamble);
    let channel = [
        Complex32::new(1.0, 0.0),
        Complex32::new(0.3, 0.2),
        Complex32::new(-0.1, 0.0),
    ];
    let held: Vec<Complex32> = symbols
        .iter()
        .flat_map(|&s| std::iter::repeat_n(s, sps))
        .collect();
    let x = (0..held.len())
        .map(|i| {
            let mut y = Complex32::new(r.next() - 0.5, r.next() - 0.5) * 0.02;
            for (k, c) in channel.iter().enumerate() {
                if i >= k {
                    y += held[i - k] * c;
                }
            }
            y
        })
        .collect();
    (symbols, x)
}

struct Case {
    name: String,
    /// GNU Radio's constructor (Python).
    make: String,
    vlen: usize,
    forward: usize,
    feedback: Option<usize>,
    alg: AdaptiveAlgorithm,
    adapt: bool,
    sequence: Vec<Complex32>,
    key: &'static str,
    order: u32,
    sps: usize,
}

fn py_alg(alg: &str, order: u32) -> String {
    let cons = if order == 4 {
        "digital.constellation_qpsk().base()"
    } else {
        "digital.constellation_8psk().base()"
    };
    let mut words = alg.split_whitespace();
    let kind = words.next().unwrap();
    let num = |key: &str| {
        alg.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .unwrap()
            .to_owned()
    };
    match kind {
        "cma" => format!(
            "digital.adaptive_algorithm_cma({cons}, {}, {}).base()",
            num("step="),
            num("modulus=")
        ),
        _ => format!(
            "digital.adaptive_algorithm_{kind}({cons}, {}).base()",
            num("step=")
        ),
    }
}

fn py_list(v: &[Complex32]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|z| format!("complex({:e}, {:e})", z.re, z.im))
        .collect();
    format!("[{}]", items.join(", "))
}

/// `(name, forward taps, feedback taps (None: the linear equalizer), sps, algorithm, adapt
/// after training, trained, start tag key)`.
#[allow(clippy::type_complexity)]
const CASES: &[(
    &str,
    usize,
    Option<usize>,
    usize,
    &str,
    u32,
    bool,
    bool,
    &str,
)] = &[
    (
        "le_lms_trained",
        11,
        None,
        2,
        "lms step=0.02",
        4,
        true,
        true,
        "corr_est",
    ),
    (
        "le_lms_dd",
        11,
        None,
        2,
        "lms step=0.01",
        4,
        true,
        false,
        "",
    ),
    (
        "le_nlms_trained_then_idle",
        9,
        None,
        3,
        "nlms step=0.1",
        4,
        false,
        true,
        "corr_est",
    ),
    (
        "le_nlms_no_sequence_idle",
        9,
        None,
        2,
        "nlms step=0.1",
        4,
        false,
        false,
        "corr_est",
    ),
    (
        "le_cma",
        15,
        None,
        2,
        "cma step=0.001 modulus=1",
        4,
        true,
        false,
        "corr_est",
    ),
    (
        "le_lms_8psk_trained",
        7,
        None,
        4,
        "lms step=0.01",
        8,
        true,
        true,
        "corr_est",
    ),
    (
        "dfe_lms_trained",
        7,
        Some(3),
        2,
        "lms step=0.02",
        4,
        true,
        true,
        "corr_est",
    ),
    (
        "dfe_nlms_dd",
        6,
        Some(2),
        3,
        "nlms step=0.05",
        4,
        true,
        false,
        "",
    ),
    (
        "dfe_cma_trained",
        8,
        Some(2),
        2,
        "cma step=0.002 modulus=1",
        4,
        true,
        true,
        "corr_est",
    ),
    (
        "dfe_lms_8psk_sps1",
        5,
        Some(4),
        1,
        "lms step=0.01",
        8,
        false,
        true,
        "corr_est",
    ),
];

fn cases() -> Vec<Case> {
    CASES
        .iter()
        .map(|&(name, fwd, rev, sps, alg, order, adapt, trained, key)| {
            let (symbols, _) = signal(order, sps);
            let seq: Vec<Complex32> = if trained {
                symbols[20..20 + PREAMBLE].to_vec()
            } else {
                Vec::new()
            };
            let cons = if order == 4 { "qpsk" } else { "8psk" };
            let ours: AdaptiveAlgorithm = format!("{alg} | {cons}").parse().unwrap();
            let py_adapt = if adapt { "True" } else { "False" };
            let (make, vlen) = match rev {
                None => (
                    format!(
                        "digital.linear_equalizer({fwd}, {sps}, {}, {py_adapt}, {}, {key:?})",
                        py_alg(alg, order),
                        py_list(&seq)
                    ),
                    fwd,
                ),
                Some(rev) => (
                    format!(
                        "digital.decision_feedback_equalizer({fwd}, {rev}, {sps}, {}, {py_adapt}, {}, {key:?})",
                        py_alg(alg, order),
                        py_list(&seq)
                    ),
                    fwd + rev,
                ),
            };
            Case {
                name: name.to_owned(),
                make,
                vlen,
                forward: fwd,
                feedback: rev,
                alg: ours,
                adapt,
                sequence: seq,
                key,
                order,
                sps,
            }
        })
        .collect()
}

/// The tags on the input: training starts at symbols 20 and 600 (on the symbol's second
/// sample where it has one), and a tag of another key.
fn input_tags(sps: usize) -> Vec<(u64, &'static str)> {
    vec![
        ((20 * sps) as u64, "corr_est"),
        ((300 * sps) as u64, "other"),
        ((600 * sps + sps / 2) as u64, "corr_est"),
    ]
}

struct Outputs {
    out: Vec<Complex32>,
    taps: Vec<Complex32>,
    state: Vec<i16>,
    tags: Vec<(u64, String)>,
}

fn ours(case: &Case, scheduler: &dyn Scheduler) -> Outputs {
    let (_, x) = signal(case.order, case.sps);
    let tags = input_tags(case.sps)
        .into_iter()
        .map(|(o, k)| Tag::new(o, k, Pmt::Bool(true)))
        .collect();
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(x).tags(tags));
    let (alg, seq) = (case.alg.clone(), &case.sequence);
    let eq = match case.feedback {
        None => fg.add(
            LinearEqualizer::<Complex32>::new(
                case.forward,
                case.sps,
                alg,
                case.adapt,
                seq,
                case.key,
            )
            .unwrap(),
        ),
        Some(rev) => fg.add(
            DecisionFeedbackEqualizer::<Complex32>::new(
                case.forward,
                rev,
                case.sps,
                alg,
                case.adapt,
                seq,
                case.key,
            )
            .unwrap(),
        ),
    };
    let out = fg.add(VectorSink::<Complex32>::new());
    let taps = fg.add(VectorSink::<Complex32>::new().with_vlen(case.vlen));
    let state = fg.add(VectorSink::<i16>::new());
    fg.connect(src, eq).unwrap();
    fg.connect((eq, "out"), out).unwrap();
    fg.connect((eq, "taps"), taps).unwrap();
    fg.connect((eq, "state"), state).unwrap();
    fg.run_with(scheduler).unwrap();
    let sink = fg.block::<VectorSink<Complex32>>(out).unwrap();
    Outputs {
        out: sink.data().to_vec(),
        tags: sink
            .tags()
            .iter()
            .map(|t| (t.offset, t.key.to_string()))
            .collect(),
        taps: fg
            .block::<VectorSink<Complex32>>(taps)
            .unwrap()
            .data()
            .to_vec(),
        state: fg.block::<VectorSink<i16>>(state).unwrap().data().to_vec(),
    }
}

fn complex_file(path: &Path) -> Vec<Complex32> {
    let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
    std::fs::read(path)
        .unwrap()
        .chunks_exact(8)
        .map(|b| Complex32::new(f(&b[..4]), f(&b[4..])))
        .collect()
}

/// GNU Radio's outputs for every case, in one process.
fn gnu_radio(cases: &[Case], dir: &Path) -> Vec<Outputs> {
    let mut inputs: Vec<(u32, usize)> = cases.iter().map(|c| (c.order, c.sps)).collect();
    inputs.sort_unstable();
    inputs.dedup();
    let mut runs = Vec::new();
    for &(order, sps) in &inputs {
        let (_, x) = signal(order, sps);
        let input = dir.join(format!("in_{order}_{sps}.bin"));
        let bytes: Vec<u8> = x
            .iter()
            .flat_map(|z| z.re.to_le_bytes().into_iter().chain(z.im.to_le_bytes()))
            .collect();
        std::fs::write(&input, bytes).unwrap();
        let tags: Vec<String> = input_tags(sps)
            .iter()
            .map(|(o, k)| format!("[{o}, \"{k}\"]"))
            .collect();
        let jobs: Vec<String> = cases
            .iter()
            .filter(|c| (c.order, c.sps) == (order, sps))
            .map(|c| {
                format!(
                    "{{\"name\": \"{}\", \"make\": {:?}, \"vlen\": {}}}",
                    c.name, c.make, c.vlen
                )
            })
            .collect();
        runs.push(format!(
            "{{\"input\": {:?}, \"tags\": [{}], \"cases\": [{}]}}",
            input.display().to_string(),
            tags.join(", "),
            jobs.join(", ")
        ));
    }
    let job = format!(
        "{{\"out\": {:?}, \"runs\": [{}]}}",
        dir.display().to_string(),
        runs.join(", ")
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/run_equalizers.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "run_equalizers.py failed");
    cases
        .iter()
        .map(|c| {
            let at = |ext: &str| dir.join(format!("{}.{ext}", c.name));
            let tags = std::fs::read_to_string(at("tags.json")).unwrap();
            Outputs {
                out: complex_file(&at("out.bin")),
                taps: complex_file(&at("taps.bin")),
                state: std::fs::read(at("state.bin"))
                    .unwrap()
                    .chunks_exact(2)
                    .map(|b| i16::from_le_bytes([b[0], b[1]]))
                    .collect(),
                tags: parse_tags(&tags),
            }
        })
        .collect()
}

/// The worst absolute difference and where.
fn worst(ours: &[Complex32], theirs: &[Complex32]) -> (f32, usize) {
    ours.iter()
        .zip(theirs)
        .enumerate()
        .map(|(i, (a, b))| ((a - b).norm(), i))
        .fold((0.0, 0), |w, d| if d.0 > w.0 { d } else { w })
}

#[test]
fn the_equalizers_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.digital)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-digital-eq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases();
    let theirs = gnu_radio(&cases, &dir);
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new().chunk_bytes(64).buffer_bytes(4096)),
    ];
    for (case, want) in cases.iter().zip(&theirs) {
        assert_eq!(
            want.out.len(),
            SYMBOLS,
            "{}: GNU Radio's symbols",
            case.name
        );
        // The cases exercise what they say: training where trained, each state seen.
        let has = |s: i16| want.state.contains(&s);
        let trained = CASES.iter().any(|c| c.0 == case.name && c.7);
        assert_eq!(has(1), trained, "{}: GNU Radio's states", case.name);
        for s in &schedulers {
            let got = ours(case, s.as_ref());
            let at = format!("{} under {}", case.name, s.name());
            assert_eq!(got.out.len(), want.out.len(), "{at}: symbols");
            assert_eq!(got.taps.len(), want.taps.len(), "{at}: taps");
            assert_eq!(got.state, want.state, "{at}: state");
            assert_eq!(got.tags, want.tags, "{at}: tags");
            let (wo, wt) = (worst(&got.out, &want.out), worst(&got.taps, &want.taps));
            if std::env::var_os("EQ_REPORT").is_some() {
                println!("{at}: worst symbol {wo:?}, worst tap {wt:?}");
            }
            assert!(
                wo.0 <= TOLERANCE,
                "{at}: symbol {}: ours {}, GNU Radio's {}",
                wo.1,
                got.out[wo.1],
                want.out[wo.1]
            );
            assert!(
                wt.0 <= TOLERANCE,
                "{at}: tap value {} (symbol {}): ours {}, GNU Radio's {}",
                wt.1,
                wt.1 / case.vlen,
                got.taps[wt.1],
                want.taps[wt.1]
            );
        }
        // The equalizer does its job: after training or converging, the symbols' magnitude
        // is steady (a wrong sign in the update would not give that; GNU Radio's QPSK points
        // are of magnitude 2, its 8PSK points 1).
        if !case.name.contains("idle") {
            let m: Vec<f32> = want.out[800..].iter().map(|y| y.norm()).collect();
            let mean = m.iter().sum::<f32>() / m.len() as f32;
            let sd = (m.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / m.len() as f32).sqrt();
            assert!(
                sd < 0.25 * mean,
                "{}: GNU Radio's magnitudes {mean} ± {sd}",
                case.name
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
