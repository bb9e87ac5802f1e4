//! Ctrl-C (SIGINT) and SIGTERM end `radioflow run` on an endless graph as the end of its
//! input would: every block's `stop` runs (the WAV file gets its sizes, the SigMF recording
//! its metadata), the summary is printed, and the exit status is 0. Under every scheduler,
//! and across hosts.

use radioflow_blocks::sigmf::Recording;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A hang guard only: the child normally shows data within a second.
const DEADLINE: Duration = Duration::from_secs(120);

/// A sine, throttled to real time, into a WAV file and a SigMF recording, until stopped.
const GRAPH: &str = r#"
connections = ["src -> throttle -> wav", "throttle -> rec"]
[blocks]
src = { block = "signal_source", dtype = "float32", sample_rate = 48000.0, waveform = "sine", frequency = 1000.0, amplitude = 0.5 }
throttle = { block = "throttle", dtype = "float32", sample_rate = 48000.0 }
wav = { block = "wav_sink", path = "endless.wav", sample_rate = 48000 }
rec = { block = "sigmf_sink", dtype = "float32", path = "endless", sample_rate = 48000.0 }
"#;

fn len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Waits until both outputs hold samples (the graph runs), then sends `signal`.
fn interrupt(child: &mut Child, dir: &Path, signal: libc::c_int) {
    let start = Instant::now();
    while len(&dir.join("endless.wav")) <= 44 || len(&dir.join("endless.sigmf-data")) == 0 {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("radioflow run ended before it was stopped: {status}");
        }
        assert!(start.elapsed() < DEADLINE, "no samples written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: `kill` only sends a signal to the child this test started (and has not
    // reaped: it is still running, checked above).
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

/// Waits for the child (killing it after the hang guard): its exit code and stdout.
fn finish(mut child: Child) -> (Option<i32>, String) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > DEADLINE {
            child.kill().ok();
            panic!("radioflow run did not stop after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The WAV file's RIFF and data sizes say how long it is.
fn check_wav(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(
        u32_at(4),
        bytes.len() - 8,
        "RIFF size of {}",
        path.display()
    );
    assert_eq!(&bytes[36..40], b"data");
    let data = u32_at(40);
    assert!(data > 0, "no samples");
    assert_eq!(data, bytes.len() - 44, "data size of {}", path.display());
    let reader = hound::WavReader::open(path).unwrap();
    assert_eq!(reader.len() as usize, data / 2);
}

#[test]
fn a_signal_stops_an_endless_graph_and_its_outputs_are_finished() {
    for scheduler in ["flow", "tpb", "single"] {
        for signal in [libc::SIGINT, libc::SIGTERM] {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            std::fs::write(d.join("endless.toml"), GRAPH).unwrap();
            let mut child = Command::new(env!("CARGO_BIN_EXE_radioflow"))
                .current_dir(d)
                .args(["run", "endless.toml", "--scheduler", scheduler])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            interrupt(&mut child, d, signal);
            let (code, out) = finish(child);
            let case = format!("{scheduler}, signal {signal}");
            assert_eq!(code, Some(0), "{case}: {out}");
            assert!(
                out.contains("endless.toml: stopped by a signal after"),
                "{case}: {out}"
            );
            check_wav(&d.join("endless.wav"));
            let rec = Recording::open(&d.join("endless.sigmf-meta"))
                .unwrap_or_else(|e| panic!("{case}: {e}"));
            assert_eq!(rec.meta.global.sample_rate, Some(48_000.0), "{case}");
            assert_eq!(
                rec.samples * 4,
                len(&d.join("endless.sigmf-data")),
                "{case}"
            );
            assert!(rec.samples > 0, "{case}");
        }
    }
}

/// A `radioflow serve` on a free loopback port, killed on drop.
struct Serve {
    child: Child,
    address: String,
}

impl Serve {
    fn start(token: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_radioflow"))
            .args(["serve", "--listen", "127.0.0.1:0", "--token", token])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let address = loop {
            let line = lines.next().expect("serve says where it listens").unwrap();
            if let Some(a) = line.strip_prefix("serve: listening on ") {
                break a.to_owned();
            }
        };
        // The rest of stderr drains on a thread, so the server never blocks on it.
        std::thread::spawn(move || lines.for_each(drop));
        Serve { child, address }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

#[test]
fn a_signal_to_the_coordinator_stops_every_host_and_their_outputs_are_finished() {
    let token = "interrupt-test-token";
    let (a, b) = (Serve::start(token), Serve::start(token));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Hosts run in their own working directory: the outputs' paths are absolute.
    let graph = GRAPH
        .replace("\"endless", &format!("\"{}/endless", d.display()))
        .replace("amplitude = 0.5 }", "amplitude = 0.5, host = \"a\" }")
        .replace(
            "sample_rate = 48000.0 }",
            "sample_rate = 48000.0, host = \"a\" }",
        )
        .replace(
            "sample_rate = 48000 }",
            "sample_rate = 48000, host = \"b\" }",
        );
    std::fs::write(d.join("endless.toml"), graph).unwrap();
    let hosts = format!("a={},b={}", a.address, b.address);
    let mut child = Command::new(env!("CARGO_BIN_EXE_radioflow"))
        .current_dir(d)
        .args([
            "run",
            "endless.toml",
            "--hosts",
            &hosts,
            "--host-token",
            token,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    interrupt(&mut child, d, libc::SIGINT);
    let (code, out) = finish(child);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("endless.toml: on 2 hosts, stopped by a signal after"),
        "{out}"
    );
    check_wav(&d.join("endless.wav"));
    let rec = Recording::open(&d.join("endless.sigmf-meta")).unwrap();
    assert_eq!(rec.samples * 4, len(&d.join("endless.sigmf-data")));
}
