//! The committed golden data (`golden/*.json`) is what the installed GNU Radio makes now.
//!
//! Runs `golden/firdes.py` with Debian's `/usr/bin/python3` into a temporary directory and
//! compares the files byte for byte. Where GNU Radio is not installed the test passes and
//! says it was skipped; the unit tests always check the kernels against the committed files.

use std::path::{Path, PathBuf};
use std::process::Command;

const PYTHON: &str = "/usr/bin/python3";

fn gnu_radio_available() -> bool {
    Command::new(PYTHON)
        .args(["-c", "from gnuradio import filter, analog"])
        .output()
        .is_ok_and(|o| o.status.success())
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
    for name in ["firdes.json", "blocks.json"] {
        let fresh = std::fs::read(out.join(name)).expect("regenerated file");
        let committed = std::fs::read(golden.join(name)).expect("committed file");
        assert!(
            fresh == committed,
            "golden/{name} differs from what this GNU Radio makes: regenerate it with \
             `{PYTHON} crates/dsp/golden/firdes.py` and check the unit tests"
        );
    }
    std::fs::remove_dir_all(&out).ok();
}
