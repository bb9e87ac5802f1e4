//! `radioflow dvbs2 tx`: the binary writes the expected number of samples and reports bad
//! options and bad TS files by name, with a failing exit status.

use std::path::Path;
use std::process::Command;

fn ts(n: usize) -> Vec<u8> {
    (0..n * 188)
        .map(|i| if i % 188 == 0 { 0x47 } else { (i * 5) as u8 })
        .collect()
}

fn tx(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(["dvbs2", "tx"])
        .args(args)
        .output()
        .expect("radioflow runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn writes_shaped_and_unshaped_files() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in.ts"), dir.path().join("out.cf32"));
    std::fs::write(&input, ts(30)).unwrap(); // 5640 bytes: 4 frames of 8PSK 3/5 short
    let common = [
        "--input",
        path(&input),
        "--out",
        path(&out),
        "--modcod",
        "8psk-3/5",
    ];
    let (ok, err) = tx(&[&common[..], &["--frame", "short", "--pilots", "off"]].concat());
    assert!(ok, "{err}");
    assert!(err.contains("5 PLFRAMEs"), "{err}");
    // 5 PLFRAMEs of 90 + 5400 symbols, 2 samples each, then the RRC filter's tail (±10
    // symbols), 8 bytes per sample.
    assert_eq!(
        std::fs::metadata(&out).unwrap().len(),
        (5 * 5490 * 2 + 40) * 8
    );
    let extra = [
        "--frame",
        "short",
        "--sps",
        "1",
        "--shaping",
        "none",
        "--rolloff",
        "0.35",
    ];
    let (ok, err) = tx(&[&common[..], &extra[..]].concat());
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::metadata(&out).unwrap().len(),
        5 * (5490 + 3 * 36) * 8
    ); // pilots on: 3 blocks of 36
}

#[test]
fn bad_modcod_frame_pair_and_ts_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in.ts"), dir.path().join("out.cf32"));
    std::fs::write(&input, ts(3)).unwrap();
    let io = ["--input", path(&input), "--out", path(&out)];
    let (ok, err) = tx(&[&io[..], &["--modcod", "64apsk-2/3"]].concat());
    assert!(!ok);
    assert!(err.contains("unknown MODCOD \"64apsk-2/3\""), "{err}");
    assert!(err.contains("valid MODCODs: qpsk-1/4"), "{err}");
    let (ok, err) = tx(&[&io[..], &["--modcod", "qpsk-9/10", "--frame", "short"]].concat());
    assert!(!ok);
    assert!(err.contains("not defined for short FECFRAMEs"), "{err}");
    let mut bad = ts(3);
    bad[2 * 188] = 0x48;
    std::fs::write(&input, &bad).unwrap();
    let (ok, err) = tx(&io);
    assert!(!ok);
    assert!(
        err.contains("TS packet 2 (byte offset 376) starts with 0x48"),
        "{err}"
    );
    std::fs::write(&input, &ts(3)[..500]).unwrap();
    let (ok, err) = tx(&io);
    assert!(!ok);
    assert!(
        err.contains("500 bytes is not a whole number of 188-byte TS packets"),
        "{err}"
    );
    let missing = dir.path().join("nope.ts");
    let (ok, err) = tx(&["--input", path(&missing), "--out", path(&out)]);
    assert!(!ok);
    assert!(
        err.contains("nope.ts") && err.contains("No such file"),
        "{err}"
    );
}
