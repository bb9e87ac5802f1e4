//! `radioflow fm --demo --repeat --control 127.0.0.1:0` (or another command with a live view)
//! as a child process, and a small HTTP client, for the tests of the live view.
#![allow(dead_code, unreachable_pub)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Generous: the machine may be busy with other builds, and a debug build of the receiver
/// runs slower than real time.
pub const DEADLINE: Duration = Duration::from_secs(90);

/// A running `radioflow` command with a live view; killed when dropped unless it ended.
pub struct Fm {
    child: Option<Child>,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The page's address, as printed.
    pub url: String,
    /// The WAV file it writes (`fm` only).
    pub wav: PathBuf,
    dir: PathBuf,
    stderr: mpsc::Receiver<String>,
}

impl Fm {
    /// Starts the built-in station, repeated, with its live view on a free loopback port
    /// (`extra` arguments appended), and waits for the page's address.
    pub fn start(tag: &str, extra: &[&str]) -> Self {
        let dir = std::env::temp_dir().join(format!("radioflow-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let wav = dir.join("station.wav");
        let mut args: Vec<String> = ["fm", "--demo", "--repeat", "--wav"]
            .map(String::from)
            .to_vec();
        args.push(wav.display().to_string());
        args.extend(["--control", "127.0.0.1:0"].map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut live = Self::spawn(&args, "live view: ");
        live.wav = wav;
        live.dir = dir;
        live
    }

    /// Runs `radioflow ARGS` and waits for the line of stderr starting with `prefix` and
    /// holding the page's address.
    pub fn spawn(args: &[String], prefix: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_radioflow"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // stderr carries the address, then progress lines ending in '\r': read it all on a
        // thread (so the child never blocks on a full pipe) and pass the pieces on.
        let (tx, rx) = mpsc::channel();
        let mut err = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            let mut piece = Vec::new();
            while err.read_until(b'\n', &mut piece).is_ok_and(|n| n > 0) {
                let _ = tx.send(String::from_utf8_lossy(&piece).into_owned());
                piece.clear();
            }
        });
        let start = Instant::now();
        let mut seen = String::new();
        let url = loop {
            let line = rx
                .recv_timeout(DEADLINE.saturating_sub(start.elapsed()))
                .unwrap_or_else(|_| {
                    panic!("radioflow {args:?} printed no live view address: {seen}")
                });
            if let Some(url) = line.trim().strip_prefix(prefix) {
                break url.to_owned();
            }
            seen.push_str(&line);
        };
        let base = url
            .trim_end_matches('/')
            .split("/?")
            .next()
            .unwrap()
            .to_owned();
        Self {
            child: Some(child),
            base,
            url,
            wav: PathBuf::new(),
            dir: PathBuf::new(),
            stderr: rx,
        }
    }

    /// Stops the receiver from the API and returns its exit status's success, stdout and
    /// stderr.
    pub fn stop(self) -> (bool, String, String) {
        let (status, v) = request("POST", &format!("{}/api/stop", self.base), None);
        assert_eq!(status, 200, "{v}");
        self.wait()
    }

    /// Waits for the receiver to end (stopped from the page, say) and returns its exit
    /// status's success, stdout and stderr.
    pub fn wait(mut self) -> (bool, String, String) {
        let mut child = self.child.take().unwrap();
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let ok = child.wait().unwrap().success();
        let err: String = self.stderr.try_iter().collect();
        (ok, out, err)
    }
}

impl Drop for Fm {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if !self.dir.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Status and JSON body of a request (`body` for POST/PUT; a write is sent as JSON, even
/// without a body).
pub fn request(method: &str, url: &str, body: Option<&str>) -> (u16, Value) {
    let r = ureq::request(method, url).timeout(Duration::from_secs(30));
    // Writes are JSON (the control port refuses any other type, as an HTML form would send).
    let result = match body {
        Some(b) => r.set("content-type", "application/json").send_string(b),
        None if method != "GET" => r.set("content-type", "application/json").call(),
        None => r.call(),
    };
    let resp = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap_or_default();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Polls `f` until it returns `Some`, or panics after `deadline` naming `what`.
pub fn poll<T>(what: &str, deadline: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            start.elapsed() < deadline,
            "gave up waiting for {what} after {deadline:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A block's counter (`items_in`, `items_out`, `work_calls`, ...) from `/api/counters`.
pub fn counter(base: &str, block: &str, field: &str) -> Option<u64> {
    let (status, c) = request("GET", &format!("{base}/api/counters"), None);
    assert_eq!(status, 200, "{c}");
    c["blocks"]
        .as_array()?
        .iter()
        .find(|b| b["name"] == block)?[field]
        .as_u64()
}

/// The mean magnitude of the latest frame of probe `id` (its time view).
pub fn mean_magnitude(base: &str, id: &str) -> Option<f64> {
    let (status, d) = request("GET", &format!("{base}/api/probes/{id}?view=time"), None);
    assert_eq!(status, 200, "{d}");
    let (re, im) = (d["y"].as_array()?, d["y2"].as_array()?);
    if re.is_empty() {
        return None;
    }
    let sum: f64 = re
        .iter()
        .zip(im)
        .map(|(a, b)| a.as_f64().unwrap_or(0.0).hypot(b.as_f64().unwrap_or(0.0)))
        .sum();
    Some(sum / re.len() as f64)
}

/// How far (dB) the 19 kHz pilot stands above the median of the multiplex's spectrum
/// (`fm_demod.out`, 1024 bins of 469 Hz at 480 kHz, its axis in Hz).
pub fn pilot_db(base: &str) -> Option<f64> {
    let (status, d) = request(
        "GET",
        &format!("{base}/api/probes/fm_demod.out?view=spectrum"),
        None,
    );
    assert_eq!(status, 200, "{d}");
    assert_eq!(
        d["x_unit"], "Hz",
        "the receiver gives its probes their rate"
    );
    let (x, y) = (d["x"].as_array()?, d["y"].as_array()?);
    let db: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter_map(|(x, y)| Some((x.as_f64()?, y.as_f64()?)))
        .collect();
    if db.len() < 1024 {
        return None;
    }
    let mut sorted: Vec<f64> = db.iter().map(|p| p.1).collect();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let pilot = db
        .iter()
        .filter(|p| (18.5e3..=19.5e3).contains(&p.0))
        .map(|p| p.1)
        .fold(f64::NEG_INFINITY, f64::max);
    Some(pilot - median)
}
