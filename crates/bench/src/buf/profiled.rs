//! `bench resched` (Bloessl et al. 2019, Fig. 5: voluntary and involuntary context switches per
//! thread) and `bench items` (Fig. 6: log2 histogram of the items each copy-block work call
//! produced): the `buf` graph profiled on thread-per-block at normal and real-time priority
//! (the paper's comparison) and on the cache-aware schedulers, and on the peers the same way
//! (`peers/gnuradio`, experiments `resched` and `items`).

use super::{run_profiled, BufParams};
use crate::common::Common;
use crate::contender::{built_peers, flags, warn, Contender, Skipped};
use crate::machine::Machine;
use crate::measurement::{BenchError, Measurement};
use crate::peers::Peer;
use crate::plot::{Chart, Series};
use crate::progress::{OnRun, Progress, Ticker};
use crate::results::{json_line, jsonl, plot, report_plots, save, Plotted};
use crate::stats::summarize;
use radioflow_runtime::{FlowScheduler, RealtimePolicy, Scheduler, SingleThread, ThreadPerBlock};
use std::path::Path;
use std::sync::Arc;

/// Which statistic of the profiled `buf` runs to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statistic {
    /// Context switches per thread.
    Resched,
    /// Items produced per work call.
    Items,
}

impl Statistic {
    /// `resched` or `items`.
    pub fn name(self) -> &'static str {
        match self {
            Statistic::Resched => "resched",
            Statistic::Items => "items",
        }
    }
}

/// radioflow's thread-per-block at normal and real-time priority, `flow` and `single`, then the
/// peers' configurations (a peer without the experiment is left out, saying so).
pub fn contenders(
    kind: Statistic,
    peers: &[Peer],
    skipped: &mut Vec<Skipped>,
) -> Vec<Contender<BufParams>> {
    let schedulers: Vec<Arc<dyn Scheduler>> = vec![
        Arc::new(ThreadPerBlock::new()),
        Arc::new(ThreadPerBlock::new().realtime(RealtimePolicy::Fifo(50))),
        Arc::new(FlowScheduler::new()),
        Arc::new(SingleThread::new()),
    ];
    let mut out: Vec<Contender<BufParams>> = schedulers
        .into_iter()
        .map(|s| Contender {
            runtime: "radioflow".into(),
            label: s.name().to_owned(),
            run: Box::new(move |p| {
                let mut m = run_profiled(p, s.as_ref())?;
                m.experiment = kind.name().into();
                Ok(m)
            }),
        })
        .collect();
    let mut with_experiment = Vec::new();
    for &peer in peers {
        if peer.configurations(kind.name(), false).is_empty() {
            skipped.push(Skipped(format!(
                "{} has no {} experiment; comparing without it",
                peer.name(),
                kind.name()
            )));
        } else {
            with_experiment.push(peer);
        }
    }
    for (peer, bin) in built_peers(&with_experiment, skipped) {
        for (label, extra) in peer.configurations(kind.name(), false) {
            let bin = bin.clone();
            out.push(Contender {
                runtime: peer.name().into(),
                label,
                run: Box::new(move |p| {
                    let mut args = flags(&[
                        ("pipes", p.pipes.to_string()),
                        ("stages", p.stages.to_string()),
                        ("samples", p.samples.to_string()),
                    ]);
                    args.extend(extra.iter().cloned());
                    peer.run(&bin, kind.name(), &args)
                }),
            });
        }
    }
    out
}

/// A run that asked for real-time priority and ran at normal priority because the machine
/// refused it (peers report this; radioflow warns on stderr itself).
fn rt_refused(m: &Measurement) -> bool {
    m.params["rt"].as_bool() == Some(true) && m.extra["rt_granted"].as_bool() == Some(false)
}

fn number(m: &Measurement, key: &str) -> f64 {
    m.extra[key].as_f64().unwrap_or(f64::NAN)
}

/// The copy blocks' items-per-call histogram of a run (32 log2 bins).
fn histogram(m: &Measurement) -> Vec<u64> {
    m.extra["produced_log2"]
        .as_array()
        .map(|a| a.iter().map(|v| v.as_u64().unwrap_or(0)).collect())
        .unwrap_or_default()
}

/// Every contender's profiled runs.
#[derive(Clone, Debug)]
pub struct Profiled {
    /// Which statistic.
    pub kind: Statistic,
    /// The graph.
    pub params: BufParams,
    /// Per contender: `runtime`.
    pub runtimes: Vec<String>,
    /// Per contender: the scheduler, `(refused)` added where real-time priority was refused.
    pub labels: Vec<String>,
    /// Per contender, where the machine refused real-time priority: its status.
    pub refused: Vec<Option<String>>,
    /// Per contender, its runs.
    pub runs: Vec<Vec<Measurement>>,
}

/// Runs `kind` on every contender `runs` times, alternated run by run.
///
/// # Errors
///
/// A run failed.
pub fn measure(
    kind: Statistic,
    p: &BufParams,
    contenders: &[Contender<BufParams>],
    runs: usize,
    on_run: OnRun<'_>,
) -> Result<Profiled, BenchError> {
    let mut all: Vec<Vec<Measurement>> = vec![Vec::new(); contenders.len()];
    let total = runs * contenders.len();
    let mut done = 0;
    for _ in 0..runs {
        for (k, ms) in contenders.iter().zip(&mut all) {
            let m = (k.run)(p)?;
            done += 1;
            on_run(&Progress {
                done,
                total,
                what: format!("{} {}", kind.name(), k.name()),
                line: &json_line(&m),
            });
            ms.push(m);
        }
    }
    let refused: Vec<Option<String>> = all
        .iter()
        .map(|ms| {
            ms.iter()
                .any(rt_refused)
                .then(|| ms[0].extra["rt_status"].as_str().unwrap_or("?").to_owned())
        })
        .collect();
    let labels = contenders
        .iter()
        .zip(&refused)
        .map(|(k, r)| match r {
            Some(_) => format!("{} (refused)", k.label),
            None => k.label.clone(),
        })
        .collect();
    Ok(Profiled {
        kind,
        params: *p,
        runtimes: contenders.iter().map(|k| k.runtime.clone()).collect(),
        labels,
        refused,
        runs: all,
    })
}

/// One contender's context switches (medians over the runs).
#[derive(Clone, Copy, Debug)]
pub struct ReschedRow {
    /// Threads of the run.
    pub threads: f64,
    /// Run time (s).
    pub seconds: f64,
    /// Voluntary context switches of all threads.
    pub voluntary: f64,
    /// Involuntary context switches of all threads.
    pub involuntary: f64,
    /// Every run delivered every item.
    pub verified: bool,
}

/// One contender's copy-block work calls (first run: medians of bins need not add up).
#[derive(Clone, Debug)]
pub struct ItemsRow {
    /// Work calls per log2 bin of the items produced.
    pub histogram: Vec<u64>,
    /// Work calls.
    pub calls: u64,
    /// Items produced.
    pub items: u64,
    /// Every run delivered every item.
    pub verified: bool,
}

impl ItemsRow {
    /// Items per work call.
    pub fn per_call(&self) -> f64 {
        self.items as f64 / self.calls.max(1) as f64
    }

    /// (bin, share of the calls in %) of the bins with at least 1% of the calls.
    pub fn main_bins(&self) -> Vec<(usize, f64)> {
        let calls = self.calls.max(1);
        self.histogram
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c * 100 >= calls)
            .map(|(b, &c)| (b, 100.0 * c as f64 / calls as f64))
            .collect()
    }
}

impl Profiled {
    /// Per contender: every run verified.
    pub fn verified(&self) -> Vec<bool> {
        self.runs
            .iter()
            .map(|ms| ms.iter().all(|m| m.verified))
            .collect()
    }

    /// The first contender with a run that did not verify.
    pub fn first_unverified(&self) -> Option<usize> {
        self.verified().iter().position(|ok| !ok)
    }

    /// Per contender, the medians of its context switches.
    pub fn resched_rows(&self) -> Vec<ReschedRow> {
        let median = |ms: &[Measurement], f: &dyn Fn(&Measurement) -> f64| {
            summarize(&ms.iter().map(f).collect::<Vec<_>>()).map_or(f64::NAN, |s| s.median)
        };
        self.runs
            .iter()
            .zip(self.verified())
            .map(|(ms, verified)| ReschedRow {
                threads: median(ms, &|m| number(m, "threads")),
                seconds: median(ms, &|m| m.seconds),
                voluntary: median(ms, &|m| number(m, "voluntary")),
                involuntary: median(ms, &|m| number(m, "involuntary")),
                verified,
            })
            .collect()
    }

    /// Per contender, its first run's items per work call.
    pub fn items_rows(&self) -> Vec<ItemsRow> {
        self.runs
            .iter()
            .zip(self.verified())
            .map(|(ms, verified)| {
                let histogram = histogram(&ms[0]);
                ItemsRow {
                    calls: histogram.iter().sum(),
                    items: ms[0].extra["items_produced"].as_u64().unwrap_or(0),
                    histogram,
                    verified,
                }
            })
            .collect()
    }

    /// summary.csv.
    pub fn csv(&self) -> String {
        match self.kind {
            Statistic::Resched => self.resched_csv(),
            Statistic::Items => self.items_csv(),
        }
    }

    fn resched_csv(&self) -> String {
        let mut csv = String::from(
            "experiment,runtime,scheduler,runs,threads,median_s,median_voluntary,\
             median_involuntary,voluntary_per_thread,involuntary_per_thread,verified\n",
        );
        for (i, r) in self.resched_rows().iter().enumerate() {
            csv.push_str(&format!(
                "resched,{},{},{},{},{},{},{},{},{},{}\n",
                self.runtimes[i],
                self.labels[i],
                self.runs[i].len(),
                r.threads,
                r.seconds,
                r.voluntary,
                r.involuntary,
                r.voluntary / r.threads,
                r.involuntary / r.threads,
                r.verified
            ));
        }
        csv
    }

    fn items_csv(&self) -> String {
        let mut csv =
            String::from("experiment,runtime,scheduler,work_calls,items_produced,items_per_call");
        for k in 0..32 {
            csv.push_str(&format!(",bin_{k}"));
        }
        csv.push_str(",verified\n");
        for (i, r) in self.items_rows().iter().enumerate() {
            csv.push_str(&format!(
                "items,{},{},{},{},{}",
                self.runtimes[i],
                self.labels[i],
                r.calls,
                r.items,
                r.per_call()
            ));
            for c in r.histogram.iter().chain(std::iter::repeat(&0)).take(32) {
                csv.push_str(&format!(",{c}"));
            }
            csv.push_str(&format!(",{}\n", r.verified));
        }
        csv
    }

    /// The plots in `dir`: Fig. 6 (`items-hist`) or Fig. 5
    /// (`resched-{involuntary,voluntary}`).
    pub fn plots(&self, dir: &Path) -> Vec<Plotted> {
        match self.kind {
            Statistic::Items => vec![self.items_plot(dir)],
            Statistic::Resched => ["involuntary", "voluntary"]
                .iter()
                .map(|key| self.resched_plot(dir, key))
                .collect(),
        }
    }

    /// Fig. 6 of Bloessl et al. 2019 as lines: share of work calls per log2 bin, one line per contender.
    fn items_plot(&self, dir: &Path) -> Plotted {
        let hists: Vec<Vec<u64>> = self.runs.iter().map(|ms| histogram(&ms[0])).collect();
        let last = hists
            .iter()
            .filter_map(|h| h.iter().rposition(|&c| c > 0))
            .max()
            .unwrap_or(0);
        let series: Vec<Series> = self
            .runtimes
            .iter()
            .zip(&self.labels)
            .zip(&hists)
            .map(|((runtime, label), h)| {
                let calls = h.iter().sum::<u64>().max(1) as f64;
                Series {
                    label: format!("{runtime} {label}"),
                    points: (0..=last)
                        .map(|b| {
                            let c = h.get(b).copied().unwrap_or(0);
                            (b as f64, 100.0 * c as f64 / calls)
                        })
                        .collect(),
                }
            })
            .collect();
        let p = &self.params;
        let title = format!(
            "items (seed Fig. 6): buf {}x{} {:e}, items per copy work call",
            p.pipes, p.stages, p.samples as f64
        );
        let chart = Chart {
            title: &title,
            x_label: "log2(items produced per call)",
            y_label: "% of work calls",
            log_x: false,
            series: &series,
        };
        plot(dir.join("items-hist"), &chart)
    }

    /// Fig. 5 of Bloessl et al. 2019 as lines: context switches (`key`: voluntary or involuntary) of every
    /// copy-running thread of the first run, threads sorted from most to fewest.
    fn resched_plot(&self, dir: &Path, key: &str) -> Plotted {
        let series: Vec<Series> = self
            .runtimes
            .iter()
            .zip(&self.labels)
            .zip(&self.runs)
            .map(|((runtime, label), ms)| {
                let mut counts = copy_thread_switches(&ms[0], key);
                counts.sort_unstable_by(|a, b| b.cmp(a));
                Series {
                    label: format!("{runtime} {label} ({} threads)", counts.len()),
                    points: counts
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| (i as f64 + 1.0, c as f64))
                        .collect(),
                }
            })
            .collect();
        let p = &self.params;
        let title = format!(
            "resched (seed Fig. 5): buf {}x{} {:e}, {key} context switches per thread",
            p.pipes, p.stages, p.samples as f64
        );
        let chart = Chart {
            title: &title,
            x_label: "thread running copy blocks (sorted, most switches first)",
            y_label: &format!("{key} context switches"),
            log_x: false,
            series: &series,
        };
        plot(dir.join(format!("resched-{key}")), &chart)
    }
}

/// The context switches of each thread that runs copy blocks in a run: radioflow's threads
/// that step a copy block (each copy's own thread under `tpb`; the workers under `flow` and
/// `single`, which step all blocks), GNU Radio's copy-block threads (`copy_threads`; its
/// source, head and sink threads are only known as a sum). `key`: "voluntary" or
/// "involuntary".
fn copy_thread_switches(m: &Measurement, key: &str) -> Vec<u64> {
    let pick = |v: &serde_json::Value| v[key].as_u64().unwrap_or(0);
    if let Some(ts) = m.extra["copy_threads"].as_array() {
        return ts.iter().map(pick).collect();
    }
    let threads = m.extra["per_thread"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let copies: Vec<u64> = threads
        .iter()
        .filter(|t| t["name"].as_str().is_some_and(|n| n.contains("copy")))
        .map(pick)
        .collect();
    if copies.is_empty() {
        threads.iter().map(pick).collect()
    } else {
        copies
    }
}

/// `radioflow bench resched|items`: runs `kind` on every contender, alternated run by run, and
/// reports it.
pub(crate) fn bench(kind: Statistic, p: BufParams, c: &Common) -> Result<(), BenchError> {
    let p = if c.quick {
        BufParams {
            samples: p.samples.min(100_000),
            ..p
        }
    } else {
        p
    };
    let mut skipped = Vec::new();
    let ks = contenders(kind, &c.peers("gnuradio, futuresdr")?, &mut skipped);
    warn(skipped);
    let mut ticker = Ticker::new(c, 4);
    let prof = measure(kind, &p, &ks, c.runs, &mut |x| ticker.show(x))?;
    ticker.end();
    for (k, refused) in ks.iter().zip(&prof.refused) {
        if let Some(status) = refused {
            eprintln!(
                "radioflow: {} {}: the machine refused real-time priority ({status}); it ran at \
                 normal priority",
                k.runtime, k.label
            );
        }
    }
    if !c.json {
        match kind {
            Statistic::Resched => print_resched(&prof),
            Statistic::Items => print_items(&prof),
        }
    }
    if let Some(dir) = &c.out {
        let all: Vec<Measurement> = prof.runs.iter().flatten().cloned().collect();
        save(dir, &jsonl(&all), &prof.csv())?;
        report_plots(prof.plots(dir));
    }
    if let Some(i) = prof.first_unverified() {
        return Err(BenchError::Unverified(format!(
            "{} {}: items were lost or not all accounted for",
            ks[i].runtime, ks[i].label
        )));
    }
    Ok(())
}

/// The context-switch table.
fn print_resched(prof: &Profiled) {
    let p = &prof.params;
    println!("machine: {}", Machine::detect());
    println!(
        "buf {}x{} {:e}, {} runs per runtime and scheduler (medians); context switches of \
         all the runtime's threads, read from the kernel per thread",
        p.pipes,
        p.stages,
        p.samples as f64,
        prof.runs.first().map_or(0, Vec::len)
    );
    println!(
        "{:<10} {:<17} {:>7} {:>9} {:>12} {:>12} {:>11} {:>11} {:>8}",
        "runtime",
        "scheduler",
        "threads",
        "seconds",
        "voluntary",
        "involuntary",
        "vol/thread",
        "inv/thread",
        "verified"
    );
    for (i, r) in prof.resched_rows().iter().enumerate() {
        println!(
            "{:<10} {:<17} {:>7} {:>9.3} {:>12.0} {:>12.0} {:>11.1} {:>11.2} {:>8}",
            prof.runtimes[i],
            prof.labels[i],
            r.threads,
            r.seconds,
            r.voluntary,
            r.involuntary,
            r.voluntary / r.threads,
            r.involuntary / r.threads,
            if r.verified { "yes" } else { "NO" }
        );
    }
    if prof.runtimes.iter().any(|r| r == "gnuradio") {
        println!(
            "gnuradio: one thread per block; all of them summed from getrusage(RUSAGE_SELF) \
             around top_block::run() less the main and earlier threads; each copy block's \
             thread read by getrusage(RUSAGE_THREAD) in its stop(), which GNU Radio 3.10 calls \
             on that thread as it ends (per thread in --json: copy_threads)"
        );
    }
}

/// The items-per-call table.
fn print_items(prof: &Profiled) {
    let p = &prof.params;
    println!("machine: {}", Machine::detect());
    println!(
        "buf {}x{} {:e}: copy-block work calls by items produced (log2 bins, share of \
         calls, bins under 1% left out; first run)",
        p.pipes, p.stages, p.samples as f64
    );
    println!(
        "{:<10} {:<17} {:>10} {:>10} {:>9}  histogram",
        "runtime", "scheduler", "calls", "items/call", "verified"
    );
    for (i, r) in prof.items_rows().iter().enumerate() {
        let bins: Vec<String> = r
            .main_bins()
            .iter()
            .map(|(b, pct)| format!("2^{b}: {pct:.0}%"))
            .collect();
        println!(
            "{:<10} {:<17} {:>10} {:>10.0} {:>9}  {}",
            prof.runtimes[i],
            prof.labels[i],
            r.calls,
            r.per_call(),
            if r.verified { "yes" } else { "NO" },
            bins.join("  ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> BufParams {
        BufParams {
            pipes: 2,
            stages: 2,
            samples: 20_000,
        }
    }

    #[test]
    fn items_count_every_copy_call_and_item() {
        let mut skipped = Vec::new();
        let ks = contenders(Statistic::Items, &[], &mut skipped);
        let labels: Vec<&str> = ks.iter().map(|k| k.label.as_str()).collect();
        assert_eq!(labels, ["tpb", "tpb-rt", "flow", "single"]);
        let p = params();
        let prof = measure(Statistic::Items, &p, &ks[2..], 1, &mut |_| {}).unwrap();
        assert_eq!(prof.first_unverified(), None);
        for r in prof.items_rows() {
            assert_eq!(r.items, p.samples * (p.pipes * p.stages) as u64);
            assert_eq!(r.calls, r.histogram.iter().sum::<u64>());
            assert!(r.calls > 0);
            let shares: f64 = r.main_bins().iter().map(|b| b.1).sum();
            assert!(shares <= 100.0 + 1e-9);
        }
        let csv = prof.csv();
        assert_eq!(csv.lines().count(), 3);
        assert_eq!(csv.lines().next().unwrap().split(',').count(), 6 + 32 + 1);
    }

    #[test]
    fn resched_reports_threads_and_switches() {
        let mut skipped = Vec::new();
        let ks = contenders(Statistic::Resched, &[], &mut skipped);
        let prof = measure(Statistic::Resched, &params(), &ks[3..], 2, &mut |_| {}).unwrap();
        assert_eq!(prof.runs[0].len(), 2);
        let rows = prof.resched_rows();
        assert_eq!(rows[0].threads, 1.0, "single runs on one thread");
        assert!(rows[0].verified && rows[0].seconds > 0.0);
        assert_eq!(prof.labels, ["single"]);
        let m = Measurement {
            experiment: "resched".into(),
            runtime: "gnuradio".into(),
            scheduler: "tpb".into(),
            params: serde_json::json!({"rt": true}),
            seconds: 1.0,
            verified: true,
            detail: String::new(),
            extra: serde_json::json!({"rt_granted": false, "copy_threads": [
                {"voluntary": 3, "involuntary": 1}, {"voluntary": 5, "involuntary": 0}]}),
        };
        assert!(rt_refused(&m));
        assert_eq!(copy_thread_switches(&m, "voluntary"), [3, 5]);
    }
}
