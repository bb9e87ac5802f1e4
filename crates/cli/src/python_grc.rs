//! `.grc` files with embedded Python (`epy_block`, `epy_module`, `snippet`): the `radioflow`
//! binary runs no Python, so it hands such a file to radioflow's Python package
//! (`python3 -m radioflow.gnuradio FILE.grc`), which builds the graph through the same GRC
//! loader and makes the Python parts. The interpreter is `$RADIOFLOW_PYTHON`, else `python3`.
//! Running such a file runs the Python written in it, as GNU Radio Companion does.

use anyhow::bail;
use std::path::Path;
use std::process::{Command, Stdio};

/// The environment variable naming the Python interpreter with the `radioflow` package.
const PYTHON_VAR: &str = "RADIOFLOW_PYTHON";

/// The enabled Python entries of the `.grc` file at `path` (`name (id)`), empty for a file
/// without any or one that cannot be read (the loader reports that).
pub(crate) fn python_entries(path: &Path) -> Vec<String> {
    if path.extension().is_none_or(|e| e != "grc") {
        return Vec::new();
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    radioflow_graphfile::grc::python_entries(&text)
        .into_iter()
        .map(|(name, id)| format!("{name} ({id})"))
        .collect()
}

fn interpreter() -> String {
    std::env::var(PYTHON_VAR).unwrap_or_else(|_| "python3".into())
}

/// The command that runs `path` (with `seconds`, stopped after that long).
fn command(path: &Path, seconds: Option<f64>) -> Command {
    let mut c = Command::new(interpreter());
    c.args(["-m", "radioflow.gnuradio"]);
    if let Some(s) = seconds {
        c.args(["--seconds", &s.to_string()]);
    }
    c.arg(path);
    c
}

/// Whether the interpreter has the package; the error says what to do when it has not.
fn check_package(path: &Path, entries: &[String]) -> anyhow::Result<()> {
    let python = interpreter();
    let found = Command::new(&python)
        .args(["-c", "import radioflow.gnuradio.grc"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        bail!(
            "{file} holds embedded Python ({which}), which runs through radioflow's Python \
             package, and `{python}` cannot import it (or set {PYTHON_VAR} to an interpreter \
             that can). Install the package (`bash scripts/python.sh` in radioflow's sources \
             builds and installs it), then run `{python} -m radioflow.gnuradio {file}`",
            file = path.display(),
            which = entries.join(", "),
        );
    }
    Ok(())
}

/// `radioflow run FILE.grc` for a file with embedded Python: runs it with the Python package
/// on `scheduler`, and returns when it ends (its exit status as an error when it fails).
pub(crate) fn run(path: &Path, entries: &[String], scheduler: &str) -> anyhow::Result<()> {
    check_package(path, entries)?;
    eprintln!(
        "{}: embedded Python ({}): running it with `{} -m radioflow.gnuradio`",
        path.display(),
        entries.join(", "),
        interpreter()
    );
    let status = command(path, None)
        .env("RADIOFLOW_SCHEDULER", scheduler)
        .status()
        .map_err(|e| anyhow::anyhow!("{}: {e}", interpreter()))?;
    if !status.success() {
        bail!(
            "{}: the Python package's run failed ({status})",
            path.display()
        );
    }
    Ok(())
}

/// How a run through the Python package ended, for `radioflow grc check`.
pub(crate) enum Checked {
    Ran,
    RanUntilStopped,
    /// The package is missing or the run failed: the message (the last line it wrote).
    Failed(String),
}

/// `radioflow grc check --run SECONDS` of a file with embedded Python: run by the package for
/// at most `seconds`, its output kept.
pub(crate) fn check(path: &Path, entries: &[String], seconds: f64) -> Checked {
    if let Err(e) = check_package(path, entries) {
        return Checked::Failed(e.to_string());
    }
    let out = match command(path, Some(seconds)).stdin(Stdio::null()).output() {
        Ok(out) => out,
        Err(e) => return Checked::Failed(format!("{}: {e}", interpreter())),
    };
    if out.status.success() {
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stopped = format!("{}: stopped after", path.display());
        if stdout.lines().any(|l| l.starts_with(&stopped)) {
            Checked::RanUntilStopped
        } else {
            Checked::Ran
        }
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("(no message)");
        Checked::Failed(last.to_owned())
    }
}
