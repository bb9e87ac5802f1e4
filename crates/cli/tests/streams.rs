//! FIFOs and character devices as inputs: `fm`, `dvbs2 rx` and `dvbs2 tx` read them as
//! streams (once, as they come, until they end or Ctrl-C), and name what is wrong with them
//! (a stream to repeat, a device that is not a TS).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_radioflow");
/// A hang guard only.
const DEADLINE: Duration = Duration::from_secs(120);

/// A FIFO in `dir` that a thread fills with `data` once a reader opens it (and then closes,
/// which ends the stream).
fn fifo(dir: &Path, name: &str, data: Vec<u8>) -> PathBuf {
    let path = dir.join(name);
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that lives across the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let p = path.clone();
    // Opening blocks until the command opens its end; if it never does, the thread stays
    // blocked and ends with the test process.
    std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
        f.write_all(&data).ok();
    });
    path
}

/// Runs `radioflow ARGS` in `dir` to its end (bounded).
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let child = Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish(child);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn finish(mut child: Child) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > DEADLINE {
            child.kill().ok();
            panic!("radioflow did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Sends SIGINT to `child`.
fn interrupt(child: &Child) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: `kill` only sends a signal to the child this test started, still running.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
}

/// `n` TS packets (PID 0x100, a counter in the payload).
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
fn fm_reads_a_fifo_to_its_end_and_dev_zero_until_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // One second of a station-less cu8 recording at 2.4 Msps, through a FIFO.
    let noise: Vec<u8> = (0..4_800_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    fifo(d, "iq.fifo", noise);
    let args = [
        "fm", "--input", "iq.fifo", "--format", "cu8", "--rate", "2.4e6", "--offset", "0", "--wav",
        "fifo.wav",
    ];
    let (code, out, err) = run(d, &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("iq.fifo: a stream, read until it ends"),
        "{err}"
    );
    assert!(out.contains("2400000 samples, 1.00 s of signal"), "{out}");
    assert_eq!(
        hound::WavReader::open(d.join("fifo.wav"))
            .unwrap()
            .duration(),
        48_000
    );

    // A stream cannot be read again.
    let repeat = [
        "fm",
        "--input",
        "/dev/zero",
        "--format",
        "cu8",
        "--rate",
        "2.4e6",
        "--offset",
        "0",
        "--repeat",
    ];
    let (code, _, err) = run(d, &repeat);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("invalid --repeat: '/dev/zero' is a stream"),
        "{err}"
    );

    // /dev/zero: endless, until Ctrl-C, and the WAV file is finished.
    let child = Command::new(BIN)
        .current_dir(d)
        .args([
            "fm",
            "--input",
            "/dev/zero",
            "--format",
            "cu8",
            "--rate",
            "2.4e6",
            "--offset",
            "0",
            "--wav",
            "zero.wav",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let wav = d.join("zero.wav");
    let start = Instant::now();
    while std::fs::metadata(&wav).map_or(0, |m| m.len()) < 100_000 {
        assert!(
            start.elapsed() < DEADLINE,
            "fm wrote no audio from /dev/zero"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    interrupt(&child);
    let out = finish(child);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("wrote zero.wav"), "{stdout}");
    let reader = hound::WavReader::open(&wav).unwrap();
    let frames = u64::from(reader.duration());
    assert_eq!(44 + frames * 4, std::fs::metadata(&wav).unwrap().len());
}

#[test]
fn dvbs2_reads_fifos_and_devices_as_streams() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The transmitter from a FIFO: the same samples as from the file.
    std::fs::write(d.join("in.ts"), ts(400)).unwrap();
    fifo(d, "ts.fifo", ts(400));
    let tx = [
        "dvbs2", "tx", "--modcod", "qpsk-1/2", "--frame", "short", "--out",
    ];
    let (code, _, err) = run(d, &[&tx[..], &["file.cf32", "--input", "in.ts"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run(d, &[&tx[..], &["fifo.cf32", "--input", "ts.fifo"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let signal = std::fs::read(d.join("file.cf32")).unwrap();
    assert_eq!(std::fs::read(d.join("fifo.cf32")).unwrap(), signal);
    // A device that is not a TS is named.
    let (code, _, err) = run(d, &[&tx[..], &["z.cf32", "--input", "/dev/zero"]].concat());
    assert_eq!(code, Some(1));
    assert!(
        err.contains("input /dev/zero: TS sync byte 0x47 missing at input byte 0"),
        "{err}"
    );

    // The receiver from a FIFO: what it decodes from the file.
    let rx = ["dvbs2", "rx", "--cores", "1", "--out"];
    let (code, file_out, err) = run(d, &[&rx[..], &["file.ts", "--input", "file.cf32"]].concat());
    assert_eq!(code, Some(0), "{err}");
    fifo(d, "iq.fifo", signal);
    let (code, fifo_out, err) = run(d, &[&rx[..], &["fifo.ts", "--input", "iq.fifo"]].concat());
    assert_eq!(code, Some(0), "{err}");
    let packets = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("frames:"))
            .and_then(|l| l.split(" to ").next())
            .unwrap_or_else(|| panic!("{out}"))
            .to_owned()
    };
    assert_eq!(packets(&fifo_out), packets(&file_out));
    assert!(!packets(&fifo_out).contains("; 0 TS packets"), "{fifo_out}");
    assert_eq!(
        std::fs::read(d.join("fifo.ts")).unwrap(),
        std::fs::read(d.join("file.ts")).unwrap()
    );

    // /dev/zero: read until Ctrl-C (not "0 samples" at once).
    let mut child = Command::new(BIN)
        .current_dir(d)
        .args(["dvbs2", "rx", "--input", "/dev/zero", "--out", "zero.ts"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The progress line of a stream ("\r  N samples"), once samples were read.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut piece = Vec::new();
    loop {
        piece.clear();
        let n = err.read_until(b'\r', &mut piece).unwrap();
        assert!(n > 0, "dvbs2 rx ended without progress");
        if String::from_utf8_lossy(&piece).contains(" samples") {
            break;
        }
    }
    interrupt(&child);
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    let out = finish(child);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let samples: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("stopped by a signal after "))
        .and_then(|l| l.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(samples > 0, "{stdout}");
}
