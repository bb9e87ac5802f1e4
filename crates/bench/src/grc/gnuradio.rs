//! GNU Radio's side: the rewritten `.grc` compiled by `grcc` into Python, imported once by
//! `peers/gnuradio/grc_bench.py` in a child process that runs it on request, each run timed
//! there around `start()`/`wait()` (construction excluded) and bounded here by a time limit.

use super::transform::{Sink, TOP_BLOCK};
use crate::peers::repo_root;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The Python GNU Radio is installed for (Debian's).
const PYTHON: &str = "/usr/bin/python3";

/// Why GNU Radio cannot be compared here (`grcc` or the Python bindings missing), if so.
pub fn missing() -> Option<String> {
    let grcc = Command::new("grcc")
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !grcc {
        return Some("GNU Radio's grcc is not installed (apt-get install gnuradio)".into());
    }
    let python = Command::new(PYTHON)
        .args(["-c", "import gnuradio.blocks"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !python {
        return Some(format!(
            "GNU Radio's Python bindings are not installed for {PYTHON}"
        ));
    }
    None
}

/// One compiled flowgraph, loaded in its child process.
pub struct GrFlowgraph {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    sinks: Vec<String>,
    limit: Duration,
}

impl GrFlowgraph {
    /// Writes `yaml` to `dir`, compiles it with `grcc` and starts the child that runs it.
    ///
    /// # Errors
    /// `grcc` refuses the file, or the child cannot be started.
    pub fn compile(
        yaml: &str,
        dir: &Path,
        sinks: &[Sink],
        limit: Duration,
    ) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let grc = dir.join(format!("{TOP_BLOCK}.grc"));
        std::fs::write(&grc, yaml).map_err(|e| format!("{}: {e}", grc.display()))?;
        let out = Command::new("grcc")
            .arg("-o")
            .arg(dir)
            .arg(&grc)
            .output()
            .map_err(|e| format!("grcc: {e}"))?;
        if !out.status.success() || !dir.join(format!("{TOP_BLOCK}.py")).exists() {
            let err = String::from_utf8_lossy(&out.stderr);
            let stdout = String::from_utf8_lossy(&out.stdout);
            // grcc frames its messages with lines of stars: the first line that names an
            // error, else the last line with words.
            let lines: Vec<&str> = err
                .lines()
                .chain(stdout.lines())
                .map(str::trim)
                .filter(|l| l.chars().any(char::is_alphanumeric))
                .collect();
            let why = lines
                .iter()
                .find(|l| l.contains("rror"))
                .or(lines.last())
                .copied()
                .unwrap_or("no Python written")
                .to_owned();
            return Err(format!("grcc: {why}"));
        }
        let script = repo_root().join("peers/gnuradio/grc_bench.py");
        let names: Vec<String> = sinks.iter().map(|s| s.name.clone()).collect();
        let mut child = Command::new(PYTHON)
            .arg(&script)
            .arg(dir)
            .arg(TOP_BLOCK)
            .arg(names.join(","))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", script.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        // A thread reads the child's answers so that a run that never ends can be waited
        // for with a limit.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(GrFlowgraph {
            child,
            stdin,
            lines,
            sinks: names,
            limit,
        })
    }

    /// One run: its seconds and the items each sink read (in the order of the sinks given).
    ///
    /// # Errors
    /// The flowgraph failed, or did not end within the limit (the child is then ended).
    pub fn run(&mut self) -> Result<(f64, Vec<u64>), String> {
        writeln!(self.stdin, "run").map_err(|e| format!("GNU Radio's child ended: {e}"))?;
        // Importing GNU Radio and the module comes before the first answer: a minute more.
        let line = match self
            .lines
            .recv_timeout(self.limit + Duration::from_secs(60))
        {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                return Err(format!(
                    "GNU Radio's run did not end within {} s",
                    self.limit.as_secs_f64()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("GNU Radio's child ended without an answer".into())
            }
        };
        let v: serde_json::Value = serde_json::from_str(&line)
            .map_err(|e| format!("GNU Radio's child answered '{line}': {e}"))?;
        if let Some(e) = v["error"].as_str() {
            return Err(format!("GNU Radio: {e}"));
        }
        let seconds = v["seconds"].as_f64().ok_or("no seconds in the answer")?;
        let items = self
            .sinks
            .iter()
            .map(|s| v["items"][s].as_u64().unwrap_or(0))
            .collect();
        Ok((seconds, items))
    }
}

impl Drop for GrFlowgraph {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
