//! GNU Radio as the oracle of the `.grc` tests: whether it is installed, and a flowgraph run
//! through its own `grcc` and Python in a scratch directory.
#![allow(dead_code, unreachable_pub)]

use std::path::Path;
use std::process::Command;

/// Whether GNU Radio can run a `.grc` here (`grcc`, and `gnuradio.MODULE` importable by
/// `/usr/bin/python3`); says SKIPPED when not.
pub fn gnuradio(module: &str) -> bool {
    let there = Command::new("/usr/bin/python3")
        .args(["-c", &format!("import gnuradio.{module}")])
        .status()
        .is_ok_and(|s| s.success())
        && Path::new("/usr/bin/grcc").exists();
    if !there {
        eprintln!(
            "SKIPPED: GNU Radio (grcc and its Python bindings on /usr/bin/python3) is not installed"
        );
    }
    there
}

/// Writes `text` to `DIR/NAME.grc`, turns it into Python with `grcc` and runs it in `dir` with
/// GNU Radio (the file's `options` id must be `name`); panics with GNU Radio's error output.
pub fn run_in_gnuradio(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(format!("{name}.grc")), text).unwrap();
    let grcc = Command::new("/usr/bin/grcc")
        .args(["-o", ".", &format!("{name}.grc")])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        grcc.status.success(),
        "grcc: {}",
        String::from_utf8_lossy(&grcc.stderr)
    );
    let run = Command::new("/usr/bin/python3")
        .arg(format!("{name}.py"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "GNU Radio: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}
