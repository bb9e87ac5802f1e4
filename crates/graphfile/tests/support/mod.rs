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

/// One of GNU Radio's transmitter examples (gr-dtv's) made finite and file to file: its file
/// source reads `ts` once, its (disabled) file sink writes `out`, its device sink is disabled;
/// `headless` (for GNU Radio: no display, no radio) also disables the QT GUI blocks and the
/// `tx_gain` slider and runs without prompting.
pub fn edit_example(text: &str, ts: &Path, out: &Path, headless: bool) -> String {
    let set_file = |b: &str, path: &Path| {
        b.lines()
            .map(|l| {
                if l.starts_with("    file: ") {
                    format!("    file: {}", path.display())
                } else {
                    l.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + if b.ends_with('\n') { "\n" } else { "" }
    };
    let mut blocks: Vec<String> = text.split("\n- name: ").map(str::to_owned).collect();
    for b in &mut blocks {
        let name = b.lines().next().unwrap_or_default().to_owned();
        match name.as_str() {
            "blocks_file_source_0" => {
                *b = set_file(b, ts).replace("repeat: 'True'", "repeat: 'False'");
            }
            "blocks_file_sink_0" => {
                *b = set_file(b, out).replace("state: disabled", "state: enabled")
            }
            "soapy_custom_sink_0" => *b = b.replace("state: true", "state: disabled"),
            n if headless && (n.starts_with("qtgui_") || n == "tx_gain") => {
                *b = b.replace("state: enabled", "state: disabled");
            }
            _ => {}
        }
    }
    let text = blocks.join("\n- name: ");
    if headless {
        text.replace("generate_options: qt_gui", "generate_options: no_gui")
            .replace("run_options: prompt", "run_options: run")
    } else {
        text
    }
}
