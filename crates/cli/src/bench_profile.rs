//! `radioflow bench resched` (seed 000 Fig. 5: voluntary and involuntary context switches per
//! thread) and `radioflow bench items` (Fig. 6: log2 histogram of the items each copy-block work
//! call produced): the `buf` graph profiled on thread-per-block at normal and real-time priority
//! (the seed's comparison) and on the cache-aware schedulers, and with `--compare gnuradio` on
//! GNU Radio 3.10 the same way (`peers/gnuradio`, experiments `resched` and `items`).

use crate::bench_observe::Opts;
use anyhow::{bail, Context};
use radioflow_bench::plot::{line_chart, Chart, Series};
use radioflow_bench::stats::summarize;
use radioflow_bench::{buf, BufParams, Machine, Measurement, Peer};
use radioflow_runtime::{FlowScheduler, RealtimePolicy, Scheduler, SingleThread, ThreadPerBlock};
use std::sync::Arc;

/// Which profile of `buf` to report.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Profile {
    /// Context switches per thread.
    Resched,
    /// Items produced per work call.
    Items,
}

impl Profile {
    fn name(self) -> &'static str {
        match self {
            Profile::Resched => "resched",
            Profile::Items => "items",
        }
    }
}

type RunFn = Box<dyn Fn(&BufParams) -> anyhow::Result<Measurement>>;

/// A runtime and scheduler measured.
struct Contender {
    runtime: &'static str,
    scheduler: String,
    run: RunFn,
}

/// radioflow's thread-per-block at normal and real-time priority, `flow` and `single`, then the
/// peers' configurations (a peer that is not installed or has no twin is left out, saying so).
fn contenders(kind: Profile, compare: &[String]) -> anyhow::Result<Vec<Contender>> {
    let schedulers: Vec<Arc<dyn Scheduler>> = vec![
        Arc::new(ThreadPerBlock::new()),
        Arc::new(ThreadPerBlock::new().realtime(RealtimePolicy::Fifo(50))),
        Arc::new(FlowScheduler::new()),
        Arc::new(SingleThread::new()),
    ];
    let mut out: Vec<Contender> = schedulers
        .into_iter()
        .map(|s| Contender {
            runtime: "radioflow",
            scheduler: s.name().to_owned(),
            run: Box::new(move |p| {
                let mut m = buf::run_profiled(p, s.as_ref())?;
                m.experiment = kind.name().into();
                Ok(m)
            }),
        })
        .collect();
    let names = compare.iter().flat_map(|s| s.split(',')).map(str::trim);
    for name in names.filter(|n| !n.is_empty()) {
        let peer = Peer::from_name(name)
            .with_context(|| format!("unknown peer '{name}' (known: gnuradio, futuresdr)"))?;
        let configurations = peer.configurations(kind.name(), false);
        if configurations.is_empty() {
            eprintln!(
                "radioflow: {} has no {} experiment; comparing without it",
                peer.name(),
                kind.name()
            );
            continue;
        }
        let bin = match peer.ensure_built() {
            Ok(b) => b,
            Err(e) => {
                eprintln!("radioflow: {e}; comparing without it");
                continue;
            }
        };
        for (scheduler, extra) in configurations {
            let bin = bin.clone();
            out.push(Contender {
                runtime: peer.name(),
                scheduler,
                run: Box::new(move |p| {
                    let mut args: Vec<String> = [
                        ("--pipes", p.pipes.to_string()),
                        ("--stages", p.stages.to_string()),
                        ("--samples", p.samples.to_string()),
                    ]
                    .into_iter()
                    .flat_map(|(k, v)| [k.to_owned(), v])
                    .collect();
                    args.extend(extra.iter().cloned());
                    Ok(peer.run(&bin, kind.name(), &args)?)
                }),
            });
        }
    }
    Ok(out)
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

/// Runs `kind` on every contender, alternated run by run, and reports it.
pub(crate) fn profile(kind: Profile, p: BufParams, o: &Opts) -> anyhow::Result<()> {
    let p = if o.quick {
        BufParams {
            samples: p.samples.min(100_000),
            ..p
        }
    } else {
        p
    };
    let contenders = contenders(kind, &o.compare)?;
    let mut runs: Vec<Vec<Measurement>> = vec![Vec::new(); contenders.len()];
    let total = o.runs * contenders.len();
    let mut done = 0;
    // Alternate contenders run by run, so drift on a shared machine hits all alike.
    for _ in 0..o.runs {
        for (k, ms) in contenders.iter().zip(&mut runs) {
            let m = (k.run)(&p)?;
            done += 1;
            if o.json {
                println!("{}", serde_json::to_string(&m)?);
            } else if total > 4 {
                eprint!(
                    "\r[{done}/{total}] {} {} {}      ",
                    kind.name(),
                    k.runtime,
                    k.scheduler
                );
            }
            ms.push(m);
        }
    }
    if !o.json && total > 4 {
        eprintln!();
    }
    let labels: Vec<String> = contenders
        .iter()
        .zip(&runs)
        .map(|(k, ms)| {
            if ms.iter().any(rt_refused) {
                eprintln!(
                    "radioflow: {} {}: the machine refused real-time priority ({}); it ran at \
                     normal priority",
                    k.runtime,
                    k.scheduler,
                    ms[0].extra["rt_status"].as_str().unwrap_or("?")
                );
                format!("{} (refused)", k.scheduler)
            } else {
                k.scheduler.clone()
            }
        })
        .collect();
    let verified: Vec<bool> = runs
        .iter()
        .map(|ms| ms.iter().all(|m| m.verified))
        .collect();
    let csv = match kind {
        Profile::Resched => resched_report(&p, &contenders, &labels, &runs, &verified, o),
        Profile::Items => items_report(&p, &contenders, &labels, &runs, &verified, o),
    };
    if let Some(dir) = &o.out {
        let all: Vec<Measurement> = runs.iter().flatten().cloned().collect();
        crate::bench::write_results(dir, &all, &csv)?;
        match kind {
            Profile::Items => items_plot(dir, &p, &labels, &contenders, &runs),
            Profile::Resched => resched_plot(dir, &p, &labels, &contenders, &runs),
        }
    }
    if let Some(i) = verified.iter().position(|ok| !ok) {
        bail!(
            "{} {}: items were lost or not all accounted for",
            contenders[i].runtime,
            contenders[i].scheduler
        );
    }
    Ok(())
}

/// Prints the context-switch table (unless `--json`) and returns summary.csv.
fn resched_report(
    p: &BufParams,
    contenders: &[Contender],
    labels: &[String],
    runs: &[Vec<Measurement>],
    verified: &[bool],
    o: &Opts,
) -> String {
    let median = |ms: &[Measurement], f: &dyn Fn(&Measurement) -> f64| {
        summarize(&ms.iter().map(f).collect::<Vec<_>>()).map_or(f64::NAN, |s| s.median)
    };
    let mut csv = String::from(
        "experiment,runtime,scheduler,runs,threads,median_s,median_voluntary,\
         median_involuntary,voluntary_per_thread,involuntary_per_thread,verified\n",
    );
    if !o.json {
        println!("machine: {}", Machine::detect());
        println!(
            "buf {}x{} {:e}, {} runs per runtime and scheduler (medians); context switches of \
             all the runtime's threads, read from the kernel per thread",
            p.pipes, p.stages, p.samples as f64, o.runs
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
    }
    for (i, (k, ms)) in contenders.iter().zip(runs).enumerate() {
        let threads = median(ms, &|m| number(m, "threads"));
        let seconds = median(ms, &|m| m.seconds);
        let vol = median(ms, &|m| number(m, "voluntary"));
        let inv = median(ms, &|m| number(m, "involuntary"));
        csv.push_str(&format!(
            "resched,{},{},{},{threads},{seconds},{vol},{inv},{},{},{}\n",
            k.runtime,
            labels[i],
            ms.len(),
            vol / threads,
            inv / threads,
            verified[i]
        ));
        if !o.json {
            println!(
                "{:<10} {:<17} {:>7} {:>9.3} {:>12.0} {:>12.0} {:>11.1} {:>11.2} {:>8}",
                k.runtime,
                labels[i],
                threads,
                seconds,
                vol,
                inv,
                vol / threads,
                inv / threads,
                if verified[i] { "yes" } else { "NO" }
            );
        }
    }
    if !o.json && contenders.iter().any(|k| k.runtime == "gnuradio") {
        println!(
            "gnuradio: one thread per block; all of them summed from getrusage(RUSAGE_SELF) \
             around top_block::run() less the main and earlier threads; each copy block's \
             thread read by getrusage(RUSAGE_THREAD) in its stop(), which GNU Radio 3.10 calls \
             on that thread as it ends (per thread in --json: copy_threads)"
        );
    }
    csv
}

/// Prints the items-per-call table (unless `--json`) and returns summary.csv.
fn items_report(
    p: &BufParams,
    contenders: &[Contender],
    labels: &[String],
    runs: &[Vec<Measurement>],
    verified: &[bool],
    o: &Opts,
) -> String {
    let mut csv =
        String::from("experiment,runtime,scheduler,work_calls,items_produced,items_per_call");
    for k in 0..32 {
        csv.push_str(&format!(",bin_{k}"));
    }
    csv.push_str(",verified\n");
    if !o.json {
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
    }
    for (i, (k, ms)) in contenders.iter().zip(runs).enumerate() {
        // The first run (medians of bins need not add up).
        let m = &ms[0];
        let hist = histogram(m);
        let calls: u64 = hist.iter().sum();
        let items = m.extra["items_produced"].as_u64().unwrap_or(0);
        let per_call = items as f64 / calls.max(1) as f64;
        csv.push_str(&format!(
            "items,{},{},{calls},{items},{per_call}",
            k.runtime, labels[i]
        ));
        for c in hist.iter().chain(std::iter::repeat(&0)).take(32) {
            csv.push_str(&format!(",{c}"));
        }
        csv.push_str(&format!(",{}\n", verified[i]));
        if !o.json {
            let bins: Vec<String> = hist
                .iter()
                .enumerate()
                .filter(|(_, &c)| c * 100 >= calls.max(1))
                .map(|(b, &c)| format!("2^{b}: {:.0}%", 100.0 * c as f64 / calls.max(1) as f64))
                .collect();
            println!(
                "{:<10} {:<17} {:>10} {:>10.0} {:>9}  {}",
                k.runtime,
                labels[i],
                calls,
                per_call,
                if verified[i] { "yes" } else { "NO" },
                bins.join("  ")
            );
        }
    }
    csv
}

/// Seed Fig. 6 as lines: share of work calls per log2 bin, one line per runtime and scheduler,
/// as `<dir>/items-hist.{svg,png}`.
fn items_plot(
    dir: &std::path::Path,
    p: &BufParams,
    labels: &[String],
    contenders: &[Contender],
    runs: &[Vec<Measurement>],
) {
    let hists: Vec<Vec<u64>> = runs.iter().map(|ms| histogram(&ms[0])).collect();
    let last = hists
        .iter()
        .filter_map(|h| h.iter().rposition(|&c| c > 0))
        .max()
        .unwrap_or(0);
    let series: Vec<Series> = contenders
        .iter()
        .zip(labels)
        .zip(&hists)
        .map(|((k, label), h)| {
            let calls = h.iter().sum::<u64>().max(1) as f64;
            Series {
                label: format!("{} {label}", k.runtime),
                points: (0..=last)
                    .map(|b| {
                        let c = h.get(b).copied().unwrap_or(0);
                        (b as f64, 100.0 * c as f64 / calls)
                    })
                    .collect(),
            }
        })
        .collect();
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
    write_plot(&dir.join("items-hist"), &chart);
}

/// Draws `chart` as `<stem>.{svg,png}` and says where, or why not (a missing font does not
/// fail the measurement).
fn write_plot(stem: &std::path::Path, chart: &Chart<'_>) {
    match line_chart(stem, chart) {
        Ok(w) => eprintln!("plot: {} and {}", w.svg.display(), w.png.display()),
        Err(e) => eprintln!("radioflow: no plot {}: {e}", stem.display()),
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

/// Seed Fig. 5 as lines: context switches of every copy-running thread of the first run,
/// threads sorted from most to fewest, one line per runtime and scheduler, as
/// `<dir>/resched-{involuntary,voluntary}.{svg,png}`.
fn resched_plot(
    dir: &std::path::Path,
    p: &BufParams,
    labels: &[String],
    contenders: &[Contender],
    runs: &[Vec<Measurement>],
) {
    for key in ["involuntary", "voluntary"] {
        let series: Vec<Series> = contenders
            .iter()
            .zip(labels)
            .zip(runs)
            .map(|((k, label), ms)| {
                let mut counts = copy_thread_switches(&ms[0], key);
                counts.sort_unstable_by(|a, b| b.cmp(a));
                Series {
                    label: format!("{} {label} ({} threads)", k.runtime, counts.len()),
                    points: counts
                        .iter()
                        .enumerate()
                        .map(|(i, &c)| (i as f64 + 1.0, c as f64))
                        .collect(),
                }
            })
            .collect();
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
        write_plot(&dir.join(format!("resched-{key}")), &chart);
    }
}
