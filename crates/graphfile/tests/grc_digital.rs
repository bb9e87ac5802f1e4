//! GNU Radio's constellation objects in a .grc (`variable_constellation` with a
//! soft-decision table, `variable_constellation_rect`, `digital.psk_4()` tables,
//! `cons.points()`, `cons.arity()`) feeding gr-digital blocks: radioflow writes what GNU Radio
//! writes for the same file (when GNU Radio is installed: grcc and its Python bindings). The
//! expressions that make constellations, and their errors.

mod support;

use num_complex::Complex64;
use radioflow_graphfile::grc::{evaluate, Value};
use radioflow_graphfile::{describe_grc, parse_grc};
use radioflow_library::digital::Constellation;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const CONSTELLATIONS: &str = include_str!("grc/constellations.grc");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("radioflow-grc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn floats(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// Runs constellations.grc in radioflow, writing into `dir`: (soft bits, hard symbols).
fn run_ours(dir: &Path) -> (Vec<f32>, Vec<u8>) {
    let (soft, hard) = (dir.join("ours_soft.f32"), dir.join("ours_hard.u8"));
    let text = CONSTELLATIONS
        .replace("file: soft.f32", &format!("file: {}", soft.display()))
        .replace("file: hard.u8", &format!("file: {}", hard.display()));
    let mut graph = parse_grc(&text, "constellations.grc").unwrap();
    graph.flowgraph.run().unwrap();
    (floats(&soft), std::fs::read(&hard).unwrap())
}

#[test]
fn constellation_objects_in_a_grc_run_as_in_gnu_radio() {
    let dir = scratch("constellations");
    let (soft, hard) = run_ours(&dir);
    // 300 QPSK symbols: two soft bits each; the rect decisions differentially encoded mod 4.
    assert_eq!((soft.len(), hard.len()), (600, 300));
    assert!(hard.iter().all(|&h| h < 4));
    if !support::gnuradio("digital") {
        return;
    }
    support::run_in_gnuradio(&dir, "constellations", CONSTELLATIONS);
    assert_eq!(hard, std::fs::read(dir.join("hard.u8")).unwrap());
    let theirs = floats(&dir.join("soft.f32"));
    assert_eq!(theirs.len(), soft.len());
    for (n, (a, b)) in soft.iter().zip(&theirs).enumerate() {
        assert!(
            (a - b).abs() <= 1e-4 * b.abs().max(1.0),
            "soft bit {n}: radioflow {a}, GNU Radio {b}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

fn ev(text: &str, vars: &[(&str, &str)]) -> std::result::Result<Value, String> {
    evaluate(text, vars).map_err(|e| e.to_string())
}

fn constellation(v: Value) -> Arc<Constellation> {
    match v {
        Value::Constellation(c) => c,
        other => panic!("not a constellation: {other}"),
    }
}

#[test]
fn gnu_radio_s_constellations_and_tables_evaluate_with_their_methods() {
    let q = constellation(ev("digital.constellation_qpsk().base()", &[]).unwrap());
    assert_eq!(q.to_string(), "qpsk");
    let vars = [("c", "digital.constellation_16qam()")];
    assert_eq!(ev("c.bits_per_symbol()", &vars), Ok(Value::Int(4)));
    assert_eq!(ev("c.arity()", &vars), Ok(Value::Int(16)));
    let Ok(Value::List(points)) = ev("c.points()", &vars) else {
        panic!("points")
    };
    assert_eq!(points.len(), 16);
    // GNU Radio's Python helpers (pam_sync.grc: `digital.qpsk_constellation()`).
    for (helper, kind) in [("bpsk", "bpsk"), ("qpsk", "qpsk"), ("dqpsk", "dqpsk")] {
        let c = constellation(ev(&format!("digital.{helper}_constellation()"), &[]).unwrap());
        assert_eq!(c.to_string(), kind);
    }
    assert!(ev("digital.qpsk_constellation(1)", &[]).is_err());
    assert_eq!(
        ev("digital.psk_2()", &[]),
        Ok(Value::List(vec![
            Value::List(vec![
                Value::Complex(Complex64::new(-1.0, 0.0)),
                Value::Complex(Complex64::new(1.0, 0.0))
            ]),
            Value::List(vec![Value::Int(0), Value::Int(1)]),
        ]))
    );
    // As GNU Radio's examples write it.
    let c = constellation(
        ev(
            "digital.constellation_calcdist((digital.psk_2()[0]), (digital.psk_2()[1]), 2, 1, \
             digital.constellation.AMPLITUDE_NORMALIZATION).base()",
            &[],
        )
        .unwrap(),
    );
    assert_eq!(
        c.to_string(),
        "calcdist points=-1,0;1,0 map=0,1 rot=2 dim=1 norm=amplitude"
    );
    let r = constellation(
        ev(
            "digital.constellation_rect(digital.qam_16()[0], digital.qam_16()[1], 4, 4, 4, 2, 2, \
             normalization=digital.constellation.POWER_NORMALIZATION)",
            &[],
        )
        .unwrap(),
    );
    assert_eq!(r.arity(), 16);
    assert!(r.to_string().ends_with("sectors=4,4 widths=2,2 norm=power"));
    // A parameter takes the text form.
    assert_eq!(
        Value::Constellation(q).to_pmt(),
        radioflow_runtime::Pmt::symbol("qpsk")
    );
}

#[test]
fn wrong_constellations_are_errors_naming_the_function_and_what_is_wrong() {
    for (text, want) in [
        (
            "digital.constellation_calcdist([1, -1], [0], 2, 1)",
            "digital.constellation_calcdist: constellation: the symbol map has 1 values for 2 points",
        ),
        (
            "digital.constellation_calcdist([1, -1], [0, 1], 2)",
            "argument 'dimensionality' is missing",
        ),
        (
            "digital.constellation_calcdist([1, 'a'], [0, 1], 2, 1)",
            "a point is a str, not a number",
        ),
        (
            "digital.constellation_calcdist([1, -1], [0, 1], 2, 1, 7)",
            "normalization must be",
        ),
        ("digital.constellation_qpsk(1)", "takes no arguments"),
        (
            "digital.constellation_qpsk().gen_soft_dec_lut(8)",
            "constellation.gen_soft_dec_lut() is not supported",
        ),
        ("digital.psk_8()", "'digital.psk_8' is not supported"),
        (
            "digital.soft_dec_table_generator(1, 8, 1)",
            "soft-decision table generators",
        ),
        ("(1).base()", "a int has no method base()"),
    ] {
        let e = ev(text, &[]).unwrap_err();
        assert!(e.contains(want), "{text}: {e}");
    }
}

/// A soft-decision table given as values is refused, naming the variable.
#[test]
fn a_soft_decision_table_given_as_values_is_refused() {
    let text = CONSTELLATIONS.replace(
        "    soft_dec_lut: '''auto'''",
        "    soft_dec_lut: '[[0.0, 1.0]]'",
    );
    assert_ne!(text, CONSTELLATIONS);
    let e = describe_grc(&text, "lut.grc").unwrap_err().to_string();
    assert!(
        e.contains("cons") && e.contains("a soft-decision table given as values"),
        "{e}"
    );
}

/// GRC's `in_type` picks radioflow's block for the chunk type, `out_type` its item type.
#[test]
fn chunks_to_symbols_becomes_the_block_of_its_chunk_type() {
    for (in_type, out_type, block, dtype) in [
        ("byte", "complex", "chunks_to_symbols", "complex64"),
        ("short", "float", "chunks_to_symbols_short", "float32"),
        ("int", "complex", "chunks_to_symbols_int", "complex64"),
    ] {
        let text = CONSTELLATIONS
            .replace("in_type: byte", &format!("in_type: {in_type}"))
            .replace("out_type: complex", &format!("out_type: {out_type}"))
            .replace(
                "symbol_table: cons.points()",
                "symbol_table: '[-1.0, 1.0, 0.5, 2.0]'",
            );
        let g = describe_grc(&text, "chunks.grc").unwrap();
        let spec = g.block("mapper").unwrap();
        assert_eq!(spec.block, block);
        assert_eq!(spec.dtype.as_deref(), Some(dtype));
        assert!(!spec.params.iter().any(|(k, _)| k.ends_with("_type")));
    }
}

/// A long value named in an error is cut, as every evaluator error cuts what it echoes.
#[test]
fn errors_echo_long_values_cut() {
    for text in [
        "digital.constellation_calcdist([1, -1], [0, 1], 2, 1, 'n' * 100000)",
        "digital.constellation_calcdist([1, -1], ['m' * 100000, 1], 2, 1)",
        "digital.constellation_calcdist([1, -1], [0, 1], [0] * 100000, 1)",
    ] {
        let e = evaluate(text, &[]).unwrap_err().to_string();
        assert!(e.len() < 2000, "{} bytes", e.len());
    }
}

/// `variable_modulate_vector`'s value: GNU Radio's `modulate_vector_bc` runs the modulator
/// on the data, then the taps (checked against GNU Radio in radioflow-digital's
/// tests/gnuradio_corr.rs, which runs the same blocks); here, that the expression runs them.
#[test]
fn modulate_vector_runs_the_modulator_and_the_taps() {
    use radioflow_library::blocks::{VectorSink, VectorSource};
    use radioflow_library::digital::ConstellationModulator;
    use radioflow_runtime::{Complex32, Flowgraph};
    let mut fg = Flowgraph::new();
    let src = fg.add(VectorSource::new(vec![0xacu8, 0xdd]));
    let m = fg.add(
        ConstellationModulator::new("qpsk".parse().unwrap(), false, 4.0, 0.35, false).unwrap(),
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
    let vars = [
        (
            "rxmod",
            "digital.generic_mod(digital.constellation_qpsk(), False, 4, True, 0.35, False, False)",
        ),
        ("data", "[0xac, 0xdd]"),
    ];
    let list = |text: &str| match evaluate(text, &vars).unwrap() {
        Value::List(v) => v
            .iter()
            .map(|v| match v {
                Value::Complex(c) => Complex32::new(c.re as f32, c.im as f32),
                other => panic!("{other}"),
            })
            .collect::<Vec<_>>(),
        other => panic!("{other}"),
    };
    assert_eq!(
        list("digital.modulate_vector_bc(rxmod.to_basic_block(), data, [1])"),
        x
    );
    let filtered = list("digital.modulate_vector_bc(rxmod.to_basic_block(), data, [0.5, 0.25])");
    assert_eq!(filtered.len(), x.len());
    for (n, y) in filtered.iter().enumerate() {
        let want = x[n] * 0.5
            + if n > 0 {
                x[n - 1] * 0.25
            } else {
                Complex32::default()
            };
        assert!((y - want).norm() < 1e-6, "{n}: {y} != {want}");
    }
    for (text, wanted) in [
        (
            "digital.modulate_vector_bc(rxmod, [256], [1])",
            "not a byte",
        ),
        ("digital.modulate_vector_bc(3, data, [1])", "generic_mod"),
        (
            "digital.modulate_vector_bc(rxmod, data, [])",
            "taps is empty",
        ),
        ("digital.generic_mod(1)", "not a constellation"),
        ("rxmod.modulate()", "to_basic_block"),
    ] {
        let e = evaluate(text, &vars).unwrap_err().to_string();
        assert!(e.contains(wanted), "{text}: {e}");
    }
}

/// GNU Radio's adaptive algorithm objects and equalizers, in this binary (one link less).
#[path = "grc/equalizers.rs"]
mod equalizers;
