//! GNU Radio's adaptive algorithm objects in a .grc (`variable_adaptive_algorithm` of each
//! type, its constellation a `variable_constellation`) feeding `digital_linear_equalizer`
//! and `digital_decision_feedback_equalizer` (trained from a tag, its taps and state
//! outputs written): radioflow writes what GNU Radio writes for the same file (when GNU
//! Radio is installed: grcc and its Python bindings), within 1e-5 (GNU Radio's filters sum
//! with VOLK in another order; crates/digital/tests/gnuradio_equalizers.rs says more). The
//! expressions that make algorithms, and their errors.

use super::{ev, scratch, support};
use num_complex::Complex32;
use radioflow_graphfile::grc::Value;
use radioflow_graphfile::parse_grc;
use std::path::Path;

const EQUALIZERS: &str = include_str!("equalizers.grc");
const FILES: [&str; 4] = ["le.c64", "dfe.c64", "dfe_taps.c64", "nlms.c64"];

fn complex(path: &Path) -> Vec<Complex32> {
    let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
    std::fs::read(path)
        .unwrap()
        .chunks_exact(8)
        .map(|b| Complex32::new(f(&b[..4]), f(&b[4..])))
        .collect()
}

/// The file's text with its sinks writing into `dir` under `prefix`.
fn with_files(dir: &Path, prefix: &str) -> String {
    let mut text = EQUALIZERS.to_owned();
    for f in FILES.iter().chain(&["dfe_state.s16"]) {
        text = text.replace(
            &format!("file: {f}"),
            &format!("file: {}", dir.join(format!("{prefix}{f}")).display()),
        );
    }
    text
}

#[test]
fn equalizers_in_a_grc_run_as_in_gnu_radio() {
    let dir = scratch("equalizers");
    let mut graph = parse_grc(&with_files(&dir, "ours_"), "equalizers.grc").unwrap();
    graph.flowgraph.run().unwrap();
    let state = std::fs::read(dir.join("ours_dfe_state.s16")).unwrap();
    // 600 symbols; the DFE trains on the 32 preamble symbols from the tag at symbol 20.
    assert_eq!(state.len(), 1200);
    let states: Vec<u8> = state.chunks_exact(2).map(|b| b[0]).collect();
    assert_eq!(&states[19..23], &[0, 0, 1, 1]);
    assert_eq!(&states[52..54], &[1, 2]);
    if !support::gnuradio("digital") {
        return;
    }
    support::run_in_gnuradio(&dir, "equalizers", &with_files(&dir, ""));
    assert_eq!(state, std::fs::read(dir.join("dfe_state.s16")).unwrap());
    for f in FILES {
        let (ours, theirs) = (
            complex(&dir.join(format!("ours_{f}"))),
            complex(&dir.join(f)),
        );
        assert_eq!(ours.len(), theirs.len(), "{f}");
        for (n, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert!(
                (a - b).norm() <= 1e-5,
                "{f} item {n}: radioflow {a}, GNU Radio {b}"
            );
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn gnu_radio_s_algorithm_objects_evaluate_to_their_text_form() {
    let text = |v: Value| match v {
        Value::Str(s) => s,
        other => panic!("not a string: {other}"),
    };
    assert_eq!(
        text(
            ev(
                "digital.adaptive_algorithm_lms(digital.constellation_qpsk().base(), 0.01).base()",
                &[]
            )
            .unwrap()
        ),
        "lms step=0.01 | qpsk"
    );
    assert_eq!(
        text(
            ev(
                "digital.adaptive_algorithm_nlms(cons=digital.constellation_bpsk(), step_size=0.5)",
                &[]
            )
            .unwrap()
        ),
        "nlms step=0.5 | bpsk"
    );
    assert_eq!(
        text(
            ev(
                "digital.adaptive_algorithm_cma(digital.constellation_8psk(), 1e-4, 1)",
                &[]
            )
            .unwrap()
        ),
        "cma step=0.0001 modulus=1 | 8psk"
    );
    for (wrong, says) in [
        (
            "digital.adaptive_algorithm_lms(1, 0.1)",
            "must be a constellation",
        ),
        (
            "digital.adaptive_algorithm_lms(digital.constellation_qpsk(), 'x')",
            "must be a number",
        ),
        (
            "digital.adaptive_algorithm_cma(digital.constellation_qpsk(), 0.1)",
            "modulus",
        ),
        (
            "digital.adaptive_algorithm_rls(digital.constellation_qpsk(), 0.99, 10)",
            "rls",
        ),
        (
            "digital.adaptive_algorithm_lms(digital.constellation_qpsk(), 0.1).taps()",
            "base()",
        ),
    ] {
        let e = ev(wrong, &[]).unwrap_err();
        assert!(e.contains(says), "{wrong}: {e}");
    }
}
