//! `bench counters`: every configuration (scheduler x affinity x counters mode, and GNU Radio's
//! performance counters off and on) on the notes' two graphs, each run in a child process (see
//! [`run_child`]), alternated run by run; the overhead of each mode against its baseline.

use super::run::{compiled_out_binary, run_child, CountersParams};
use crate::contender::{built_peers, flags, RunFn, Skipped};
use crate::measurement::BenchError;
use crate::peers::Peer;
use crate::plot::{Chart, Series};
use crate::progress::{OnRun, Progress};
use crate::results::{plot, Plotted};
use crate::stats::{summarize, Summary};
use std::path::Path;

/// One configuration measured.
pub struct CountersContender {
    /// `radioflow` or `gnuradio`.
    pub runtime: &'static str,
    /// `tpb`, `flow` or `single`.
    pub scheduler: String,
    /// Thread affinity on.
    pub affinity: bool,
    /// `compiled-out`, `off`, `counts` or `on` (GNU Radio: `off` or `on`).
    pub mode: String,
    /// One run.
    pub run: RunFn<CountersParams>,
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// The configurations: every scheduler x affinity x mode on radioflow (run by `exe`, or by a
/// binary with the counters compiled out), then GNU Radio's counters off and on per affinity.
///
/// # Errors
///
/// An unknown counters mode.
pub fn contenders(
    exe: &Path,
    schedulers: &[String],
    affinities: &[bool],
    modes: &[String],
    peers: &[Peer],
    skipped: &mut Vec<Skipped>,
) -> Result<Vec<CountersContender>, BenchError> {
    let out_bin = if modes.iter().any(|m| m == "compiled-out") {
        compiled_out_binary()
            .map_err(|e| {
                skipped.push(Skipped(format!(
                    "{e}; measuring without the compiled-out mode"
                )))
            })
            .ok()
    } else {
        None
    };
    let mut out = Vec::new();
    for s in schedulers {
        for &affinity in affinities {
            for mode in modes {
                let (bin, level) = match mode.as_str() {
                    "compiled-out" => match &out_bin {
                        Some(b) => (b.clone(), "on"),
                        None => continue,
                    },
                    "off" | "counts" | "on" => (exe.to_owned(), mode.as_str()),
                    other => {
                        return Err(BenchError::Params(format!(
                            "unknown counters mode '{other}'"
                        )))
                    }
                };
                let (s2, level) = (s.clone(), level.to_owned());
                out.push(CountersContender {
                    runtime: "radioflow",
                    scheduler: s.clone(),
                    affinity,
                    mode: mode.clone(),
                    run: Box::new(move |p| run_child(&bin, p, &s2, &level, affinity)),
                });
            }
        }
    }
    let mut gnuradio = Vec::new();
    for &peer in peers {
        if peer == Peer::GnuRadio {
            gnuradio.push(peer);
        } else {
            skipped.push(Skipped(format!(
                "counters: only GNU Radio has performance counters; skipping {}",
                peer.name()
            )));
        }
    }
    for (peer, bin) in built_peers(&gnuradio, skipped) {
        for &affinity in affinities {
            for pc in ["off", "on"] {
                let bin = bin.clone();
                out.push(CountersContender {
                    runtime: "gnuradio",
                    scheduler: "tpb".into(),
                    affinity,
                    mode: pc.into(),
                    run: Box::new(move |p| {
                        let args = flags(&[
                            ("stages", p.stages.to_string()),
                            ("samples", p.samples.to_string()),
                            ("taps", p.taps.to_string()),
                            ("perfcounters", pc.to_string()),
                            ("affinity", on_off(affinity).to_string()),
                        ]);
                        peer.run(&bin, "counters", &args)
                    }),
                });
            }
        }
    }
    Ok(out)
}

/// The notes' two graphs: `fir` (one FIR) and `fir-chain` (`chain` FIRs).
pub fn graphs(
    samples: u64,
    chain: usize,
    chain_samples: u64,
    taps: usize,
) -> [(&'static str, CountersParams); 2] {
    [
        (
            "fir",
            CountersParams {
                stages: 1,
                samples,
                taps,
            },
        ),
        (
            "fir-chain",
            CountersParams {
                stages: chain,
                samples: chain_samples,
                taps,
            },
        ),
    ]
}

/// One configuration on one graph.
#[derive(Clone, Debug)]
pub struct CountersRow {
    /// `radioflow` or `gnuradio`.
    pub runtime: &'static str,
    /// Scheduler.
    pub scheduler: String,
    /// Thread affinity on.
    pub affinity: bool,
    /// Counters mode.
    pub mode: String,
    /// Run times (s).
    pub summary: Summary,
    /// Median against the same runtime, scheduler and affinity with the counters compiled out
    /// (radioflow; else off) or off (GNU Radio), in % (NaN without that configuration).
    pub overhead_pct: f64,
    /// GNU Radio's median (counters off, same affinity) over this one (NaN without GNU Radio).
    pub gnuradio_over_this: f64,
    /// Every run delivered every item.
    pub verified: bool,
}

/// One graph's results.
#[derive(Clone, Debug)]
pub struct GraphResult {
    /// `fir` or `fir-chain`.
    pub graph: &'static str,
    /// Its parameters.
    pub params: CountersParams,
    /// One per configuration.
    pub rows: Vec<CountersRow>,
}

impl GraphResult {
    /// One line per runtime, scheduler and affinity: the median across the counter modes
    /// (x: 0 compiled out, 1 off, 1.5 counts, 2 on).
    pub fn series(&self) -> Vec<Series> {
        let mut series: Vec<Series> = Vec::new();
        for r in &self.rows {
            let label = format!(
                "{} {} affinity {}",
                r.runtime,
                r.scheduler,
                on_off(r.affinity)
            );
            let x = match r.mode.as_str() {
                "compiled-out" => 0.0,
                "off" => 1.0,
                "counts" => 1.5,
                _ => 2.0,
            };
            match series.iter_mut().find(|s| s.label == label) {
                Some(s) => s.points.push((x, r.summary.median)),
                None => series.push(Series {
                    label,
                    points: vec![(x, r.summary.median)],
                }),
            }
        }
        series
    }
}

/// Every graph on every configuration.
#[derive(Clone, Debug)]
pub struct CountersStudy {
    /// One per graph.
    pub graphs: Vec<GraphResult>,
    /// Every run's JSON line (with `graph`, `counters` and `affinity` added).
    pub jsonl: String,
}

/// summary.csv's header.
pub const CSV_HEADER: &str = "graph,runtime,scheduler,affinity,counters,runs,median_s,mean_s,ci95_s,min_s,max_s,overhead_pct,gnuradio_over_radioflow,verified\n";

impl CountersStudy {
    /// Every run verified.
    pub fn verified(&self) -> bool {
        self.graphs.iter().flat_map(|g| &g.rows).all(|r| r.verified)
    }

    /// summary.csv.
    pub fn csv(&self) -> String {
        let mut csv = String::from(CSV_HEADER);
        for g in &self.graphs {
            for r in &g.rows {
                let s = &r.summary;
                csv.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                    g.graph,
                    r.runtime,
                    r.scheduler,
                    on_off(r.affinity),
                    r.mode,
                    s.n,
                    s.median,
                    s.mean,
                    s.ci95,
                    s.min,
                    s.max,
                    r.overhead_pct,
                    r.gnuradio_over_this,
                    r.verified
                ));
            }
        }
        csv
    }

    /// One plot per graph, `<dir>/counters-<graph>.{svg,png}`.
    pub fn plots(&self, dir: &Path) -> Vec<Plotted> {
        self.graphs
            .iter()
            .map(|g| {
                let title = format!("counters: {}, median run time", g.graph);
                let series = g.series();
                let chart = Chart {
                    title: &title,
                    x_label: "counters: 0 compiled out, 1 off, 2 on",
                    y_label: "seconds",
                    log_x: false,
                    series: &series,
                };
                plot(dir.join(format!("counters-{}", g.graph)), &chart)
            })
            .collect()
    }
}

/// Runs every graph `runs` times on every configuration, alternated run by run.
///
/// # Errors
///
/// A run failed.
pub fn measure(
    graphs: &[(&'static str, CountersParams)],
    contenders: &[CountersContender],
    runs: usize,
    on_run: OnRun<'_>,
) -> Result<CountersStudy, BenchError> {
    let mut study = CountersStudy {
        graphs: Vec::new(),
        jsonl: String::new(),
    };
    let total = graphs.len() * runs * contenders.len();
    let mut done = 0;
    for &(graph, p) in graphs {
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); contenders.len()];
        let mut verified = vec![true; contenders.len()];
        for _ in 0..runs {
            for (i, k) in contenders.iter().enumerate() {
                let m = (k.run)(&p)?;
                let mut v = serde_json::to_value(&m)
                    .unwrap_or_else(|e| unreachable!("a measurement serializes: {e}"));
                v["graph"] = graph.into();
                v["counters"] = k.mode.clone().into();
                v["affinity"] = on_off(k.affinity).into();
                let line = v.to_string();
                study.jsonl.push_str(&line);
                study.jsonl.push('\n');
                done += 1;
                on_run(&Progress {
                    done,
                    total,
                    what: format!(
                        "{graph} {} {} affinity {} counters {}",
                        k.runtime,
                        k.scheduler,
                        on_off(k.affinity),
                        k.mode
                    ),
                    line: &line,
                });
                verified[i] &= m.verified;
                times[i].push(m.seconds);
            }
        }
        let rows = rows(contenders, &times, &verified);
        study.graphs.push(GraphResult {
            graph,
            params: p,
            rows,
        });
    }
    Ok(study)
}

/// The configurations' summaries, with the overhead against each one's baseline.
fn rows(
    contenders: &[CountersContender],
    times: &[Vec<f64>],
    verified: &[bool],
) -> Vec<CountersRow> {
    let sums: Vec<Summary> = times
        .iter()
        .map(|t| summarize(t).expect("runs >= 1"))
        .collect();
    let find = |rt: &str, s: &str, aff: bool, mode: &str| {
        contenders.iter().position(|k| {
            k.runtime == rt && k.scheduler == s && k.affinity == aff && k.mode == mode
        })
    };
    contenders
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let base = if k.runtime == "gnuradio" {
                find("gnuradio", "tpb", k.affinity, "off")
            } else {
                find("radioflow", &k.scheduler, k.affinity, "compiled-out")
                    .or_else(|| find("radioflow", &k.scheduler, k.affinity, "off"))
            };
            let s = sums[i];
            CountersRow {
                runtime: k.runtime,
                scheduler: k.scheduler.clone(),
                affinity: k.affinity,
                mode: k.mode.clone(),
                summary: s,
                overhead_pct: base.map_or(f64::NAN, |b| 100.0 * (s.median / sums[b].median - 1.0)),
                gnuradio_over_this: find("gnuradio", "tpb", k.affinity, "off")
                    .map_or(f64::NAN, |g| sums[g].median / s.median),
                verified: verified[i],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measurement::Measurement;

    /// A configuration whose runs take `seconds`.
    fn fake(runtime: &'static str, scheduler: &str, mode: &str, seconds: f64) -> CountersContender {
        CountersContender {
            runtime,
            scheduler: scheduler.into(),
            affinity: false,
            mode: mode.into(),
            run: Box::new(move |p| {
                Ok(Measurement {
                    experiment: "counters".into(),
                    runtime: runtime.into(),
                    scheduler: "tpb".into(),
                    params: serde_json::json!({"samples": p.samples}),
                    seconds,
                    verified: true,
                    detail: String::new(),
                    extra: serde_json::Value::Null,
                })
            }),
        }
    }

    #[test]
    fn overheads_are_against_the_compiled_out_or_off_baseline() {
        let ks = [
            fake("radioflow", "tpb", "compiled-out", 1.0),
            fake("radioflow", "tpb", "off", 1.1),
            fake("radioflow", "tpb", "on", 1.25),
            fake("radioflow", "flow", "off", 0.5),
            fake("radioflow", "flow", "on", 0.6),
            fake("gnuradio", "tpb", "off", 2.0),
            fake("gnuradio", "tpb", "on", 3.0),
        ];
        let mut lines = 0;
        let study = measure(&graphs(1000, 3, 100, 10)[..1], &ks, 2, &mut |p| {
            lines += 1;
            let v: serde_json::Value = serde_json::from_str(p.line).unwrap();
            assert_eq!(v["graph"], "fir");
            assert_eq!(v["affinity"], "off");
        })
        .unwrap();
        assert_eq!(lines, 14);
        let pct: Vec<f64> = study.graphs[0]
            .rows
            .iter()
            .map(|r| (r.overhead_pct * 1e6).round() / 1e6)
            .collect();
        assert_eq!(pct, [0.0, 10.0, 25.0, 0.0, 20.0, 0.0, 50.0]);
        let gr = &study.graphs[0].rows[3];
        assert!((gr.gnuradio_over_this - 4.0).abs() < 1e-12);
        assert!(study.verified());
        assert_eq!(study.csv().lines().count(), 8);
        let series = study.graphs[0].series();
        assert_eq!(series.len(), 3);
        assert_eq!(series[0].points, [(0.0, 1.0), (1.0, 1.1), (2.0, 1.25)]);
    }

    #[test]
    fn an_unknown_mode_is_refused() {
        let e = contenders(
            Path::new("radioflow"),
            &["tpb".into()],
            &[false],
            &["sometimes".into()],
            &[],
            &mut Vec::new(),
        );
        assert!(e.is_err_and(|e| e.to_string() == "unknown counters mode 'sometimes'"));
    }
}
