//! Burst shaping (`burst_shaper`) and modulation (`constellation_modulator`) against GNU
//! Radio 3.10's own (`digital.burst_shaper_ff/_cc`, `digital.generic_mod`) on the same tagged
//! input, run by `gnuradio/run_modulation.py` in one GNU Radio process.
//!
//! The modulator's output within 1e-5 (its resampler's sums are GNU Radio's, in float32,
//! in VOLK's order but for rounding) and its tags at GNU Radio's offsets. GNU Radio's
//! resampler leaves its input's last symbols unshaped by a number that depends on its
//! buffers (its forecast asks for more input than the outputs need; with `truncate` the
//! skiphead after it changes them): radioflow's output is compared up to GNU Radio's length
//! and must not be shorter.
//!
//! The shaper's real outputs bit for bit (a tap times an item is one float32 product in both), complex
//! ones within 2e-7 relative (VOLK's complex product may fuse a multiply and an add, which
//! rounds once where two products round twice), and tags
//! (offset, key, value) equal, with radioflow's block run under each scheduler (one with
//! small chunks, so that bursts straddle work calls). SKIPPED where GNU Radio is not
//! installed.

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_digital::{BurstShaper, Constellation, ConstellationModulator, Shaped};
use radioflow_runtime::{
    Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.digital"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Tags as (offset, key, integer value).
type Tags = Vec<(u64, String, i64)>;

struct Case {
    name: String,
    make: String,
    complex: bool,
    /// The input as reals (pairs for complex items).
    input: Vec<f32>,
    tags: Tags,
    window: Vec<f32>,
    pre: usize,
    post: usize,
    phasing: bool,
    /// A modulator case instead: its input bytes, constellation, differential, sps, excess
    /// bandwidth, truncate.
    modulator: Option<Modulator>,
}

/// A modulator case: input bytes, constellation, differential, sps, excess bandwidth,
/// truncate.
type Modulator = (Vec<u8>, String, bool, f64, f64, bool);

fn run<T: Shaped>(case: &Case, input: Vec<T>, window: Vec<T>, s: &dyn Scheduler) -> (Vec<T>, Tags) {
    let mut fg = Flowgraph::new();
    let tags = case
        .tags
        .iter()
        .map(|(o, k, v)| Tag::new(*o, k.as_str(), Pmt::Int(*v)))
        .collect();
    let src = fg.add(VectorSource::new(input).tags(tags));
    let b = fg.add(BurstShaper::new(
        window,
        case.pre,
        case.post,
        case.phasing,
        "packet_len",
    ));
    let sink = fg.add(VectorSink::<T>::new());
    fg.connect(src, b).unwrap();
    fg.connect(b, sink).unwrap();
    fg.run_with(s).unwrap();
    let out = fg.block::<VectorSink<T>>(sink).unwrap();
    let tags = out
        .tags()
        .iter()
        .map(|t| {
            let key = t.key.to_string();
            (t.offset, key, t.value.as_i64().unwrap())
        })
        .collect();
    (out.data().to_vec(), tags)
}

fn ours(case: &Case, s: &dyn Scheduler) -> (Vec<f32>, Tags) {
    if let Some((bytes, c, diff, sps, bw, truncate)) = &case.modulator {
        let mut fg = Flowgraph::new();
        let tags = case
            .tags
            .iter()
            .map(|(o, k, v)| Tag::new(*o, k.as_str(), Pmt::Int(*v)))
            .collect();
        let src = fg.add(VectorSource::new(bytes.clone()).tags(tags));
        let c: Constellation = c.parse().unwrap();
        let b = fg.add(ConstellationModulator::new(c, *diff, *sps, *bw, *truncate).unwrap());
        let sink = fg.add(VectorSink::<Complex32>::new());
        fg.connect(src, b).unwrap();
        fg.connect(b, sink).unwrap();
        fg.run_with(s).unwrap();
        let out = fg.block::<VectorSink<Complex32>>(sink).unwrap();
        let tags = out
            .tags()
            .iter()
            .map(|t| (t.offset, t.key.to_string(), t.value.as_i64().unwrap()))
            .collect();
        return (out.data().iter().flat_map(|z| [z.re, z.im]).collect(), tags);
    }
    if case.complex {
        let c = |v: &[f32]| {
            v.chunks_exact(2)
                .map(|p| Complex32::new(p[0], p[1]))
                .collect::<Vec<_>>()
        };
        // A complex window: the imaginary part is a quarter of the real.
        let w = case
            .window
            .iter()
            .map(|&x| Complex32::new(x, x / 4.0))
            .collect();
        let (out, tags) = run(case, c(&case.input), w, s);
        (out.iter().flat_map(|z| [z.re, z.im]).collect(), tags)
    } else {
        run(case, case.input.clone(), case.window.clone(), s)
    }
}

/// Deterministic numbers in [-1, 1) (an LCG).
fn noise(seed: u64, n: usize) -> Vec<f32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn cases() -> Vec<Case> {
    // Bursts of 20, 5 (shorter than the ramps), 1 and 30 items, with items between them
    // that are in no burst, and other tags on a burst's first item, inside bursts, and
    // outside any.
    let bursts: &[(u64, i64)] = &[(3, 20), (25, 5), (31, 1), (40, 30)];
    let mut tags: Tags = bursts
        .iter()
        .map(|&(o, n)| (o, "packet_len".to_owned(), n))
        .collect();
    tags.extend([
        (0, "x".to_owned(), 1),
        (3, "x".to_owned(), 2),
        (10, "y".to_owned(), 3),
        (22, "y".to_owned(), 4),
        (27, "x".to_owned(), 5),
        (45, "y".to_owned(), 6),
        (69, "x".to_owned(), 7),
    ]);
    tags.sort_by_key(|t| t.0);
    let hann7 = vec![0.0, 0.25, 0.75, 1.0, 0.75, 0.25, 0.0];
    let ramp6 = vec![0.1, 0.4, 0.9, 0.9, 0.4, 0.1];
    let mut out = Vec::new();
    for complex in [false, true] {
        for (w, window) in [("odd", &hann7), ("even", &ramp6), ("none", &vec![])] {
            for phasing in [false, true] {
                for (pre, post) in [(0, 0), (4, 7)] {
                    let n = 75 * if complex { 2 } else { 1 };
                    let (fcn, list) = if complex {
                        let l: Vec<String> = window
                            .iter()
                            .map(|x| format!("complex({x}, {})", x / 4.0))
                            .collect();
                        ("cc", l.join(", "))
                    } else {
                        let l: Vec<String> = window.iter().map(|x| format!("{x}")).collect();
                        ("ff", l.join(", "))
                    };
                    let py_bool = if phasing { "True" } else { "False" };
                    out.push(Case {
                        name: format!("{fcn}_{w}_{phasing}_{pre}_{post}"),
                        make: format!(
                            "digital.burst_shaper_{fcn}([{list}], {pre}, {post}, {py_bool}, \"packet_len\")"
                        ),
                        complex,
                        input: noise(pre as u64 + 2, n),
                        tags: tags.clone(),
                        window: window.clone(),
                        pre,
                        post,
                        phasing,
                        modulator: None,
                    });
                }
            }
        }
    }
    // The modulator: every constellation kind GNU Radio's examples modulate, differential
    // or not, 2 to 4 samples per symbol, with and without the filter's delay; 3 bits a
    // symbol (8PSK) take chunks across bytes.
    let bytes: Vec<u8> = noise(7, 90)
        .iter()
        .map(|x| ((x + 1.0) * 128.0) as u8)
        .collect();
    let mod_tags: Tags = vec![(0, "a".into(), 1), (5, "b".into(), 2), (31, "c".into(), 3)];
    for (i, &(c, py, diff, sps, bw, truncate)) in [
        ("bpsk", "constellation_bpsk", false, 2.0, 0.35, false),
        ("qpsk", "constellation_qpsk", true, 4.0, 0.35, false),
        ("dqpsk", "constellation_dqpsk", true, 2.0, 0.5, true),
        ("8psk", "constellation_8psk", false, 3.0, 0.22, false),
        ("16qam", "constellation_16qam", true, 4.0, 0.35, true),
    ]
    .iter()
    .enumerate()
    {
        let py_bool = |b: bool| if b { "True" } else { "False" };
        out.push(Case {
            name: format!("mod_{i}_{c}"),
            make: format!(
                "digital.generic_mod(constellation=digital.{py}(), differential={}, \
                 samples_per_symbol={sps}, pre_diff_code=True, excess_bw={bw}, verbose=False, \
                 log=False, truncate={})",
                py_bool(diff),
                py_bool(truncate)
            ),
            complex: false,
            input: Vec::new(),
            tags: mod_tags.clone(),
            window: Vec::new(),
            pre: 0,
            post: 0,
            phasing: false,
            modulator: Some((bytes.clone(), c.to_owned(), diff, sps, bw, truncate)),
        });
    }
    // psk_mod's 8PSK with Gray coding and no differential coding: the points reordered by
    // the inverse Gray code (as radioflow's GNU Radio table builds it).
    let points: Vec<String> = [0, 1, 3, 2, 7, 6, 4, 5]
        .iter()
        .map(|&k| {
            let a = 2.0 * std::f64::consts::PI * f64::from(k) / 8.0;
            format!("{},{}", a.cos() as f32, a.sin() as f32)
        })
        .collect();
    out.push(Case {
        name: "mod_psk8".into(),
        make: "digital.psk.psk_mod(constellation_points=8, mod_code=\"gray\", \
               differential=False, samples_per_symbol=2, excess_bw=0.35, verbose=False, \
               log=False)"
            .into(),
        complex: false,
        input: Vec::new(),
        tags: Vec::new(),
        window: Vec::new(),
        pre: 0,
        post: 0,
        phasing: false,
        modulator: Some((
            bytes,
            format!(
                "calcdist points={} rot=8 dim=1 norm=amplitude",
                points.join(";")
            ),
            false,
            2.0,
            0.35,
            false,
        )),
    });
    out
}

fn gnu_radio(cases: &[Case], dir: &Path) -> Vec<(Vec<f32>, Tags)> {
    let job_cases: Vec<String> = cases
        .iter()
        .map(|c| {
            let input = dir.join(format!("{}.in", c.name));
            let bytes: Vec<u8> = match &c.modulator {
                Some((b, ..)) => b.clone(),
                None => c.input.iter().flat_map(|x| x.to_le_bytes()).collect(),
            };
            std::fs::write(&input, bytes).unwrap();
            let tags: Vec<String> = c
                .tags
                .iter()
                .map(|(o, k, v)| format!("[{o}, {k:?}, {v}]"))
                .collect();
            format!(
                "{{\"name\": {:?}, \"make\": {:?}, \"input\": {:?}, \"in\": {:?}, \"out\": {:?}, \"tags\": [{}]}}",
                c.name,
                c.make,
                input.display().to_string(),
                if c.modulator.is_some() { "b" } else if c.complex { "c" } else { "f" },
                if c.complex || c.modulator.is_some() { "c" } else { "f" },
                tags.join(", ")
            )
        })
        .collect();
    let job = format!(
        "{{\"out\": {:?}, \"cases\": [{}]}}",
        dir.display().to_string(),
        job_cases.join(", ")
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/run_modulation.py");
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
    assert!(child.wait().unwrap().success(), "run_modulation.py failed");
    cases
        .iter()
        .map(|c| {
            let b = std::fs::read(dir.join(format!("{}.bin", c.name))).unwrap();
            let data = b
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                .collect();
            let json = std::fs::read_to_string(dir.join(format!("{}.tags.json", c.name))).unwrap();
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            let tags = v
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t[0].as_u64().unwrap(),
                        t[1].as_str().unwrap().to_owned(),
                        t[2].as_i64().unwrap(),
                    )
                })
                .collect();
            (data, tags)
        })
        .collect()
}

/// Tags in a canonical order: GNU Radio's sink sorts by offset only.
fn sorted(mut t: Tags) -> Tags {
    t.sort();
    t
}

#[test]
fn the_burst_shaper_equals_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.digital)");
        return;
    }
    let dir = std::env::temp_dir().join(format!(
        "radioflow-digital-modulation-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases();
    let theirs = gnu_radio(&cases, &dir);
    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new().chunk_bytes(24).buffer_bytes(4096)),
    ];
    for (case, (want, want_tags)) in cases.iter().zip(theirs) {
        assert!(!want.is_empty(), "{}: GNU Radio made nothing", case.name);
        for s in &schedulers {
            let (got, tags) = ours(case, s.as_ref());
            let at = format!("{} under {}", case.name, s.name());
            if case.modulator.is_some() {
                assert!(
                    got.len() >= want.len(),
                    "{at}: output length {}, GNU Radio's {}",
                    got.len(),
                    want.len()
                );
            } else {
                assert_eq!(got.len(), want.len(), "{at}: output length");
            }
            for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                let ok = if case.modulator.is_some() {
                    (a - b).abs() <= 1e-5
                } else if case.complex {
                    (a - b).abs() <= 2e-7 * b.abs().max(1.0)
                } else {
                    a == b
                };
                assert!(ok, "{at}: output real {i}: ours {a}, GNU Radio's {b}");
            }
            assert_eq!(sorted(tags), sorted(want_tags.clone()), "{at}: tags");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
