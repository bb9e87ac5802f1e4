//! The command's network ports against clients that hold connections, under a descriptor
//! limit (`prlimit --nofile`, on the child process only): `--control`'s live view keeps
//! serving its user past more half-open connections than the process has descriptors, and
//! `radioflow serve` keeps serving coordinators past more idle connections than it has
//! descriptors. Empty tokens are refused by name. Every wait is a hang guard; nothing asserts
//! on time.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_radioflow");
/// Longer than anything here takes unless it hangs.
const HANG: Duration = Duration::from_secs(90);

/// `radioflow ARGS` under `prlimit --nofile=N` (the limit on this child alone); killed on
/// drop.
struct Limited {
    child: Child,
    /// The rest of the line of stderr that started with the prefix waited for.
    line: String,
}

impl Limited {
    fn start(nofile: u32, args: &[&str], prefix: &'static str) -> Self {
        let mut child = Command::new("prlimit")
            .arg(format!("--nofile={nofile}:{nofile}"))
            .arg("--")
            .arg(BIN)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("prlimit (util-linux) runs");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[radioflow {line}]");
                if let Some(rest) = line.strip_prefix(prefix) {
                    let _ = tx.send(rest.to_owned());
                }
            }
        });
        let line = rx
            .recv_timeout(HANG)
            .unwrap_or_else(|_| panic!("radioflow {args:?} never printed {prefix:?}"));
        Self { child, line }
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Waits for the process to end (a hang guard) and returns whether it succeeded.
    fn wait(mut self) -> bool {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            assert!(start.elapsed() < HANG, "radioflow did not end");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Limited {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `count` connections to `addr` that send nothing, kept open by the caller.
fn idle_connections(addr: &str, count: usize) -> Vec<TcpStream> {
    (0..count)
        .map(|i| {
            TcpStream::connect(addr)
                .unwrap_or_else(|e| panic!("connection {i} of {count} to {addr}: {e}"))
        })
        .collect()
}

#[test]
fn the_live_view_serves_its_user_past_more_half_open_connections_than_descriptors() {
    let graph = workspace().join("examples/graphs/live.toml");
    let run = Limited::start(
        100,
        &["run", graph.to_str().unwrap(), "--control", "127.0.0.1:0"],
        "live view: ",
    );
    let base = run.line.trim().trim_end_matches('/').to_owned();
    let addr = base.trim_start_matches("http://").to_owned();
    // 150 connections that send nothing, under a limit of 100 descriptors.
    let strangers = idle_connections(&addr, 150);
    // The user's requests are served.
    let agent = ureq::AgentBuilder::new().timeout(HANG).build();
    let graph = agent
        .get(&format!("{base}/api/graph"))
        .call()
        .unwrap_or_else(|e| panic!("the live view with 150 half-open connections: {e}"));
    assert_eq!(graph.status(), 200);
    let stop = agent
        .post(&format!("{base}/api/stop"))
        .set("content-type", "application/json")
        .send_string("{}")
        .unwrap_or_else(|e| panic!("stop: {e}"));
    assert_eq!(stop.status(), 200);
    drop(strangers);
    assert!(run.wait(), "the run ends cleanly once stopped");
}

/// `radioflow ARGS` to its end, killed if it runs past the hang guard.
fn output(args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("radioflow {args:?} ran on");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn an_empty_token_is_refused_by_name() {
    let graph = workspace().join("examples/graphs/live.toml");
    for args in [
        vec![
            "run",
            graph.to_str().unwrap(),
            "--control",
            "127.0.0.1:0",
            "--token",
            "",
        ],
        vec!["bench", "buf", "--control", "127.0.0.1:0", "--token", ""],
    ] {
        let out = output(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} ran");
        assert!(
            stderr.contains("--token") && stderr.contains("empty token"),
            "{args:?}: {stderr}"
        );
    }
}

/// A graph all on host `a`: a vector source, a head, a file sink writing `out`.
fn one_host_graph(dir: &Path) -> (PathBuf, PathBuf) {
    let out = dir.join("out.f32");
    let graph = dir.join("one.toml");
    std::fs::write(
        &graph,
        format!(
            r#"connections = ["src -> head -> sink"]

[blocks]
src = {{ block = "vector_source", dtype = "float32", data = [1.0, 2.0, 3.0], repeat = true, host = "a" }}
head = {{ block = "head", dtype = "float32", n = 3000, host = "a" }}
sink = {{ block = "file_sink", dtype = "float32", path = "{}", host = "a" }}
"#,
            out.display()
        ),
    )
    .unwrap();
    (graph, out)
}

#[test]
fn serve_keeps_serving_coordinators_past_more_idle_connections_than_descriptors() {
    let dir = tempfile::tempdir().unwrap();
    let token = "net-limits-token";
    let mut serve = Limited::start(
        40,
        &["serve", "--listen", "127.0.0.1:0", "--token", token],
        "serve: listening on ",
    );
    let addr = serve.line.trim().to_owned();
    // 60 connections that never say hello, under a limit of 40 descriptors.
    let strangers = idle_connections(&addr, 60);
    let (graph, out) = one_host_graph(dir.path());
    let mut coordinator = Command::new(BIN)
        .arg("run")
        .arg(&graph)
        .args(["--hosts", &format!("a={addr}"), "--host-token", token])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while coordinator.try_wait().unwrap().is_none() {
        if start.elapsed() > HANG {
            let _ = coordinator.kill();
            panic!("the coordinator hung");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let result = coordinator.wait_with_output().unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    assert_eq!(std::fs::read(&out).unwrap().len(), 3000 * 4);
    assert!(serve.running(), "serve ended");
    drop(strangers);
}
