//! The correlation estimator (`corr_est`), the modulated sync words it looks for, the GMSK
//! modulator (`gmsk_mod`) and the Mueller and Müller clock recovery (`clock_recovery_mm`)
//! against GNU Radio 3.10's `corr_est_cc`, `modulate_vector_bc`, `gmsk_mod` and
//! `clock_recovery_mm_ff`/`_cc`, on the same input, run by
//! `gnuradio/run_corr.py` in one GNU Radio process; radioflow's block under each scheduler.
//! SKIPPED where GNU Radio is not installed.
//!
//! GNU Radio's `corr_est_cc` runs with `set_max_noutput_items(window)`, one FFT block per
//! work call, as radioflow's block always works: its dynamic threshold then averages the same
//! samples. Tolerances, and why: GNU Radio correlates by FFT, radioflow by a direct sum
//! (float rounding: 1e-4 of the largest correlation); its phase is `fast_atan2f`, a table
//! (1e-3 rad with that rounding); the delayed output is a copy (exact). GNU Radio never
//! processes a last window shorter than its output multiple: radioflow's outputs are compared
//! up to GNU Radio's length and must be the input's length. GMSK: GNU Radio's oscillator is a
//! fixed-point table and its filter sums in another order; the phase carries both (5e-4 over
//! the 1600 bits here, the error growing with the bits). Clock recovery: the interpolator's
//! taps are computed here, GNU Radio's printed in a table (within 5e-7), and the loop
//! carries that (1e-4 for the real loop at GNU Radio's usual gains); where a position rounds
//! across one of the interpolator's 1/128 steps (a wide loop, or the complex detector's
//! twice as many parts) an output moves by a step (5e-3).

use radioflow_blocks::{VectorSink, VectorSource};
use radioflow_digital::{ClockRecoveryMm, ConstellationModulator, CorrEst, CorrThreshold, GmskMod};
use radioflow_runtime::{
    Complex32, FlowScheduler, Flowgraph, Pmt, Scheduler, SingleThread, Tag, ThreadPerBlock,
};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const PYTHON: &str = "/usr/bin/python3";
/// GNU Radio's example sync word (examples/digital/packet/example_corr_est.grc's `ac_hex`).
const WORD: [u8; 8] = [0xac, 0xdd, 0xa4, 0xe2, 0xf2, 0x8c, 0x20, 0xfc];

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.digital"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `data` through radioflow's constellation modulator (not differential, no truncation),
/// then the FIR `taps`: what `digital.modulate_vector_bc(generic_mod(...), data, taps)` is.
fn modulated(
    constellation: &str,
    sps: f64,
    excess_bw: f64,
    data: &[u8],
    taps: &[f32],
) -> Vec<Complex32> {
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(data.to_vec()));
    let m = fg.add(
        ConstellationModulator::new(constellation.parse().unwrap(), false, sps, excess_bw, false)
            .unwrap(),
    );
    let sink = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, m).unwrap();
    fg.connect(m, sink).unwrap();
    fg.run().unwrap();
    let x = fg
        .block::<VectorSink<Complex32>>(sink)
        .unwrap()
        .data()
        .to_vec();
    (0..x.len())
        .map(|n| {
            taps.iter()
                .enumerate()
                .filter(|&(k, _)| k <= n)
                .map(|(k, &t)| x[n - k] * t)
                .sum()
        })
        .collect()
}

/// Deterministic numbers in [0, 1) (an LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Low noise with `word` added at each of `at`, scaled and turned by the paired factor.
fn signal(len: usize, word: &[Complex32], at: &[(usize, Complex32)]) -> Vec<Complex32> {
    let mut r = Lcg(7);
    let mut x: Vec<Complex32> = (0..len)
        .map(|_| Complex32::new(r.next() - 0.5, r.next() - 0.5) * 0.1)
        .collect();
    for &(start, g) in at {
        for (i, &w) in word.iter().enumerate() {
            if let Some(v) = x.get_mut(start + i) {
                *v += w * g;
            }
        }
    }
    x
}

struct Case {
    name: &'static str,
    sps: f32,
    mark_delay: u32,
    threshold: f32,
    method: CorrThreshold,
    corr: bool,
    tags: Vec<(u64, &'static str, f64)>,
}

type Tags = Vec<(u64, String, Option<f64>)>;

/// radioflow's outputs (`out`, and `corr` where connected) and their tags.
fn ours(
    case: &Case,
    symbols: &[Complex32],
    input: &[Complex32],
    s: &dyn Scheduler,
) -> (Vec<Complex32>, Vec<Complex32>, Tags, Tags) {
    let mut fg = Flowgraph::new();
    let tags = case
        .tags
        .iter()
        .map(|&(o, k, v)| Tag::new(o, k, Pmt::Double(v)))
        .collect();
    let src = fg.add(VectorSource::new(input.to_vec()).tags(tags));
    let b = fg.add(
        CorrEst::new(
            symbols,
            case.sps,
            case.mark_delay,
            case.threshold,
            case.method,
        )
        .unwrap(),
    );
    let out = fg.add(VectorSink::<Complex32>::new());
    fg.connect(src, b).unwrap();
    fg.connect((b, "out"), out).unwrap();
    let corr = case.corr.then(|| {
        let c = fg.add(VectorSink::<Complex32>::new());
        fg.connect((b, "corr"), c).unwrap();
        c
    });
    fg.run_with(s).unwrap();
    let read = |id| {
        let v = fg.block::<VectorSink<Complex32>>(id).unwrap();
        let tags: Tags = v
            .tags()
            .iter()
            .map(|t| (t.offset, t.key.to_string(), t.value.as_f64()))
            .collect();
        (v.data().to_vec(), tags)
    };
    let (o, ot) = read(out);
    let (c, ct) = corr.map(read).unwrap_or_default();
    (o, c, ot, ct)
}

fn read_c64(path: &Path) -> Vec<Complex32> {
    let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
    std::fs::read(path)
        .unwrap()
        .chunks_exact(8)
        .map(|b| Complex32::new(f(&b[..4]), f(&b[4..])))
        .collect()
}

fn write_c64(path: &Path, x: &[Complex32]) {
    let b: Vec<u8> = x
        .iter()
        .flat_map(|c| c.re.to_le_bytes().into_iter().chain(c.im.to_le_bytes()))
        .collect();
    std::fs::write(path, b).unwrap();
}

fn parse_tags(v: &Value) -> Tags {
    let mut t: Tags = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t[0].as_u64().unwrap(),
                t[1].as_str().unwrap().to_owned(),
                t[2].as_f64(),
            )
        })
        .collect();
    t.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    t
}

/// Tags on the first `n` items, in GNU Radio's order (by offset, then key), compared key by
/// key with the tolerance each value's computation allows.
fn check_tags(at: &str, ours: &Tags, theirs: &Tags, n: usize) {
    let mut ours: Tags = ours
        .iter()
        .filter(|t| (t.0 as usize) < n)
        .cloned()
        .collect();
    ours.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let keys = |t: &Tags| t.iter().map(|t| (t.0, t.1.clone())).collect::<Vec<_>>();
    assert_eq!(keys(&ours), keys(theirs), "{at}: tags");
    for (a, b) in ours.iter().zip(theirs) {
        let (x, y) = (a.2.unwrap(), b.2.unwrap());
        let close = match a.1.as_str() {
            "phase_est" => (x - y).abs() <= 1e-3,
            "time_est" => (x - y).abs() <= 1e-3,
            "amp_est" => (x - y).abs() <= 1e-6 * y.abs(),
            "corr_start" | "corr_est" => (x - y).abs() <= 1e-3 * y.abs(),
            _ => x == y,
        };
        assert!(
            close,
            "{at}: tag {} at {}: ours {x}, GNU Radio's {y}",
            a.1, a.0
        );
    }
}

#[test]
fn the_correlation_estimator_and_modulated_words_equal_gnu_radio_s() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed ({PYTHON} cannot import gnuradio.digital)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("radioflow-digital-corr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The sync words: as GNU Radio's examples make them, and through a filter.
    let words = [
        ("word_qpsk", "qpsk", 4.0, 0.22, vec![1.0f32]),
        ("word_bpsk_taps", "bpsk", 2.0, 0.35, vec![0.5, -0.25, 0.125]),
    ];
    let modulate: Vec<Value> = words
        .iter()
        .map(|(name, c, sps, eb, taps)| {
            json!({"name": name, "constellation": format!("digital.constellation_{c}()"),
                   "sps": sps, "excess_bw": eb, "data": WORD, "taps": taps})
        })
        .collect();
    let word = modulated("qpsk", 4.0, 0.22, &WORD, &[1.0]);
    let n = word.len();
    let window = 2 * n.next_power_of_two() - n + 1;
    let len = 40 * window + window / 3;
    let turn = |amp: f32, rad: f32| Complex32::from_polar(amp, rad);
    let input = signal(
        len,
        &word,
        &[
            (300, turn(1.0, 0.0)),
            (10 * window + 250, turn(0.5, 1.0)),
            (25 * window + 100, turn(2.0, -2.5)),
        ],
    );
    let symbols_path = dir.join("symbols.bin");
    write_c64(&symbols_path, &word);
    let input_path = dir.join("input.bin");
    write_c64(&input_path, &input);
    let cases = [
        Case {
            name: "absolute",
            sps: 4.0,
            mark_delay: 5,
            threshold: 0.2,
            method: CorrThreshold::Absolute,
            corr: true,
            tags: vec![(10, "mark", 1.5), (len as u64 - 3, "late", 2.0)],
        },
        Case {
            name: "dynamic",
            sps: 4.0,
            mark_delay: 10_000,
            threshold: 0.999,
            method: CorrThreshold::Dynamic,
            corr: false,
            tags: vec![],
        },
        Case {
            name: "dynamic_corr",
            sps: 3.6,
            mark_delay: 0,
            threshold: 0.99,
            method: CorrThreshold::Dynamic,
            corr: true,
            tags: vec![],
        },
    ];
    let job_cases: Vec<Value> = cases
        .iter()
        .map(|c| {
            json!({"name": c.name, "input": input_path, "symbols": symbols_path, "sps": c.sps,
                   "mark_delay": c.mark_delay, "threshold": c.threshold,
                   "method": if c.method == CorrThreshold::Absolute { "absolute" } else { "dynamic" },
                   "corr": c.corr, "window": window,
                   "tags": c.tags.iter().map(|(o, k, v)| json!([o, k, v])).collect::<Vec<_>>()})
        })
        .collect();
    let mut r = Lcg(3);
    let bytes: Vec<u8> = (0..200).map(|_| (r.next() * 256.0) as u8).collect();
    let bits: Vec<u8> = bytes.iter().take(100).map(|b| b & 1).collect();
    let gmsk = [
        ("gmsk_2", 2usize, 0.35, true, bytes.clone()),
        ("gmsk_4", 4, 0.3, true, bytes.clone()),
        ("gmsk_bits_3", 3, 0.5, false, bits),
    ];
    let gmsk_jobs: Vec<Value> = gmsk
        .iter()
        .map(|(name, sps, bt, unpack, data)| {
            json!({"name": name, "sps": sps, "bt": bt, "do_unpack": unpack, "data": data})
        })
        .collect();
    // BPSK through a raised-cosine-like pulse at 4.03 samples per symbol (a clock offset to
    // track), sampled by linear interpolation, with a little noise.
    let pulse = radioflow_dsp::firdes::root_raised_cosine(1.0, 4.0, 1.0, 0.35, 45).unwrap();
    let mut shaped = vec![0.0f32; 4 * 400 + pulse.len()];
    for i in 0..400 {
        let s = if r.next() < 0.5 { -1.0 } else { 1.0 };
        for (j, &t) in pulse.iter().enumerate() {
            shaped[4 * i + j] += s * t;
        }
    }
    let real: Vec<f32> = (0..1580)
        .map(|n| {
            let t = n as f32 * 4.0 / 4.03;
            let (k, f) = (t.floor() as usize, t.fract());
            shaped[k] * (1.0 - f) + shaped[k + 1] * f + (r.next() - 0.5) * 0.02
        })
        .collect();
    // The same at quadrature: QPSK, the real and imaginary parts of two such signals.
    let mut cshaped = vec![Complex32::default(); 4 * 400 + pulse.len()];
    for i in 0..400 {
        let mut bit = || if r.next() < 0.5 { -1.0 } else { 1.0 };
        let s = Complex32::new(bit(), bit());
        for (j, &t) in pulse.iter().enumerate() {
            cshaped[4 * i + j] += s * t;
        }
    }
    let cx: Vec<Complex32> = (0..1580)
        .map(|n| {
            let t = n as f32 * 4.0 / 4.03;
            let (k, f) = (t.floor() as usize, t.fract());
            cshaped[k] * (1.0 - f) + cshaped[k + 1] * f
        })
        .collect();
    let complex_path = dir.join("mm_complex.bin");
    write_c64(&complex_path, &cx);
    let real_path = dir.join("mm_input.bin");
    std::fs::write(
        &real_path,
        real.iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let mm = [
        (
            "mm_4",
            4.0f32,
            0.25 * 0.175 * 0.175,
            0.5f32,
            0.175f32,
            0.005f32,
            1e-4f32,
        ),
        ("mm_wide", 4.1, 0.01, 0.0, 0.3, 0.05, 5e-3),
        ("mm_c", 4.0, 0.25 * 0.175 * 0.175, 0.5, 0.175, 0.005, 5e-3),
        ("mm_c_wide", 3.9, 0.01, 1.0, 0.3, 0.05, 5e-3),
    ];
    let is_complex = |name: &str| name.starts_with("mm_c");
    let mm_jobs: Vec<Value> = mm
        .iter()
        .map(|(name, omega, go, mu, gm, lim, _)| {
            let (t, input) = if is_complex(name) {
                ("c", &complex_path)
            } else {
                ("f", &real_path)
            };
            json!({"name": name, "type": t, "input": input, "omega": omega, "gain_omega": go,
                   "mu": mu, "gain_mu": gm, "limit": lim})
        })
        .collect();
    let job = json!({"out": dir, "modulate": modulate, "cases": job_cases, "gmsk": gmsk_jobs,
                     "mm": mm_jobs});
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/run_corr.py");
    let mut child = Command::new(PYTHON)
        .arg(script)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(job.to_string().as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "run_corr.py failed");

    for (name, c, sps, eb, taps) in &words {
        let theirs = read_c64(&dir.join(format!("{name}.bin")));
        let ours = modulated(c, *sps, *eb, &WORD, taps);
        assert_eq!(ours.len(), theirs.len(), "{name}: length");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert!(
                (a - b).norm() <= 1e-5,
                "{name} item {i}: ours {a}, GNU Radio's {b}"
            );
        }
    }

    let schedulers: Vec<Box<dyn Scheduler>> = vec![
        Box::new(SingleThread::new()),
        Box::new(ThreadPerBlock::new()),
        Box::new(FlowScheduler::new().chunk_bytes(64).buffer_bytes(1 << 15)),
    ];
    for (name, sps, bt, unpack, data) in &gmsk {
        let theirs = read_c64(&dir.join(format!("{name}.bin")));
        assert_eq!(
            theirs.len(),
            data.len() * sps * if *unpack { 8 } else { 1 },
            "{name}"
        );
        for s in &schedulers {
            let mut fg = Flowgraph::new();
            let tags = vec![Tag::new(3, "burst", Pmt::Double(1.0))];
            let src = fg.add(VectorSource::new(data.clone()).tags(tags));
            let m = fg.add(GmskMod::new(*sps, *bt, *unpack).unwrap());
            let sink = fg.add(VectorSink::<Complex32>::new());
            fg.connect(src, m).unwrap();
            fg.connect(m, sink).unwrap();
            fg.run_with(s.as_ref()).unwrap();
            let v = fg.block::<VectorSink<Complex32>>(sink).unwrap();
            let ours = v.data();
            assert_eq!(ours.len(), theirs.len(), "{name} under {}", s.name());
            for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
                assert!(
                    (a - b).norm() <= 5e-4,
                    "{name} under {}: item {i}: ours {a}, GNU Radio's {b}",
                    s.name()
                );
            }
            let per_byte = sps * if *unpack { 8 } else { 1 };
            assert_eq!(v.tags()[0].offset, 3 * per_byte as u64, "{name}: the tag");
        }
    }
    for (name, omega, go, mu, gm, lim, tolerance) in &mm {
        let b = std::fs::read(dir.join(format!("{name}.bin"))).unwrap();
        let floats: Vec<f32> = b
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        let width = if is_complex(name) { 2 } else { 1 };
        let theirs = floats.len() / width;
        assert!(theirs > 350, "{name}: GNU Radio made {theirs}");
        for s in &schedulers {
            let mut fg = Flowgraph::new();
            let tags = vec![Tag::new(401, "mark", Pmt::Double(1.0))];
            let (got, tag_at): (Vec<f32>, u64) = if is_complex(name) {
                let src = fg.add(VectorSource::new(cx.clone()).tags(tags));
                let m =
                    fg.add(ClockRecoveryMm::<Complex32>::new(*omega, *go, *mu, *gm, *lim).unwrap());
                let sink = fg.add(VectorSink::<Complex32>::new());
                fg.connect(src, m).unwrap();
                fg.connect(m, sink).unwrap();
                fg.run_with(s.as_ref()).unwrap();
                let v = fg.block::<VectorSink<Complex32>>(sink).unwrap();
                (
                    v.data().iter().flat_map(|c| [c.re, c.im]).collect(),
                    v.tags()[0].offset,
                )
            } else {
                let src = fg.add(VectorSource::new(real.clone()).tags(tags));
                let m = fg.add(ClockRecoveryMm::<f32>::new(*omega, *go, *mu, *gm, *lim).unwrap());
                let sink = fg.add(VectorSink::<f32>::new());
                fg.connect(src, m).unwrap();
                fg.connect(m, sink).unwrap();
                fg.run_with(s.as_ref()).unwrap();
                let v = fg.block::<VectorSink<f32>>(sink).unwrap();
                (v.data().to_vec(), v.tags()[0].offset)
            };
            // GNU Radio stops when what is left is less than its forecast for one output
            // (`⌈omega⌉ + 8` inputs, complex 16 more) at a work call's end; within a call, at
            // 9 (complex 25): an output or two fewer, by where its calls end.
            let n = got.len() / width;
            assert!(
                (theirs..=theirs + 2).contains(&n),
                "{name} under {}: {n} outputs, GNU Radio {theirs}",
                s.name()
            );
            for (i, (a, b)) in got.iter().zip(&floats).enumerate() {
                assert!(
                    (a - b).abs() <= *tolerance,
                    "{name} under {}: real {i}: ours {a}, GNU Radio's {b}",
                    s.name()
                );
            }
            // The tag on input 401 is on the output whose window starts there or after (the
            // signal has 4.03 samples per symbol, which the loops track).
            assert!(
                (tag_at as f32 - 401.0 / 4.03).abs() <= 3.0,
                "{name}: the tag at {tag_at}"
            );
        }
    }
    for bad in [
        (0.5, 0.0, 0.5, 0.1),
        (4.0, -1.0, 0.5, 0.1),
        (4.0, 0.0, 1.5, 0.1),
        (4.0, 0.0, 0.5, -0.1),
    ] {
        assert!(ClockRecoveryMm::<f32>::new(bad.0, bad.1, bad.2, bad.3, 0.005).is_err());
        let omega = if bad.0 < 1.0 { 0.0 } else { bad.0 };
        assert!(ClockRecoveryMm::<Complex32>::new(omega, bad.1, bad.2, bad.3, 0.005).is_err());
    }
    // GNU Radio's complex variant takes omega below 1.
    assert!(ClockRecoveryMm::<Complex32>::new(0.5, 0.0, 0.5, 0.1, 0.005).is_ok());
    assert!(GmskMod::new(1, 0.35, true).is_err());
    assert!(GmskMod::new(2, 0.0, true).is_err());

    for case in &cases {
        let base = dir.join(case.name);
        let out = read_c64(&base.with_extension("out.bin"));
        let json: Value = serde_json::from_str(
            &std::fs::read_to_string(base.with_extension("tags.json")).unwrap(),
        )
        .unwrap();
        let (out_tags, corr_tags) = (parse_tags(&json["out"]), parse_tags(&json["corr"]));
        assert!(
            out_tags.iter().filter(|t| t.1 == "corr_start").count() >= 3,
            "{}: GNU Radio found {out_tags:?}",
            case.name
        );
        let m = out.len();
        assert_eq!(
            m,
            len / window * window,
            "{}: GNU Radio's length",
            case.name
        );
        for s in &schedulers {
            let at = format!("{} under {}", case.name, s.name());
            let (o, c, ot, ct) = ours(case, &word, &input, s.as_ref());
            assert_eq!(o.len(), len, "{at}: out's length");
            assert_eq!(&o[..m], &out[..], "{at}: out");
            check_tags(&at, &ot, &out_tags, m);
            if case.corr {
                let corr = read_c64(&base.with_extension("corr.bin"));
                assert_eq!(c.len(), len, "{at}: corr's length");
                let peak = corr.iter().map(|v| v.norm()).fold(0.0, f32::max);
                for (i, (a, b)) in c.iter().zip(&corr).enumerate() {
                    assert!(
                        (a - b).norm() <= 1e-4 * peak,
                        "{at}: corr {i}: ours {a}, GNU Radio's {b}"
                    );
                }
                check_tags(&at, &ct, &corr_tags, m);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_parameters_are_refused_naming_them() {
    let w = [Complex32::new(1.0, 0.0); 4];
    let err = |r: Result<CorrEst<Complex32>, (&'static str, String)>| r.unwrap_err().0;
    assert_eq!(
        err(CorrEst::new(&[], 4.0, 0, 0.9, CorrThreshold::Absolute)),
        "symbols"
    );
    assert_eq!(
        err(CorrEst::new(&w, 0.0, 0, 0.9, CorrThreshold::Absolute)),
        "sps"
    );
    assert_eq!(
        err(CorrEst::new(&w, 4.0, 0, 1.5, CorrThreshold::Absolute)),
        "threshold"
    );
    assert_eq!(
        err(CorrEst::new(&w, 4.0, 0, 1.0, CorrThreshold::Dynamic)),
        "threshold"
    );
    assert!(CorrEst::new(&w, 4.0, 99, 1.0, CorrThreshold::Absolute).is_ok());
}
