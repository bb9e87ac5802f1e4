//! `counters` (Rondeau 2013, the GNU Radio maintainer's notes): the cost of the per-block
//! counters, compiled out / off / on, affinity off / on, on one FIR and on a chain of FIRs,
//! side by side with GNU Radio's performance counters. [`run`](run()) is one configuration,
//! each run in a child process (`radioflow bench counters-run`); [`measure`] the invocation.

mod run;
mod suite;

pub use run::{build, compiled_out_binary, run, run_child, scheduler, taps, CountersParams};
pub use suite::{
    contenders, graphs, measure, CountersContender, CountersRow, CountersStudy, GraphResult,
    CSV_HEADER,
};

use crate::common::Common;
use crate::contender::warn;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::progress::Ticker;
use crate::results::{json_line, report_plots, save};
use crate::values;
use clap::Args;
use radioflow_runtime::Counters;

#[derive(Args, Clone)]
pub(crate) struct CountersArgs {
    /// Complex samples through the one-FIR graph (accepts 1e7).
    #[arg(long, default_value = "2e7", value_parser = values::count, allow_negative_numbers = true)]
    samples: u64,
    /// FIR filters in the chain graph (each with its own taps).
    #[arg(long, default_value = "20", value_parser = values::small, allow_negative_numbers = true)]
    chain: usize,
    /// Complex samples through the chain graph.
    #[arg(long, default_value = "2e6", value_parser = values::count, allow_negative_numbers = true)]
    chain_samples: u64,
    /// Taps per FIR filter.
    #[arg(long, default_value = "100", value_parser = values::small, allow_negative_numbers = true)]
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
    #[arg(long, default_value = "1", value_parser = values::small, allow_negative_numbers = true)]
    stages: usize,
    #[arg(long, value_parser = values::count, allow_negative_numbers = true)]
    samples: u64,
    #[arg(long, default_value = "100", value_parser = values::small, allow_negative_numbers = true)]
    taps: usize,
    /// off, counts or on.
    #[arg(long, default_value = "on")]
    counters: String,
    /// off or on.
    #[arg(long, default_value = "off")]
    affinity: String,
}

/// `radioflow bench counters-run`: one configuration in this process, printed as one JSON line.
pub(crate) fn bench_one(a: CountersRunArgs, scheduler_name: &str) -> Result<(), BenchError> {
    let p = CountersParams {
        stages: a.stages,
        samples: a.samples,
        taps: a.taps,
    };
    let affinity = a.affinity == "on";
    let level = Counters::from_name(&a.counters)
        .ok_or_else(|| BenchError::Params(format!("unknown counters mode '{}'", a.counters)))?;
    let s = scheduler(scheduler_name, &p, affinity).ok_or_else(|| {
        BenchError::Params(format!(
            "counters runs on tpb, flow or single, not '{scheduler_name}'"
        ))
    })?;
    let m = run(&p, s.as_ref(), level, affinity)?;
    println!("{}", json_line(&m));
    Ok(())
}

/// The non-empty items of a comma-separated list.
fn list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|x| x.trim().to_owned())
        .filter(|x| !x.is_empty())
        .collect()
}

/// `radioflow bench counters`: every graph on every configuration, alternated run by run.
pub(crate) fn bench(a: CountersArgs, c: &Common) -> Result<(), BenchError> {
    let affinities: Vec<bool> = list(&a.affinity).iter().map(|x| x == "on").collect();
    let schedulers = if c.scheduler == "all" {
        vec!["tpb".to_owned(), "flow".to_owned()]
    } else {
        list(&c.scheduler)
    };
    let exe = std::env::current_exe().map_err(BenchError::Exe)?;
    let peers = c.peers("gnuradio")?;
    let mut skipped = Vec::new();
    let modes = list(&a.modes);
    let ks = contenders(&exe, &schedulers, &affinities, &modes, &peers, &mut skipped);
    warn(skipped);
    let ks = ks?;
    if ks.is_empty() {
        return Err(BenchError::Params("nothing to measure".into()));
    }
    let (samples, chain_samples) = if c.quick {
        (a.samples.min(100_000), a.chain_samples.min(10_000))
    } else {
        (a.samples, a.chain_samples)
    };
    let graphs = graphs(samples, a.chain, chain_samples, a.taps);
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let mut ticker = Ticker::new(c, 0);
    let result = measure(&graphs, &ks, c.runs, &mut |p| ticker.show(p))?;
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
        save(dir, &result.jsonl, &result.csv())?;
        report_plots(result.plots(dir));
    }
    if !result.verified() {
        return Err(BenchError::Unverified("some runs lost items".into()));
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
