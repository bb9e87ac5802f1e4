//! The committed golden data (`golden/`) is what the installed GNU Radio makes now.
//!
//! Runs `golden/firdes.py` with Debian's `/usr/bin/python3` into a temporary directory and
//! compares the files with the committed ones. GNU Radio's VOLK kernels round differently
//! with buffer alignment, which varies from run to run, so numbers are compared within 1e-5
//! (absolute and relative) rather than byte for byte, and the SNR GNU Radio's receiver gets
//! (rounded to 0.01 dB) within 0.1 dB. Where GNU Radio is not installed the
//! test passes and says it was skipped; the unit tests always check the kernels against the
//! committed files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";
const TOL: f64 = 1e-5;

fn gnu_radio_available() -> bool {
    Command::new(PYTHON)
        .args(["-c", "from gnuradio import filter, analog"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL * (1.0 + b.abs())
}

/// Where `fresh` and `committed` differ beyond [`TOL`], as a JSON path.
fn json_difference(fresh: &Value, committed: &Value, at: &str) -> Option<String> {
    match (fresh, committed) {
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (a.as_f64()?, b.as_f64()?);
            let ok = if at.ends_with("_snr_db") {
                (a - b).abs() <= 0.1
            } else {
                close(a, b)
            };
            (!ok).then(|| format!("{at}: {a} vs {b}"))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (a, b))| json_difference(a, b, &format!("{at}[{i}]"))),
        (Value::Object(a), Value::Object(b)) if a.len() == b.len() => {
            a.iter().find_map(|(k, v)| match b.get(k) {
                Some(w) => json_difference(v, w, &format!("{at}.{k}")),
                None => Some(format!("{at}.{k}: missing")),
            })
        }
        (a, b) => (a != b).then(|| format!("{at}: {a} vs {b}")),
    }
}

#[test]
fn committed_golden_data_matches_live_gnu_radio() {
    if !gnu_radio_available() {
        eprintln!("SKIPPED: {PYTHON} cannot import gnuradio; golden data not regenerated");
        return;
    }
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let out: PathBuf =
        std::env::temp_dir().join(format!("radioflow-dsp-golden-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("temporary directory");
    let run = Command::new(PYTHON)
        .arg(golden.join("firdes.py"))
        .arg(&out)
        .output()
        .expect("run golden/firdes.py");
    assert!(
        run.status.success(),
        "golden/firdes.py failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let regenerate = "regenerate with `/usr/bin/python3 crates/dsp/golden/firdes.py` and check \
                      the unit tests";
    for name in ["firdes.json", "blocks.json", "wfm_mono.json"] {
        let read = |dir: &Path| -> Value {
            serde_json::from_slice(&std::fs::read(dir.join(name)).expect(name)).expect(name)
        };
        if let Some(d) = json_difference(&read(&out), &read(&golden), "") {
            panic!("golden/{name} differs from what this GNU Radio makes at {d}: {regenerate}");
        }
    }
    let samples = |dir: &Path| -> Vec<f32> {
        std::fs::read(dir.join("wfm_mono.cf32"))
            .expect("wfm_mono.cf32")
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    };
    let (fresh, committed) = (samples(&out), samples(&golden));
    assert_eq!(
        fresh.len(),
        committed.len(),
        "wfm_mono.cf32 length: {regenerate}"
    );
    for (i, (a, b)) in fresh.iter().zip(&committed).enumerate() {
        assert!(
            close(f64::from(*a), f64::from(*b)),
            "wfm_mono.cf32 value {i}: {a} vs {b}: {regenerate}"
        );
    }
    std::fs::remove_dir_all(&out).ok();
}
