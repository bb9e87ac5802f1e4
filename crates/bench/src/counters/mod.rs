//! `radioflow bench counters` (seed 004) and `radioflow bench workload` (seed 002): prints
//! `radioflow_bench::suite::counters` and `radioflow_bench::suite::workload`.

use crate::bench::{parse_count, peers, report_plots, warn, write_results, Common, Ticker};
use anyhow::{bail, Context};
use clap::Args;
use radioflow_bench::counters::{self, CountersParams};
use radioflow_bench::suite::counters::{self as study, GraphResult};
use radioflow_bench::suite::workload::{self as quality, KindResult, WorkloadStudy};
use radioflow_bench::workload::{Arrangement, Kind, PACKET};
use radioflow_bench::Machine;
use radioflow_runtime::Counters;

#[derive(Args, Clone)]
pub(crate) struct CountersArgs {
    /// Complex samples through the one-FIR graph (accepts 1e7).
    #[arg(long, default_value = "2e7", value_parser = crate::values::count, allow_negative_numbers = true)]
    samples: u64,
    /// FIR filters in the chain graph (each with its own taps).
    #[arg(long, default_value = "20", value_parser = crate::values::small, allow_negative_numbers = true)]
    chain: usize,
    /// Complex samples through the chain graph.
    #[arg(long, default_value = "2e6", value_parser = crate::values::count, allow_negative_numbers = true)]
    chain_samples: u64,
    /// Taps per FIR filter.
    #[arg(long, default_value = "100", value_parser = crate::values::small, allow_negative_numbers = true)]
    taps: usize,
    /// Affinity settings to measure, comma separated: off, on.
    #[arg(long, default_value = "off,on")]
    affinity: String,
    /// Counter modes to measure, comma separated: compiled-out, off, counts, on.
    #[arg(long, default_value = "compiled-out,off,on")]
    modes: String,
}

/// One configuration in a child process (used by `bench counters`; prints one JSON line).
#[derive(Args, Clone)]
pub(crate) struct CountersRunArgs {
    #[arg(long, default_value = "1", value_parser = crate::values::small, allow_negative_numbers = true)]
    stages: usize,
    #[arg(long, value_parser = crate::values::count, allow_negative_numbers = true)]
    samples: u64,
    #[arg(long, default_value = "100", value_parser = crate::values::small, allow_negative_numbers = true)]
    taps: usize,
    /// off, counts or on.
    #[arg(long, default_value = "on")]
    counters: String,
    /// off or on.
    #[arg(long, default_value = "off")]
    affinity: String,
}

pub(crate) fn counters_run(a: CountersRunArgs, scheduler: &str) -> anyhow::Result<()> {
    let p = CountersParams {
        stages: a.stages,
        samples: a.samples,
        taps: a.taps,
    };
    let affinity = a.affinity == "on";
    let level = Counters::from_name(&a.counters)
        .with_context(|| format!("unknown counters mode '{}'", a.counters))?;
    let s = counters::scheduler(scheduler, &p, affinity)
        .with_context(|| format!("counters runs on tpb, flow or single, not '{scheduler}'"))?;
    let m = counters::run(&p, s.as_ref(), level, affinity)?;
    println!("{}", serde_json::to_string(&m)?);
    Ok(())
}

/// The non-empty items of a comma-separated list.
fn list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|x| x.trim().to_owned())
        .filter(|x| !x.is_empty())
        .collect()
}

pub(crate) fn counters(a: CountersArgs, c: &Common) -> anyhow::Result<()> {
    let affinities: Vec<bool> = list(&a.affinity).iter().map(|x| x == "on").collect();
    let schedulers = if c.scheduler == "all" {
        vec!["tpb".to_owned(), "flow".to_owned()]
    } else {
        list(&c.scheduler)
    };
    let exe = std::env::current_exe().context("cannot find the radioflow binary")?;
    let peers = peers(c, "gnuradio")?;
    let mut skipped = Vec::new();
    let modes = list(&a.modes);
    let ks = study::contenders(&exe, &schedulers, &affinities, &modes, &peers, &mut skipped);
    warn(skipped);
    let ks = ks?;
    if ks.is_empty() {
        bail!("nothing to measure");
    }
    let (samples, chain_samples) = if c.quick {
        (a.samples.min(100_000), a.chain_samples.min(10_000))
    } else {
        (a.samples, a.chain_samples)
    };
    let graphs = study::graphs(samples, a.chain, chain_samples, a.taps);
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let mut ticker = Ticker::new(c, 0);
    let result = study::measure(&graphs, &ks, c.runs, &mut |p| ticker.show(p))?;
    ticker.end();
    if !c.json {
        for g in &result.graphs {
            print_counters(g, c.runs);
        }
        println!(
            "overhead: median against the same runtime, scheduler and affinity with the counters \
             compiled out (radioflow) or off (GNU Radio); GR/this: GNU Radio's median (counters \
             off, same affinity) over this one (> 1: radioflow faster)"
        );
    }
    if let Some(dir) = &c.out {
        write_results(dir, &result.jsonl, &result.csv())?;
        report_plots(result.plots(dir));
    }
    if !result.verified() {
        bail!("some runs lost items");
    }
    Ok(())
}

fn print_counters(g: &GraphResult, runs: usize) {
    let p = &g.params;
    println!(
        "{}: {} FIR(s) x {} taps, {:e} complex samples, {runs} runs per configuration",
        g.graph, p.stages, p.taps, p.samples as f64
    );
    println!(
        "{:<10} {:<5} {:<9} {:<13} {:>10} {:>21} {:>10} {:>10} {:>8}",
        "runtime",
        "sched",
        "affinity",
        "counters",
        "median s",
        "mean s (95% CI)",
        "overhead",
        "GR/this",
        "verified"
    );
    for r in &g.rows {
        let s = &r.summary;
        println!(
            "{:<10} {:<5} {:<9} {:<13} {:>10.4} {:>10.4} ± {:<8.4} {:>9.2}% {:>10.2} {:>8}",
            r.runtime,
            r.scheduler,
            if r.affinity { "on" } else { "off" },
            r.mode,
            s.median,
            s.mean,
            s.ci95,
            r.overhead_pct,
            r.gnuradio_over_this,
            if r.verified { "yes" } else { "NO" }
        );
    }
}

#[derive(Args, Clone)]
pub(crate) struct WorkloadArgs {
    /// Required samples per second of the source.
    #[arg(long, default_value = "1e6", value_parser = crate::values::positive, allow_negative_numbers = true)]
    rate: f64,
    /// Seconds of samples per run.
    #[arg(long, default_value = "1", value_parser = crate::values::seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Kinds of work, comma separated: fdiv, intaddsub, reverse-temp, reverse-xor, alloc,
    /// empty, recursion.
    #[arg(long, default_value = "fdiv")]
    kinds: String,
    /// Units of work per packet of 1024 samples, comma separated (accepts 1e5).
    #[arg(long, default_value = "1e3,1e4,1e5,3e5,1e6,3e6")]
    units: String,
    /// Threads inside a block / blocks in a chain for the parallel arrangements (default: CPUs).
    #[arg(long, value_parser = crate::values::small, allow_negative_numbers = true)]
    parallel: Option<usize>,
}

/// The study the arguments ask for.
fn workload_params(a: &WorkloadArgs, quick: bool) -> anyhow::Result<quality::WorkloadStudyParams> {
    let kinds: Vec<Kind> = a
        .kinds
        .split(',')
        .map(|k| {
            Kind::from_name(k.trim()).with_context(|| {
                let names: Vec<&str> = Kind::ALL.iter().map(|(_, n)| *n).collect();
                format!("unknown kind '{k}' (known: {})", names.join(", "))
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let units: Vec<usize> = a
        .units
        .split(',')
        .map(|u| {
            parse_count(u.trim())
                .map(|v| v as usize)
                .map_err(anyhow::Error::msg)
        })
        .collect::<anyhow::Result<_>>()?;
    let n = a
        .parallel
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let p = quality::WorkloadStudyParams {
        rate: a.rate,
        seconds: a.seconds,
        kinds,
        units,
        arrangements: Arrangement::seed_set(n).to_vec(),
    };
    Ok(if quick { p.quick() } else { p })
}

pub(crate) fn workload(a: WorkloadArgs, c: &Common) -> anyhow::Result<()> {
    let p = workload_params(&a, c.quick)?;
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "source {} samples/s for {} s; work per packet of {PACKET} samples; quality = \
             delivered / required samples (median of {} runs)",
            p.rate, p.seconds, c.runs
        );
    }
    let mut ticker = Ticker::new(c, 0);
    let result = quality::measure(&p, c.runs, &mut |x| ticker.show(x))?;
    ticker.end();
    if !c.json {
        for k in &result.kinds {
            print_quality(&result, k);
        }
    }
    if let Some(dir) = &c.out {
        write_results(dir, &result.jsonl, &result.csv())?;
        report_plots(result.plots(dir));
    }
    if !result.verified() {
        bail!("some delivered samples did not reach the probe");
    }
    Ok(())
}

fn print_quality(result: &WorkloadStudy, k: &KindResult) {
    println!(
        "{}: signal quality by units of work per packet",
        k.kind.name()
    );
    print!("{:<26}", "arrangement");
    for u in &result.params.units {
        print!(" {:>9}", format!("{:e}", *u as f64));
    }
    println!();
    for (ar, q) in result.params.arrangements.iter().zip(&k.quality) {
        print!("{:<26}", ar.label());
        for s in q {
            print!(" {:>8.1}%", 100.0 * s.median);
        }
        println!();
    }
}
