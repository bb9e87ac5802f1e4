//! `radioflow grc check DIR --run SECONDS`: each flowgraph of a folder read, built and run,
//! and the table says what became of each.

use std::path::Path;
use std::process::Command;

/// A block of a GRC file: name, id and parameters (key, value).
type GrcBlock<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// A GRC file of `blocks` and `connections`.
fn grc(blocks: &[GrcBlock], connections: &[&str]) -> String {
    let mut s = String::from(
        "options:\n  parameters:\n    id: check\n  states:\n    state: enabled\n\nblocks:\n",
    );
    for (name, id, params) in blocks {
        s += &format!("- name: {name}\n  id: {id}\n  parameters:\n");
        for (k, v) in *params {
            s += &format!("    {k}: {v}\n");
        }
        s += "  states:\n    coordinate: [0, 0]\n    rotation: 0\n    state: enabled\n";
    }
    s += "\nconnections:\n";
    for c in connections {
        s += &format!("- {c}\n");
    }
    s + "\nmetadata:\n  file_format: 1\n"
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_folder_s_flowgraphs_are_each_run_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let float = [("type", "float")];
    write(
        dir.path(),
        "ends/a/finite.grc",
        &grc(
            &[
                ("src", "blocks_null_source", &float),
                (
                    "head",
                    "blocks_head",
                    &[("type", "float"), ("num_items", "'1000'")],
                ),
                ("snk", "blocks_null_sink", &float),
            ],
            &["[src, '0', head, '0']", "[head, '0', snk, '0']"],
        ),
    );
    write(
        dir.path(),
        "endless/b/endless.grc",
        &grc(
            &[
                ("src", "blocks_null_source", &float),
                ("snk", "blocks_null_sink", &float),
            ],
            &["[src, '0', snk, '0']"],
        ),
    );
    write(
        dir.path(),
        "endless/c/gui.grc",
        &grc(
            &[
                ("src", "blocks_null_source", &float),
                ("scope", "qtgui_time_sink_x", &float),
            ],
            &["[src, '0', scope, '0']"],
        ),
    );
    write(
        dir.path(),
        "ends/d/vocoder.grc",
        &grc(
            &[
                ("src", "blocks_null_source", &float),
                ("speaker", "vocoder_codec2_decode_ps", &[]),
            ],
            &["[src, '0', speaker, '0']"],
        ),
    );
    write(
        dir.path(),
        "ends/e/broken.grc",
        "metadata: [not a flowgraph",
    );
    // A radio that is not there: a result of its own, not an error of the flowgraph.
    write(
        dir.path(),
        "ends/f/radio.grc",
        &grc(
            &[
                (
                    "radio",
                    "soapy_custom_source",
                    &[
                        ("type", "fc32"),
                        ("driver", "nonesuch"),
                        ("nchan", "1"),
                        ("dev_args", "''"),
                        ("stream_args", "''"),
                        ("samp_rate", "1e6"),
                        ("tune_args0", "''"),
                        ("settings0", "''"),
                        ("bandwidth0", "0"),
                        ("antenna0", "RX"),
                        ("center_freq0", "100e6"),
                        ("freq_correction0", "0"),
                        ("agc0", "False"),
                        ("gain0", "10"),
                        ("dc_removal0", "True"),
                        ("dc_offset0", "0"),
                        ("iq_balance0", "0"),
                    ],
                ),
                ("sink", "blocks_null_sink", &[("type", "complex")]),
            ],
            &["[radio, '0', sink, '0']"],
        ),
    );
    // A hierarchical block (GRC's generate_options: hb) and a flowgraph that uses it.
    let hier = grc(
        &[
            ("pad_source_0", "pad_source", &[("type", "float")]),
            (
                "head",
                "blocks_head",
                &[("type", "float"), ("num_items", "'1000'")],
            ),
            ("pad_sink_0", "pad_sink", &[("type", "float")]),
        ],
        &[
            "[pad_source_0, '0', head, '0']",
            "[head, '0', pad_sink_0, '0']",
        ],
    )
    .replace(
        "    id: check\n",
        "    id: finite_hb\n    generate_options: hb\n",
    );
    write(dir.path(), "ends/g/finite_hb.grc", &hier);
    write(
        dir.path(),
        "ends/g/uses_hb.grc",
        &grc(
            &[
                ("src", "blocks_null_source", &float),
                ("part", "finite_hb", &[]),
                ("snk", "blocks_null_sink", &float),
            ],
            &["[src, '0', part, '0']", "[part, '0', snk, '0']"],
        ),
    );
    // The flowgraphs that end or fail are checked with a limit they never reach (a hang
    // guard); those that never end with a short one: neither outcome depends on the time.
    let check = |folder: &str, seconds: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
            .args(["grc", "check"])
            .arg(dir.path().join(folder))
            .args(["--run", seconds])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    let line = |stdout: &str, file: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(file))
            .unwrap_or_else(|| panic!("no line for {file}:\n{stdout}"))
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let ends = check("ends", "120");
    assert_eq!(line(&ends, "a/finite.grc"), "runs");
    assert_eq!(
        line(&ends, "d/vocoder.grc"),
        "unsupported blocks vocoder_codec2_decode_ps"
    );
    assert!(line(&ends, "e/broken.grc").starts_with("error "), "{ends}");
    assert_eq!(line(&ends, "g/finite_hb.grc"), "hierarchical block");
    assert_eq!(line(&ends, "g/uses_hb.grc"), "runs");
    if cfg!(feature = "soapysdr") {
        let radio = line(&ends, "f/radio.grc");
        assert!(
            radio.starts_with("needs an absent device block 'radio'")
                && radio.contains("driver=nonesuch"),
            "{ends}"
        );
        assert!(
            ends.contains(
                "6 flowgraphs: 1 error, 1 hierarchical block, 1 needs an absent device, 2 runs, \
                 1 unsupported blocks"
            ),
            "{ends}"
        );
    } else {
        assert!(
            ends.contains(
                "6 flowgraphs: 1 error, 1 hierarchical block, 2 runs, 2 unsupported blocks"
            ),
            "{ends}"
        );
    }
    assert!(
        ends.contains(
            "1 GNU Radio ids missing; by flowgraphs needing each: vocoder_codec2_decode_ps 1"
        ),
        "{ends}"
    );
    let endless = check("endless", "0.5");
    // It never ends by itself, so it is still running when the time is up.
    assert_eq!(line(&endless, "b/endless.grc"), "runs until stopped");
    // The display runs headless: what it would show is discarded.
    assert_eq!(
        line(&endless, "c/gui.grc"),
        "runs until stopped (GUI headless)"
    );
    assert!(
        endless.contains("2 flowgraphs: 1 runs until stopped, 1 runs until stopped (GUI headless)"),
        "{endless}"
    );
}

#[test]
fn grc_list_of_one_id_says_what_each_parameter_becomes() {
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(["grc", "list", "blocks_throttle"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("samples_per_second   -> sample_rate"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ignoretag            -> only where radioflow's block does the same (radioflow's throttle does not follow rx_rate tags)"),
        "{stdout}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(["grc", "list", "vocoder_codec2_decode_ps"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("does not run GNU Radio block 'vocoder_codec2_decode_ps'"));
}

#[test]
fn a_flowgraph_with_embedded_python_goes_to_the_python_package_or_says_what_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let float = [("type", "float")];
    let code = [
        ("code", "print('started')"),
        ("section", "main_after_start"),
    ];
    write(
        dir.path(),
        "snippet.grc",
        &grc(
            &[
                ("src", "blocks_null_source", &float),
                ("snk", "blocks_null_sink", &float),
                ("say", "snippet", &code),
            ],
            &["[src, '0', snk, '0']"],
        ),
    );
    let file = dir.path().join("snippet.grc");
    let python = dir.path().join("no-such-python");
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .arg("run")
        .arg(&file)
        .env("RADIOFLOW_PYTHON", &python)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("holds embedded Python (say (snippet))")
            && stderr.contains(&format!(
                "then run `{} -m radioflow.gnuradio {}`",
                python.display(),
                file.display()
            )),
        "{stderr}"
    );
    // Checked without running: the rest of the file is described, the snippet not refused.
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(["grc", "check"])
        .arg(&file)
        .env("RADIOFLOW_PYTHON", &python)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1 flowgraphs: 1 builds"), "{stdout}");
}
