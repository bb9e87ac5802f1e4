//! The element-wise family against GNU Radio 3.10 itself: the same inputs go through GNU
//! Radio's blocks (`gnuradio/element_wise.py`, every case in one GNU Radio process) and
//! through radioflow's, compared item for item: exactly, or within the tolerance each case
//! states where VOLK's kernels round differently (see `support/element_wise.rs`). Inputs where
//! GNU Radio's result is not defined (or its process would die) are checked against the naive
//! reference only (`element_wise.rs`). SKIPPED where GNU Radio is not installed.

#[path = "support/element_wise.rs"]
mod support;

use radioflow_blocks::runtime::SingleThread;
use std::path::Path;
use std::process::Command;
use support::{cases, compare};

const PYTHON: &str = "/usr/bin/python3";

fn gnuradio_present() -> bool {
    Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn every_member_computes_what_gnu_radio_computes() {
    if !gnuradio_present() {
        println!("SKIPPED: GNU Radio not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<_> = cases().into_iter().filter(|c| c.gr_tol.is_some()).collect();
    let file = |c: usize, what: &str, p: usize| dir.path().join(format!("{c}-{what}{p}.bin"));
    let mut specs = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let spec = |what: &str, data: &[support::Data], write: bool| -> Vec<serde_json::Value> {
            data.iter()
                .enumerate()
                .map(|(p, d)| {
                    let path = file(c, what, p);
                    if write {
                        std::fs::write(&path, d.to_bytes()).unwrap();
                    }
                    serde_json::json!({"file": path, "itemsize": d.item_size()})
                })
                .collect()
        };
        specs.push(serde_json::json!({
            "make": case.gr,
            "inputs": spec("in", &case.inputs, true),
            "outputs": spec("out", &case.want, false),
        }));
    }
    let list = dir.path().join("cases.json");
    std::fs::write(&list, serde_json::to_string(&specs).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gnuradio/element_wise.py");
    let out = Command::new(PYTHON)
        .arg(&script)
        .arg(&list)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "GNU Radio failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let mut failures = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let ours = case.run(|fg| fg.run_with(&SingleThread::new()).unwrap());
        for (p, (got, kind)) in ours.iter().zip(&case.want).enumerate() {
            let theirs = kind.same_kind_from(&std::fs::read(file(c, "out", p)).unwrap());
            if let Err(e) = compare(got, &theirs, case.gr_tol.expect("filtered")) {
                failures.push(format!("{} ({}): output {p}: {e}", case.name, case.gr));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
