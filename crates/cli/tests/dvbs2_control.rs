//! `radioflow dvbs2 rx --control`: the receiver's two threads in the live view, with a real
//! HTTP client. The recording comes through a named pipe, so that the receiver is still
//! running (waiting for the rest) while the test looks at it, and stops it from the API.

mod common;

use common::{counter, poll, request, Fm, DEADLINE};
use std::io::Write;
use std::process::Command;

/// `n` TS packets, each carrying its index after the header.
fn ts(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let mut p = vec![0u8; 188];
            p[..4].copy_from_slice(&[0x47, 0x01, 0x00, 0x10 | (i % 16) as u8]);
            p[4..8].copy_from_slice(&(i as u32).to_be_bytes());
            p
        })
        .collect()
}

#[test]
fn the_receivers_threads_are_served_and_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let (ts_in, iq, fifo, ts_out) = (
        dir.path().join("in.ts"),
        dir.path().join("x.cf32"),
        dir.path().join("x.fifo"),
        dir.path().join("out.ts"),
    );
    std::fs::write(&ts_in, ts(600)).unwrap();
    let tx = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .args([
            "dvbs2", "tx", "--modcod", "8psk-3/5", "--frame", "short", "--pilots", "on",
        ])
        .arg("--input")
        .arg(&ts_in)
        .arg("--out")
        .arg(&iq)
        .output()
        .unwrap();
    assert!(
        tx.status.success(),
        "{}",
        String::from_utf8_lossy(&tx.stderr)
    );
    let samples = std::fs::read(&iq).unwrap();
    assert!(samples.len() > 4 << 20, "{} bytes", samples.len());
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");

    let args: Vec<String> = ["dvbs2", "rx", "--control", "127.0.0.1:0", "--input"]
        .map(String::from)
        .into_iter()
        .chain([
            fifo.display().to_string(),
            "--out".into(),
            ts_out.display().to_string(),
        ])
        .collect();
    let rx = Fm::spawn(&args, "live view: ");
    // The first half now, the rest once the receiver was seen and stopped.
    let (go_on, rest) = std::sync::mpsc::channel::<()>();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut w = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            // The receiver may be stopped and gone before either is written (a broken pipe).
            let half = samples.len() / 2;
            let _ = w.write_all(&samples[..half]);
            let _ = rest.recv();
            let _ = w.write_all(&samples[half..]);
        })
    };

    let (status, g) = request("GET", &format!("{}/api/graph", rx.base), None);
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["blocks"][0]["name"], "sync");
    assert_eq!(g["blocks"][1]["name"], "decode");
    assert_eq!(g["blocks"][1]["type"], "task");
    assert_eq!(g["edges"][0]["item"], "frames");
    assert_eq!(g["running"], true);
    poll("the synchroniser to take samples", DEADLINE, || {
        counter(&rx.base, "sync", "items_in").filter(|&n| n > 0)
    });
    poll("the decoder to write packets", DEADLINE, || {
        counter(&rx.base, "decode", "items_out").filter(|&n| n > 0)
    });
    let (status, c) = request("GET", &format!("{}/api/counters", rx.base), None);
    assert_eq!(status, 200);
    assert!(
        c["threads"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "rf-dvbs2-decode"),
        "{c}"
    );

    let (ok, out, err) = {
        let stopped = request("POST", &format!("{}/api/stop", rx.base), None);
        assert_eq!(stopped.0, 200, "{}", stopped.1);
        go_on.send(()).unwrap();
        rx.wait()
    };
    writer.join().unwrap();
    assert!(ok, "{err}");
    assert!(out.contains("stopped from the live view after "), "{out}");
}
