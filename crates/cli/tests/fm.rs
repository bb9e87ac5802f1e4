//! `radioflow fm`: a station from a recording to a WAV file, and bad input as one clear line.

use std::f64::consts::PI;
use std::process::Command;

fn radioflow(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .arg("fm")
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_recording_becomes_a_wav_file_with_a_summary() {
    let dir = std::env::temp_dir().join(format!("radioflow-cli-fm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 0.1 s of a carrier at +100 kHz of 480 kHz, FM by a 1 kHz tone, as cu8.
    let (fs, n) = (480e3, 48_000);
    let mut phase = 0.0f64;
    let bytes: Vec<u8> = (0..n)
        .flat_map(|k| {
            let tone = (2.0 * PI * 1e3 * k as f64 / fs).sin();
            phase += 2.0 * PI * (100e3 + 37.5e3 * tone) / fs;
            [phase.cos(), phase.sin()].map(|v| (v * 100.0 + 127.5).round() as u8)
        })
        .collect();
    let input = dir.join("station.cu8");
    let wav = dir.join("station.wav");
    std::fs::write(&input, bytes).unwrap();
    let (ok, out, err) = radioflow(&[
        "--input",
        input.to_str().unwrap(),
        "--format",
        "cu8",
        "--rate",
        "4.8e5",
        "--offset",
        "100e3",
        "--wav",
        wav.to_str().unwrap(),
        "--mono",
        "--rds",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("48000 samples, 0.10 s of signal in "),
        "{out}"
    );
    assert!(out.contains("x real time"), "{out}");
    assert!(out.contains("(4800 frames at 48000 Hz)"), "{out}");
    // No RDS on this carrier: the summary says so with its (zero) block counts.
    assert!(out.contains("RDS: PI -, PS \"\""), "{out}");
    // A 16-bit mono WAV header and 4800 samples.
    assert_eq!(std::fs::metadata(&wav).unwrap().len(), 44 + 2 * 4800);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_sigmf_recording_gives_its_format_and_rate() {
    let dir = tempfile::tempdir().unwrap();
    // The carrier of the test above, as a SigMF recording in cu8 at 480 kHz.
    let (fs, n) = (480e3, 48_000);
    let mut phase = 0.0f64;
    let bytes: Vec<u8> = (0..n)
        .flat_map(|k| {
            let tone = (2.0 * PI * 1e3 * k as f64 / fs).sin();
            phase += 2.0 * PI * (100e3 + 37.5e3 * tone) / fs;
            [phase.cos(), phase.sin()].map(|v| (v * 100.0 + 127.5).round() as u8)
        })
        .collect();
    std::fs::write(dir.path().join("station.sigmf-data"), bytes).unwrap();
    let meta = dir.path().join("station.sigmf-meta");
    let write_meta = |global: &str| {
        std::fs::write(
            &meta,
            format!(
                r#"{{"global": {{"core:datatype": "cu8", "core:version": "1.2.0"{global}}},
                    "captures": [{{"core:sample_start": 0, "core:frequency": 98.1e6}}], "annotations": []}}"#
            ),
        )
        .unwrap()
    };
    write_meta(r#", "core:sample_rate": 480000"#);
    let wav = dir.path().join("station.wav");
    let (ok, out, err) = radioflow(&[
        "--input",
        meta.to_str().unwrap(),
        "--offset",
        "100e3",
        "--wav",
        wav.to_str().unwrap(),
        "--mono",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("48000 samples, 0.10 s of signal in "),
        "{out}"
    );
    assert_eq!(std::fs::metadata(&wav).unwrap().len(), 44 + 2 * 4800);
    // Format and rate come from the metadata, not the command line.
    let (ok, _, err) = radioflow(&[
        "--input",
        meta.to_str().unwrap(),
        "--rate",
        "2.4e6",
        "--offset",
        "0",
    ]);
    assert!(!ok);
    assert!(
        err.contains("--format and --rate are taken from the SigMF metadata"),
        "{err}"
    );
    write_meta("");
    let (ok, _, err) = radioflow(&["--input", meta.to_str().unwrap(), "--offset", "0"]);
    assert!(!ok);
    let want = format!(
        "error: {}: global.core:sample_rate: missing: the receiver needs the sample rate",
        meta.display()
    );
    assert!(err.starts_with(&want), "{err}");
}

#[test]
fn bad_input_is_one_error_naming_the_file_or_option() {
    let (ok, _, err) = radioflow(&[
        "--input",
        "/no/such.cu8",
        "--format",
        "cu8",
        "--rate",
        "2.4e6",
        "--offset",
        "0",
    ]);
    assert!(!ok);
    assert!(
        err.starts_with("error: cannot read the input '/no/such.cu8'"),
        "{err}"
    );
    let (ok, _, err) = radioflow(&[
        "--input",
        "/no/such.cu8",
        "--format",
        "u8",
        "--rate",
        "2.4e6",
        "--offset",
        "0",
    ]);
    assert!(!ok);
    assert!(err.contains("unknown sample format 'u8'"), "{err}");
    let (ok, _, err) = radioflow(&[
        "--input",
        "/no/such.cu8",
        "--format",
        "cu8",
        "--rate",
        "2.4e6",
        "--offset",
        "0",
        "--deemphasis",
        "60",
    ]);
    assert!(!ok);
    assert!(err.contains("--deemphasis"), "{err}");
}
