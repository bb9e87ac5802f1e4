//! `radioflow dvbs2 rx`: what `radioflow dvbs2 tx` writes, the receiver reads back as the
//! same TS packets, and it reports the MODCOD, frames and lock; bad inputs are named.

use std::path::Path;
use std::process::Command;

/// `n` TS packets, each carrying its index after the header.
fn ts(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let mut p = vec![0u8; 188];
            p[..4].copy_from_slice(&[0x47, 0x01, 0x00, 0x10 | (i % 16) as u8]);
            p[4..8].copy_from_slice(&(i as u32).to_be_bytes());
            for (j, b) in p[8..].iter_mut().enumerate() {
                *b = (i * 3 + j) as u8;
            }
            p
        })
        .collect()
}

fn radioflow(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("radioflow runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_receiver_reads_back_what_the_transmitter_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let (ts_in, iq, ts_out) = (
        dir.path().join("in.ts"),
        dir.path().join("x.cf32"),
        dir.path().join("out.ts"),
    );
    let input = ts(600);
    std::fs::write(&ts_in, &input).unwrap();
    let (ok, _, err) = radioflow(&[
        "dvbs2",
        "tx",
        "--input",
        path(&ts_in),
        "--out",
        path(&iq),
        "--modcod",
        "8psk-3/5",
        "--frame",
        "short",
        "--pilots",
        "on",
    ]);
    assert!(ok, "{err}");
    let (ok, out, err) = radioflow(&[
        "dvbs2",
        "rx",
        "--input",
        path(&iq),
        "--out",
        path(&ts_out),
        "--sps",
        "2",
        "--frame",
        "short",
        "--pilots",
        "on",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("lock: locked at the end"), "{out}");
    assert!(
        out.contains("MODCOD: 8psk-3/5, short frames, pilots on"),
        "{out}"
    );
    assert!(out.contains(" 0 failed"), "{out}");
    let got = std::fs::read(&ts_out).unwrap();
    let n = got.len() / 188;
    assert!(n >= 400, "{n} packets of 600:\n{out}");
    let first = u32::from_be_bytes(got[4..8].try_into().unwrap()) as usize;
    assert_eq!(got[..], input[first * 188..(first + n) * 188]);
    assert!(
        out.contains(&format!("{n} TS packets to {}", path(&ts_out))),
        "{out}"
    );
}

#[test]
fn the_receiver_reads_sigmf_recordings_and_archives() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("rec");
    std::fs::create_dir(&rec).unwrap();
    let (ts_in, data, meta) = (
        dir.path().join("in.ts"),
        rec.join("rec.sigmf-data"),
        rec.join("rec.sigmf-meta"),
    );
    let input = ts(300);
    std::fs::write(&ts_in, &input).unwrap();
    let (ok, _, err) = radioflow(&[
        "dvbs2",
        "tx",
        "--input",
        path(&ts_in),
        "--out",
        path(&data),
        "--modcod",
        "qpsk-1/2",
        "--frame",
        "short",
        "--pilots",
        "on",
    ]);
    assert!(ok, "{err}");
    let write_meta = |datatype: &str| {
        std::fs::write(
            &meta,
            format!(
                r#"{{"global": {{"core:datatype": "{datatype}", "core:version": "1.2.0", "core:sample_rate": 2e6}},
                    "captures": [{{"core:sample_start": 0}}], "annotations": []}}"#
            ),
        )
        .unwrap()
    };
    write_meta("cf32_le");
    // The same recording as an archive (made by tar itself, as the sigmf package lays it out).
    let archive = dir.path().join("rec.sigmf");
    let tar = Command::new("tar")
        .args([
            "-cf",
            path(&archive),
            "-C",
            path(dir.path()),
            "rec/rec.sigmf-meta",
            "rec/rec.sigmf-data",
        ])
        .status()
        .unwrap();
    assert!(tar.success());
    for given in [&meta, &data, &archive] {
        let ts_out = dir.path().join("out.ts");
        let (ok, out, err) = radioflow(&[
            "dvbs2",
            "rx",
            "--input",
            path(given),
            "--out",
            path(&ts_out),
        ]);
        assert!(ok, "{}: {err}", given.display());
        assert!(
            out.contains("MODCOD: qpsk-1/2, short frames, pilots on"),
            "{out}"
        );
        assert!(out.contains(" 0 failed"), "{out}");
        let got = std::fs::read(&ts_out).unwrap();
        let n = got.len() / 188;
        assert!(n >= 150, "{}: {n} packets of 300:\n{out}", given.display());
        let first = u32::from_be_bytes(got[4..8].try_into().unwrap()) as usize;
        assert_eq!(got[..], input[first * 188..(first + n) * 188]);
    }
    write_meta("ci16_le");
    let (ok, _, err) = radioflow(&[
        "dvbs2",
        "rx",
        "--input",
        path(&meta),
        "--out",
        path(&dir.path().join("o.ts")),
    ]);
    assert!(!ok);
    let want = format!(
        "error: {}: global.core:datatype: ci16_le: the DVB-S2 receiver reads cf32_le",
        meta.display()
    );
    assert!(err.starts_with(&want), "{err}");
}

#[test]
fn bad_inputs_are_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.cf32");
    std::fs::write(&odd, [0u8; 13]).unwrap();
    let out = dir.path().join("o.ts");
    for (args, says) in [
        (
            vec!["--input", path(&odd)],
            "13 bytes is not a whole number",
        ),
        (vec!["--input", "/no/such.cf32"], "/no/such.cf32"),
        (vec!["--input", path(dir.path())], "directory"),
        (vec!["--input", path(&odd), "--sps", "0"], "--sps"),
        (vec!["--input", path(&odd), "--sps", "-1"], "--sps"),
        (vec!["--input", path(&odd), "--sps", "nan"], "--sps"),
        (vec!["--input", path(&odd), "--sps", "inf"], "--sps"),
        (vec!["--input", path(&odd), "--sps", "1.0"], "--sps"),
        (vec!["--input", path(&odd), "--sps", "65"], "--sps"),
        (
            vec!["--input", path(&odd), "--sps", "1.3", "--rolloff", "0.35"],
            "invalid value '1.3' for '--sps': 1.3 samples per symbol out of range [1.40, 64]",
        ),
        (vec!["--input", path(&odd), "--rolloff", "0.5"], "roll-off"),
        (vec!["--input", path(&odd), "--frame", "tiny"], "--frame"),
        (vec!["--input", path(&odd), "--gold", "262142"], "--gold"),
    ] {
        let all = [&["dvbs2", "rx", "--out", path(&out)][..], &args[..]].concat();
        let (ok, stdout, err) = radioflow(&all);
        assert!(!ok, "{all:?} succeeded: {stdout}");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains(says), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{all:?}: {err}");
    }
}

#[test]
fn recordings_at_other_rates_are_resampled() {
    let dir = tempfile::tempdir().unwrap();
    let (ts_in, iq, ts_out) = (
        dir.path().join("in.ts"),
        dir.path().join("x.cf32"),
        dir.path().join("out.ts"),
    );
    let input = ts(300);
    std::fs::write(&ts_in, &input).unwrap();
    // The transmitter at 5 and 3 samples per symbol, then every other sample: 2.5 and 1.5
    // (the band, 0.6 symbol rates, stays below both Nyquist frequencies).
    for (tx_sps, rx_sps) in [("5", "2.5"), ("3", "1.5")] {
        let (ok, _, err) = radioflow(&[
            "dvbs2",
            "tx",
            "--input",
            path(&ts_in),
            "--out",
            path(&iq),
            "--modcod",
            "8psk-3/5",
            "--frame",
            "short",
            "--sps",
            tx_sps,
        ]);
        assert!(ok, "{err}");
        let full = std::fs::read(&iq).unwrap();
        let half: Vec<u8> = full
            .chunks_exact(16)
            .flat_map(|c| &c[..8])
            .copied()
            .collect();
        std::fs::write(&iq, half).unwrap();
        let (ok, out, err) = radioflow(&[
            "dvbs2",
            "rx",
            "--input",
            path(&iq),
            "--out",
            path(&ts_out),
            "--sps",
            rx_sps,
            "--cores",
            "2",
            "--profile",
        ]);
        assert!(ok, "--sps {rx_sps}: {err}");
        assert!(out.contains("lock: locked at the end"), "{out}");
        assert!(out.contains("MODCOD: 8psk-3/5, short frames"), "{out}");
        assert!(out.contains(" 0 failed"), "{out}");
        // The profile's first task is the resampler.
        assert!(out.contains("\nresample "), "{out}");
        let got = std::fs::read(&ts_out).unwrap();
        let n = got.len() / 188;
        assert!(n >= 200, "--sps {rx_sps}: {n} packets of 300:\n{out}");
        let first = u32::from_be_bytes(got[4..8].try_into().unwrap()) as usize;
        assert_eq!(
            got[..],
            input[first * 188..(first + n) * 188],
            "--sps {rx_sps}"
        );
    }
}
