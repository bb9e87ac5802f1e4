//! What an invocation leaves behind with `--out DIR`: runs.jsonl (every run), summary.csv (per
//! experiment and configuration), machine.json, and the plots.

use crate::machine::Machine;
use crate::measurement::{BenchError, Measurement};
use crate::plot::{line_chart, Chart, Written};
use std::path::{Path, PathBuf};

/// Creates `dir` if it is missing.
///
/// # Errors
///
/// The folder cannot be created.
pub fn create_dir(dir: &Path) -> Result<(), BenchError> {
    std::fs::create_dir_all(dir).map_err(|source| BenchError::Write {
        path: dir.to_owned(),
        source,
    })
}

/// Writes `text` to `dir/name`.
fn write(dir: &Path, name: &str, text: &str) -> Result<(), BenchError> {
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|source| BenchError::Write { path, source })
}

/// Writes runs.jsonl (one JSON line per run, as given), summary.csv and machine.json into
/// `dir` (created if missing).
///
/// # Errors
///
/// A file cannot be written.
pub fn write_results(dir: &Path, jsonl: &str, csv: &str) -> Result<(), BenchError> {
    create_dir(dir)?;
    write(dir, "runs.jsonl", jsonl)?;
    write(dir, "summary.csv", csv)?;
    let machine = serde_json::to_string_pretty(&Machine::detect())
        .unwrap_or_else(|e| unreachable!("a machine description serializes: {e}"));
    write(dir, "machine.json", &machine)
}

/// The JSON lines of `runs`, as runs.jsonl holds them.
pub fn jsonl(runs: &[Measurement]) -> String {
    runs.iter().map(|m| json_line(m) + "\n").collect()
}

/// One measurement as one JSON line.
pub fn json_line(m: &Measurement) -> String {
    serde_json::to_string(m).unwrap_or_else(|e| unreachable!("a measurement serializes: {e}"))
}

/// A plot drawn (or why not: a missing font does not fail the measurement), named by the
/// path without extension.
pub type Plotted = (PathBuf, Result<Written, String>);

/// Draws `chart` as `<stem>.{svg,png}`.
pub(crate) fn plot(stem: PathBuf, chart: &Chart<'_>) -> Plotted {
    let r = line_chart(&stem, chart);
    (stem, r)
}

/// Writes runs.jsonl, summary.csv and machine.json into `dir`, and says so.
pub(crate) fn save(dir: &Path, jsonl: &str, csv: &str) -> Result<(), BenchError> {
    write_results(dir, jsonl, csv)?;
    eprintln!("results written to {}", dir.display());
    Ok(())
}

/// Says where each plot went, or why it did not.
pub(crate) fn report_plots(plots: impl IntoIterator<Item = Plotted>) {
    for (stem, r) in plots {
        match r {
            Ok(w) => eprintln!("plot: {} and {}", w.svg.display(), w.png.display()),
            Err(e) => eprintln!("radioflow: no plot {}: {e}", stem.display()),
        }
    }
}
