//! `radioflow bench fm`: the mono FM receiver chain ([`run`]) on radioflow's schedulers and,
//! with `--compare gnuradio`, GNU Radio's own chain (`peers/gnuradio/fm_bench.py`), alternated
//! run by run; throughput in input Msps and the ratio to GNU Radio.

use super::run::{run, FmParams, OFFSET};
use crate::contender::{Contender, Skipped};
use crate::measurement::{BenchError, Measurement};
use crate::peers::repo_root;
use crate::progress::{OnRun, Progress};
use crate::results::json_line;
use crate::stats::{summarize, Summary};
use radioflow_runtime::SchedulerSpec;
use std::process::Command;
use std::sync::Arc;

/// The Python GNU Radio is installed for (Debian's).
const PYTHON: &str = "/usr/bin/python3";

/// One contender's runs, summarized.
#[derive(Clone, Debug)]
pub struct FmRow {
    /// `radioflow` or `gnuradio`.
    pub runtime: String,
    /// The scheduler.
    pub scheduler: String,
    /// The run times, seconds.
    pub summary: Summary,
    /// Input samples per second at the median run time, in millions.
    pub msps: f64,
    /// This contender's throughput over GNU Radio's (when it was measured).
    pub vs_gnuradio: Option<f64>,
    /// Every run delivered every audio sample.
    pub verified: bool,
}

/// The contenders: `schedulers`, then GNU Radio when `gnuradio` (left out, saying why in
/// `skipped`, where GNU Radio's Python bindings are missing).
pub fn contenders(
    schedulers: &[SchedulerSpec],
    gnuradio: bool,
    skipped: &mut Vec<Skipped>,
) -> Vec<Contender<FmParams>> {
    let mut out = Vec::new();
    for spec in schedulers {
        let s: Arc<dyn radioflow_runtime::Scheduler> = spec.build().into();
        out.push(Contender {
            label: spec.to_string(),
            runtime: "radioflow".into(),
            run: Box::new(move |p: &FmParams| run(p, s.as_ref())),
        });
    }
    if gnuradio {
        let present = Command::new(PYTHON)
            .args(["-c", "import gnuradio.analog"])
            .output()
            .is_ok_and(|o| o.status.success());
        if present {
            out.push(Contender {
                label: "tpb".into(),
                runtime: "gnuradio".into(),
                run: Box::new(run_gnuradio),
            });
        } else {
            skipped.push(Skipped(format!(
                "GNU Radio's Python bindings are not installed for {PYTHON}; comparing without it"
            )));
        }
    }
    out
}

/// One run of `peers/gnuradio/fm_bench.py`.
fn run_gnuradio(p: &FmParams) -> Result<Measurement, BenchError> {
    let script = repo_root().join("peers/gnuradio/fm_bench.py");
    let out = Command::new(PYTHON)
        .arg(&script)
        .arg("--input")
        .arg(&p.input)
        .args(["--samples", &p.samples.to_string()])
        .args(["--offset", &OFFSET.to_string()])
        .output()
        .map_err(|e| BenchError::Peer(format!("{}: {e}", script.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().rev().find(|l| l.starts_with('{'));
    let v: serde_json::Value =
        line.and_then(|l| serde_json::from_str(l).ok())
            .ok_or_else(|| {
                BenchError::Peer(format!(
                    "gnuradio fm: no measurement (exit {}): {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                ))
            })?;
    Ok(Measurement {
        experiment: "fm".into(),
        runtime: "gnuradio".into(),
        scheduler: v["scheduler"].as_str().unwrap_or("?").into(),
        params: v["params"].clone(),
        seconds: v["seconds"].as_f64().unwrap_or(f64::NAN),
        verified: v["verified"].as_bool().unwrap_or(false),
        detail: v["config"].as_str().unwrap_or("").into(),
        extra: serde_json::Value::Null,
    })
}

/// Runs every contender `runs` times, alternating (run 1 of each, then run 2, ...), and
/// summarizes; also returns every run.
///
/// # Errors
/// A run fails.
pub fn measure(
    p: &FmParams,
    ks: &[Contender<FmParams>],
    runs: usize,
    on_run: OnRun<'_>,
) -> Result<(Vec<FmRow>, Vec<Measurement>), BenchError> {
    let mut times = vec![Vec::new(); ks.len()];
    let mut verified = vec![true; ks.len()];
    let mut all = Vec::new();
    let total = runs * ks.len();
    for r in 0..runs {
        for (i, k) in ks.iter().enumerate() {
            let m = (k.run)(p)?;
            times[i].push(m.seconds);
            verified[i] &= m.verified;
            on_run(&Progress {
                done: r * ks.len() + i + 1,
                total,
                what: format!("fm {:e} {}", p.samples as f64, k.name()),
                line: &json_line(&m),
            });
            all.push(m);
        }
    }
    let msps = |s: &Summary| p.samples as f64 / s.median / 1e6;
    let summaries: Vec<Summary> = times
        .iter()
        .map(|t| summarize(t).expect("at least one run"))
        .collect();
    let gr = ks
        .iter()
        .position(|k| k.runtime == "gnuradio")
        .map(|i| msps(&summaries[i]));
    let rows = ks
        .iter()
        .zip(&summaries)
        .zip(verified)
        .map(|((k, s), verified)| FmRow {
            runtime: k.runtime.clone(),
            scheduler: k.label.clone(),
            summary: *s,
            msps: msps(s),
            vs_gnuradio: gr.map(|g| msps(s) / g),
            verified,
        })
        .collect();
    Ok((rows, all))
}

/// summary.csv's header for `fm`.
pub const CSV_HEADER: &str =
    "experiment,samples,runtime,scheduler,runs,median_s,mean_s,ci95_s,msps,vs_gnuradio,verified\n";

/// The rows as summary.csv lines.
pub fn csv_rows(p: &FmParams, rows: &[FmRow]) -> String {
    rows.iter()
        .map(|r| {
            format!(
                "fm,{},{},{},{},{:.6},{:.6},{:.6},{:.2},{},{}\n",
                p.samples,
                r.runtime,
                r.scheduler,
                r.summary.n,
                r.summary.median,
                r.summary.mean,
                r.summary.ci95,
                r.msps,
                r.vs_gnuradio.map_or(String::new(), |v| format!("{v:.3}")),
                r.verified
            )
        })
        .collect()
}
