//! `grc` (issue 34): every GNU Radio Companion flowgraph of a folder that runs headless in
//! both runtimes, made finite by one rewrite of its `.grc` that both read
//! ([`transform::rewrite`]), run by radioflow's GRC loader and, with `--compare gnuradio`, by the
//! Python `grcc` writes for it, alternated run by run; a check run first writes every stream to
//! files and compares them ([`check`]); per flowgraph the medians, the ratio GNU Radio /
//! radioflow and its spread, and the geometric mean of the ratios.

pub mod check;
pub mod gnuradio;
pub mod radioflow;
pub mod transform;

use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::{BenchError, Measurement};
use crate::progress::{Progress, Ticker};
use crate::results::{json_line, jsonl, save};
use crate::stats::summarize;
use crate::values;
use check::{compare_files, Check};
use clap::Args;
use gnuradio::GrFlowgraph;
use radioflow_runtime::{Scheduler, SchedulerSpec};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;
use transform::{rewrite, Rewritten, Sinks};

/// What `bench grc` measures.
#[derive(Args, Clone)]
pub(crate) struct GrcArgs {
    /// The folder of `.grc` flowgraphs (searched recursively), or one file.
    path: PathBuf,
    /// Items each source sends (a head after every source; accepts 1e7).
    #[arg(long, default_value = "1e7", value_parser = values::count)]
    items: u64,
    /// Items each source sends in the check run, whose streams are written to files and
    /// compared.
    #[arg(long, default_value = "1e6", value_parser = values::count)]
    check_items: u64,
    /// Seconds a run may take before it is stopped and the flowgraph reported as not ending.
    #[arg(long, default_value = "60", value_parser = values::positive)]
    limit: f64,
    /// Keep the rewritten flowgraphs (`N/timed.grc`, `N/gr-timed/`, `N/gr-check/`, one
    /// folder per file in the order of the table) and the check run's outputs in this
    /// folder, for a look or a profile (`radioflow run N/timed.grc`); by default they go to
    /// a temporary folder removed at the end.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
}

/// One flowgraph's outcome.
struct Row {
    file: String,
    what: Outcome,
}

enum Outcome {
    /// Not compared, with why.
    Skipped(String),
    /// Measured.
    Timed(Timed),
}

struct Timed {
    /// Some block computes (not only null sources into null sinks).
    signal_work: bool,
    ours: Vec<f64>,
    theirs: Vec<f64>,
    check: Option<Check>,
    notes: Vec<String>,
    items: Vec<u64>,
}

impl Timed {
    fn ratio(&self) -> Option<f64> {
        let (a, b) = (summarize(&self.ours)?, summarize(&self.theirs)?);
        Some(b.median / a.median)
    }

    /// Smallest and largest ratio of the runs paired as they alternated.
    fn spread(&self) -> Option<(f64, f64)> {
        let r: Vec<f64> = self
            .ours
            .iter()
            .zip(&self.theirs)
            .map(|(a, b)| b / a)
            .collect();
        let s = summarize(&r)?;
        Some((s.min, s.max))
    }
}

/// Every `.grc` file under `path`, sorted.
fn grc_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), BenchError> {
    if path.is_file() {
        out.push(path.to_owned());
        return Ok(());
    }
    let entries = std::fs::read_dir(path)
        .map_err(|e| BenchError::Params(format!("{}: {e}", path.display())))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            grc_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "grc") {
            out.push(p);
        }
    }
    Ok(())
}

/// The scheduler radioflow runs on: the first `--scheduler` names, the default one for `all`.
fn scheduler(c: &Common) -> Result<SchedulerSpec, BenchError> {
    if c.scheduler == "all" {
        return Ok(SchedulerSpec::default());
    }
    c.schedulers()?
        .into_iter()
        .next()
        .ok_or_else(|| BenchError::Params("--scheduler names no scheduler".into()))
}

/// `radioflow bench grc DIR`.
pub(crate) fn bench(a: GrcArgs, c: &Common) -> Result<(), BenchError> {
    let gnuradio = c.gnuradio_only("bench grc")?;
    let (items, check_items) = if c.quick {
        (a.items.min(100_000), a.check_items.min(100_000))
    } else {
        (a.items, a.check_items)
    };
    if items == 0 || check_items == 0 {
        return Err(BenchError::Params(
            "--items and --check-items must be at least 1".into(),
        ));
    }
    let limit = Duration::from_secs_f64(a.limit);
    let spec = scheduler(c)?;
    let sched = spec.build();
    let mut files = Vec::new();
    grc_files(&a.path, &mut files)?;
    if files.is_empty() {
        return Err(BenchError::Params(format!(
            "{}: no .grc file there",
            a.path.display()
        )));
    }
    let gr_missing = if gnuradio { gnuradio::missing() } else { None };
    if let Some(why) = &gr_missing {
        eprintln!("radioflow: {why}; timing radioflow alone (SKIPPED: GNU Radio's side)");
    }
    let compare = gnuradio && gr_missing.is_none();
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let temporary = tempfile::Builder::new()
        .prefix("radioflow-bench-grc-")
        .tempdir()?;
    let work = match &a.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir)?;
            dir.as_path()
        }
        None => temporary.path(),
    };
    let mut rows = Vec::new();
    let mut runs = Vec::new();
    let mut ticker = Ticker::new(c, 0);
    let mut timed = 0;
    for (k, file) in files.iter().enumerate() {
        if c.quick && timed == 2 {
            break;
        }
        let shown = match file.strip_prefix(&a.path) {
            Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
            _ => file.display().to_string(),
        };
        let dir = work.join(k.to_string());
        let p = Plan {
            file,
            shown: &shown,
            dir: &dir,
            items,
            check_items,
            limit,
            runs: c.runs,
            compare,
            scheduler: sched.as_ref(),
            spec: &spec,
        };
        let what = match one(&p, &mut runs, &mut |p| ticker.show(p)) {
            Ok(t) => {
                timed += 1;
                Outcome::Timed(t)
            }
            Err(why) => Outcome::Skipped(why),
        };
        rows.push(Row { file: shown, what });
    }
    ticker.end();
    if let Some(dir) = &c.out {
        save(dir, &jsonl(&runs), &csv(&rows, items))?;
    }
    if !c.json {
        print!("{}", table(&rows, items, check_items, compare, &spec));
    }
    Ok(())
}

/// What one flowgraph's measurement needs.
struct Plan<'a> {
    file: &'a Path,
    shown: &'a str,
    dir: &'a Path,
    items: u64,
    check_items: u64,
    limit: Duration,
    runs: usize,
    compare: bool,
    scheduler: &'a dyn Scheduler,
    spec: &'a SchedulerSpec,
}

/// One flowgraph: rewritten, checked, then timed; or why not.
fn one(
    p: &Plan<'_>,
    all: &mut Vec<Measurement>,
    on_run: &mut dyn FnMut(&Progress<'_>),
) -> Result<Timed, String> {
    let text = std::fs::read_to_string(p.file).map_err(|e| format!("cannot read: {e}"))?;
    // radioflow's loader reads the file first: what it does not run is not rewritten (and
    // its bounded YAML reader sees the file before the rewrite's).
    match radioflow_graphfile::describe_grc(&text, p.file) {
        Ok(_) => {}
        Err(radioflow_graphfile::GraphError::Unsupported { ids, .. }) => {
            return Err(format!("radioflow does not run {}", ids.join(", ")))
        }
        Err(e) => {
            let e = e.to_string();
            let e = e.lines().next().unwrap_or_default();
            let prefix = format!("{}: ", p.file.display());
            return Err(format!(
                "radioflow: {}",
                e.strip_prefix(&prefix).unwrap_or(e)
            ));
        }
    }
    let timed =
        rewrite(&text, p.items, &Sinks::Null).map_err(|e| format!("not comparable: {e}"))?;
    let rf_dir = p.dir.join("radioflow");
    let gr_dir = p.dir.join("gnuradio");
    for d in [&rf_dir, &gr_dir] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let kept = p.dir.join("timed.grc");
    std::fs::write(&kept, &timed.yaml).map_err(|e| format!("{}: {e}", kept.display()))?;
    let rf_check = rewrite(&text, p.check_items, &Sinks::Files(rf_dir.clone()))?;
    let gr_check = rewrite(&text, p.check_items, &Sinks::Files(gr_dir.clone()))?;
    let origin = p.file;
    let (_, check_counts) = radioflow::run(
        &rf_check.yaml,
        origin,
        &rf_check.sinks,
        p.scheduler,
        p.limit,
    )
    .map_err(|e| format!("radioflow fails: {e}"))?;
    let mut notes = notes(&timed);
    if check_counts.iter().all(|n| *n == 0) {
        // Verified below against GNU Radio's counts, which must be nothing too.
        notes.push("no item reaches a sink".into());
    }
    let (check, mut gr) = if p.compare {
        let mut gr_check_run = GrFlowgraph::compile(
            &gr_check.yaml,
            &p.dir.join("gr-check"),
            &gr_check.sinks,
            p.limit,
        )
        .map_err(|e| format!("GNU Radio fails: {e}"))?;
        gr_check_run
            .run()
            .map_err(|e| format!("GNU Radio fails: {e}"))?;
        drop(gr_check_run);
        let check = compare_files(&rf_check.sinks, &rf_dir, &gr_dir, timed.random.is_empty());
        let gr = GrFlowgraph::compile(&timed.yaml, &p.dir.join("gr-timed"), &timed.sinks, p.limit)
            .map_err(|e| format!("GNU Radio fails: {e}"))?;
        (Some(check), Some(gr))
    } else {
        (None, None)
    };
    let mut t = Timed {
        signal_work: timed.signal_work,
        ours: Vec::new(),
        theirs: Vec::new(),
        check,
        notes: Vec::new(),
        items: Vec::new(),
    };
    let contenders = if gr.is_some() { 2 } else { 1 };
    for r in 0..p.runs {
        let (seconds, items) =
            radioflow::run(&timed.yaml, origin, &timed.sinks, p.scheduler, p.limit)
                .map_err(|e| format!("radioflow fails: {e}"))?;
        if t.items.is_empty() {
            t.items.clone_from(&items);
        }
        let consistent = items == t.items;
        let m = measurement(
            p,
            "radioflow",
            &p.spec.to_string(),
            seconds,
            consistent,
            &items,
        );
        on_run(&Progress {
            done: r * contenders + 1,
            total: p.runs * contenders,
            what: format!("grc {} radioflow", p.shown),
            line: &json_line(&m),
        });
        all.push(m);
        if !consistent {
            return Err(format!(
                "radioflow's sinks read {items:?} items, {:?} in the first run",
                t.items
            ));
        }
        t.ours.push(seconds);
        if let Some(g) = gr.as_mut() {
            let (seconds, theirs) = g.run().map_err(|e| format!("GNU Radio fails: {e}"))?;
            let equal = theirs == t.items;
            let m = measurement(p, "gnuradio", "tpb", seconds, equal, &theirs);
            on_run(&Progress {
                done: r * contenders + 2,
                total: p.runs * contenders,
                what: format!("grc {} gnuradio", p.shown),
                line: &json_line(&m),
            });
            all.push(m);
            if !equal {
                t.check = Some(Check::Differs(format!(
                    "timed run: GNU Radio's sinks read {theirs:?} items, radioflow's {:?}",
                    t.items
                )));
            }
            t.theirs.push(seconds);
        }
    }
    t.notes.append(&mut notes);
    Ok(t)
}

/// What the rewrite changed that the table should say.
fn notes(r: &Rewritten) -> Vec<String> {
    let mut n = Vec::new();
    if !r.signal_work {
        n.push("null source to null sink only".to_owned());
    }
    if !r.throttles.is_empty() {
        n.push("throttle removed".to_owned());
    }
    if !r.random.is_empty() {
        n.push(format!("random: {}", r.random.join(", ")));
    }
    n
}

fn measurement(
    p: &Plan<'_>,
    runtime: &str,
    scheduler: &str,
    seconds: f64,
    verified: bool,
    items: &[u64],
) -> Measurement {
    Measurement {
        experiment: "grc".into(),
        runtime: runtime.into(),
        scheduler: scheduler.into(),
        params: json!({ "flowgraph": p.shown, "items": p.items }),
        seconds,
        verified,
        detail: format!("items read per sink: {items:?}"),
        extra: serde_json::Value::Null,
    }
}

/// The geometric mean of the ratios of the flowgraphs whose check passed (only those that
/// compute with `signal_work`).
fn geometric_mean(rows: &[Row], signal_work: bool) -> Option<(f64, usize)> {
    let logs: Vec<f64> = rows
        .iter()
        .filter_map(|r| match &r.what {
            Outcome::Timed(t)
                if t.check.as_ref().is_some_and(Check::ok) && (t.signal_work || !signal_work) =>
            {
                t.ratio()
            }
            _ => None,
        })
        .map(f64::ln)
        .collect();
    (!logs.is_empty()).then(|| {
        (
            (logs.iter().sum::<f64>() / logs.len() as f64).exp(),
            logs.len(),
        )
    })
}

fn table(
    rows: &[Row],
    items: u64,
    check_items: u64,
    compare: bool,
    spec: &SchedulerSpec,
) -> String {
    let mut s = format!(
        "grc: each .grc rewritten once for both runtimes: head({:e}) after every source, throttles removed, sinks -> null sinks; check run: head({:e}), sinks -> files compared\n",
        items as f64, check_items as f64
    );
    s += &format!(
        "{:<40} {:>4} {:>12} {:>12} {:>8} {:>13}  {:<16} {}\n",
        "flowgraph",
        "runs",
        format!("rf {spec} ms"),
        "GR tpb ms",
        "GR/rf",
        "spread",
        "check",
        "notes"
    );
    let mut skipped = Vec::new();
    for r in rows {
        match &r.what {
            Outcome::Skipped(why) => skipped.push((r.file.as_str(), why.as_str())),
            Outcome::Timed(t) => {
                let med = |v: &[f64]| {
                    summarize(v).map_or("-".into(), |s| format!("{:.1}", s.median * 1e3))
                };
                s += &format!(
                    "{:<40} {:>4} {:>12} {:>12} {:>8} {:>13}  {:<16} {}\n",
                    r.file,
                    t.ours.len(),
                    med(&t.ours),
                    if compare { med(&t.theirs) } else { "-".into() },
                    t.ratio().map_or("-".into(), |x| format!("{x:.2}x")),
                    t.spread()
                        .map_or("-".into(), |(a, b)| format!("{a:.2}-{b:.2}")),
                    t.check.as_ref().map_or("-".into(), Check::cell),
                    t.notes.join("; ")
                );
            }
        }
    }
    if let Some((g, n)) = geometric_mean(rows, true) {
        s += &format!(
            "geometric mean of GR/rf over the {n} flowgraphs that compute and whose check passed: {g:.2}x\n"
        );
    }
    if let Some((g, n)) = geometric_mean(rows, false) {
        s += &format!(
            "geometric mean of GR/rf over all {n} flowgraphs whose check passed: {g:.2}x\n"
        );
    }
    if !skipped.is_empty() {
        s += &format!("\n{} flowgraphs not compared:\n", skipped.len());
        for (f, why) in skipped {
            s += &format!("  {f:<40} {why}\n");
        }
    }
    s
}

/// summary.csv: one line per flowgraph measured.
fn csv(rows: &[Row], items: u64) -> String {
    let mut s = String::from(
        "experiment,flowgraph,items,runs,radioflow_median_s,gnuradio_median_s,gnuradio_over_radioflow,ratio_min,ratio_max,check,notes\n",
    );
    for r in rows {
        let Outcome::Timed(t) = &r.what else { continue };
        let med = |v: &[f64]| summarize(v).map_or(String::new(), |s| format!("{:.6}", s.median));
        let (lo, hi) = t.spread().map_or((String::new(), String::new()), |(a, b)| {
            (format!("{a:.3}"), format!("{b:.3}"))
        });
        s += &format!(
            "grc,{},{items},{},{},{},{},{lo},{hi},{},{}\n",
            r.file,
            t.ours.len(),
            med(&t.ours),
            med(&t.theirs),
            t.ratio().map_or(String::new(), |x| format!("{x:.3}")),
            t.check
                .as_ref()
                .map_or(String::new(), |c| c.cell().replace(',', ";")),
            t.notes.join("; ").replace(',', ";")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::SingleThread;

    /// A sine (float) and a cosine (complex) through throttles into QT GUI displays.
    const FLOWGRAPH: &str = "\
options:
  parameters: {id: demo, generate_options: qt_gui, output_language: python}
  states: {state: enabled}
blocks:
- name: samp_rate
  id: variable
  parameters: {comment: '', value: '32000'}
  states: {state: enabled}
- name: sine
  id: analog_sig_source_x
  parameters: {amp: '1', comment: '', freq: '1000', offset: '0', phase: '0', samp_rate: samp_rate, type: float, waveform: analog.GR_SIN_WAVE}
  states: {state: enabled}
- name: cosine
  id: analog_sig_source_x
  parameters: {amp: '0.5', comment: '', freq: '-3000', offset: '0', phase: '0', samp_rate: samp_rate, type: complex, waveform: analog.GR_COS_WAVE}
  states: {state: enabled}
- name: thr
  id: blocks_throttle
  parameters: {comment: '', ignoretag: 'True', samples_per_second: samp_rate, type: float, vlen: '1'}
  states: {state: enabled}
- name: scope
  id: qtgui_time_sink_x
  parameters: {comment: '', nconnections: '1', type: float, size: '1024'}
  states: {state: enabled}
- name: spectrum
  id: qtgui_freq_sink_x
  parameters: {comment: '', nconnections: '1', type: complex}
  states: {state: enabled}
connections:
- [sine, '0', thr, '0']
- [thr, '0', scope, '0']
- [cosine, '0', spectrum, '0']
metadata: {file_format: 1}
";

    fn timed(ours: &[f64], theirs: &[f64], check: Check, signal_work: bool) -> Row {
        Row {
            file: "f.grc".into(),
            what: Outcome::Timed(Timed {
                signal_work,
                ours: ours.to_vec(),
                theirs: theirs.to_vec(),
                check: Some(check),
                notes: Vec::new(),
                items: vec![1],
            }),
        }
    }

    #[test]
    fn the_geometric_mean_takes_the_checked_flowgraphs_that_compute() {
        let rows = [
            timed(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0], Check::Equal(0.0), true),
            timed(&[1.0], &[8.0], Check::CountsOnly, true),
            timed(&[1.0], &[100.0], Check::Differs("x".into()), true),
            timed(&[1.0], &[32.0], Check::Equal(0.0), false),
            Row {
                file: "g.grc".into(),
                what: Outcome::Skipped("why".into()),
            },
        ];
        let (g, n) = geometric_mean(&rows, true).unwrap();
        assert_eq!(n, 2);
        assert!((g - 4.0).abs() < 1e-12, "sqrt(2 * 8) = {g}");
        let (g, n) = geometric_mean(&rows, false).unwrap();
        assert_eq!(n, 3);
        assert!((g - 8.0).abs() < 1e-9, "cbrt(2 * 8 * 32) = {g}");
        let Outcome::Timed(t) = &rows[0].what else {
            unreachable!()
        };
        assert_eq!(t.spread(), Some((2.0, 2.0)));
        let text = table(&rows, 10, 10, true, &SchedulerSpec::default());
        assert!(
            text.contains("1 flowgraphs not compared:\n  g.grc"),
            "{text}"
        );
        assert!(text.contains("DIFFERS: x"), "{text}");
    }

    #[test]
    fn both_runtimes_run_the_rewrite_and_write_the_same_streams() {
        let dir = tempfile::tempdir().unwrap();
        let (ours, theirs) = (dir.path().join("rf"), dir.path().join("gr"));
        for d in [&ours, &theirs] {
            std::fs::create_dir_all(d).unwrap();
        }
        let limit = Duration::from_secs(60);
        let rf = rewrite(FLOWGRAPH, 3000, &Sinks::Files(ours.clone())).unwrap();
        let (_, counts) = radioflow::run(
            &rf.yaml,
            Path::new("demo.grc"),
            &rf.sinks,
            &SingleThread::new(),
            limit,
        )
        .unwrap();
        assert_eq!(counts, [3000, 3000]);
        if let Some(why) = gnuradio::missing() {
            eprintln!("SKIPPED: GNU Radio's side of bench grc: {why}");
            return;
        }
        let gr = rewrite(FLOWGRAPH, 3000, &Sinks::Files(theirs.clone())).unwrap();
        let mut g =
            GrFlowgraph::compile(&gr.yaml, &dir.path().join("py"), &gr.sinks, limit).unwrap();
        let (seconds, counts) = g.run().unwrap();
        assert!(seconds > 0.0);
        assert_eq!(counts, [3000, 3000]);
        drop(g);
        let check = compare_files(&rf.sinks, &ours, &theirs, true);
        assert!(matches!(check, Check::Equal(_)), "{check:?}");
    }
}
