//! What one `radioflow bench <experiment>` invocation measures: the contenders (radioflow's
//! schedulers and the peers' configurations), runs alternated between them run by run (so drift
//! on a shared machine hits all alike), summaries, and the result files. The binary only maps
//! its arguments to these functions' parameters and prints what they return.
//!
//! - [`compare`]: `buf`, `msg` and `opti`, with sweeps (cost per block) and `buf`'s limits.
//! - [`profiled`]: `resched` and `items`, the `buf` graph profiled.
//! - [`counters`]: the cost of the per-block counters.
//! - [`workload`]: signal quality against the work per packet.
//! - [`fm`]: the mono FM receiver chain against GNU Radio's.

pub mod compare;
pub mod counters;
pub mod fir;
pub mod fm;
pub mod profiled;
pub mod workload;

use crate::plot::{line_chart, Chart, Written};
use crate::{BenchError, Machine, Measurement, Peer};
use std::path::{Path, PathBuf};

/// Runs one measured run with parameters `P`.
pub type RunFn<P> = Box<dyn Fn(&P) -> Result<Measurement, BenchError>>;

/// Something measured: a radioflow scheduler or a peer configuration.
pub struct Contender<P> {
    /// `radioflow`, `gnuradio` or `futuresdr`.
    pub runtime: String,
    /// The scheduler or configuration.
    pub label: String,
    /// One measured run.
    pub run: RunFn<P>,
}

impl<P> Contender<P> {
    /// `runtime label`, as tables and plots name it.
    pub fn name(&self) -> String {
        format!("{} {}", self.runtime, self.label)
    }
}

/// One finished run, reported as it happens.
pub struct Progress<'a> {
    /// Runs finished so far, this one included.
    pub done: usize,
    /// Runs in the invocation (or in this part of it).
    pub total: usize,
    /// What ran, e.g. `buf 10x10 1e8 radioflow flow`.
    pub what: String,
    /// The run's JSON line (`--json` prints it).
    pub line: &'a str,
}

/// Called after every run.
pub type OnRun<'a> = &'a mut dyn FnMut(&Progress<'_>);

/// A peer that is left out of a comparison, and why.
#[derive(Debug)]
pub struct Skipped(pub String);

/// The peers' binaries, built on first use; a peer that cannot be built is left out, saying
/// why (`radioflow: <why>; comparing without it`).
pub fn built_peers(peers: &[Peer], skipped: &mut Vec<Skipped>) -> Vec<(Peer, PathBuf)> {
    peers
        .iter()
        .filter_map(|&peer| match peer.ensure_built() {
            Ok(bin) => Some((peer, bin)),
            Err(e) => {
                skipped.push(Skipped(format!("{e}; comparing without it")));
                None
            }
        })
        .collect()
}

/// `--flag value` pairs as a peer's arguments.
fn flags(pairs: &[(&str, String)]) -> Vec<String> {
    pairs
        .iter()
        .flat_map(|(k, v)| [format!("--{k}"), v.clone()])
        .collect()
}

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
fn plot(stem: PathBuf, chart: &Chart<'_>) -> Plotted {
    let r = line_chart(&stem, chart);
    (stem, r)
}
