//! `radioflow bench tasks` and `radioflow bench pipeline`: prints `radioflow_bench::framed`.

use crate::bench::Common;
use anyhow::{bail, Context};
use clap::Args;
use radioflow_bench::framed::pipeline::{self, PipelineParams, PipelineStudy};
use radioflow_bench::framed::tasks::{self, MbResult};
use radioflow_bench::Machine;
use radioflow_framed::Wait;

/// `bench tasks`: MB1-MB4.
#[derive(Args, Clone)]
pub(crate) struct TasksArgs {
    /// Compute tasks per micro-benchmark and run (the paper: 1,125,000; accepts 1.125e6).
    #[arg(long, default_value = "1125000", value_parser = crate::values::count, allow_negative_numbers = true)]
    tasks: u64,
    /// Active-wait duration of a compute task in ns, comma separated (the paper: 4000; its
    /// Fig. 5 sweeps 1 to 100 µs). 0: the task only reads the clock once.
    #[arg(long, default_value = "0,1000")]
    task_ns: String,
}

/// `bench pipeline`: source -> heavy (duplicated) -> sink.
#[derive(Args, Clone)]
pub(crate) struct PipelineArgs {
    /// Frames per run (accepts 2e4).
    #[arg(long, default_value = "20000", value_parser = crate::values::count, allow_negative_numbers = true)]
    frames: u64,
    /// Samples (f32) per frame.
    #[arg(long, default_value = "4096", value_parser = crate::values::small, allow_negative_numbers = true)]
    frame: usize,
    /// FIR taps of the heavy stage (its cost per sample).
    #[arg(long, default_value = "32", value_parser = crate::values::small, allow_negative_numbers = true)]
    taps: usize,
    /// Frames per adaptor slot ring (per consumer replica). 4: with 2, four threads on two
    /// CPUs put a thread to sleep and wake it for almost every frame.
    #[arg(long, default_value = "4", value_parser = crate::values::small, allow_negative_numbers = true)]
    buffer: usize,
    /// Waiting on adaptors: passive or active.
    #[arg(long, default_value = "passive")]
    wait: String,
    /// Highest replica count of the heavy stage (default: the number of CPUs).
    #[arg(long, value_parser = crate::values::small, allow_negative_numbers = true)]
    max_replicas: Option<usize>,
    /// Pin the source to CPU 0, heavy replica i to CPU i, the sink to the last CPU.
    #[arg(long)]
    pin: bool,
}

pub(crate) fn tasks(a: TasksArgs, c: &Common) -> anyhow::Result<()> {
    let total = if c.quick { 11_250 } else { a.tasks };
    let durations: Vec<u64> = a
        .task_ns
        .split(',')
        .map(|s| s.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .context("--task-ns: comma separated integers")?;
    let durations = if c.quick { vec![0] } else { durations };
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "{total} compute tasks per micro-benchmark, {} runs (sequence and plain loop alternate); medians",
            c.runs
        );
    }
    let mut all_ok = true;
    for &ns in &durations {
        let rows = tasks::measure(total, ns, c.runs)?;
        all_ok &= rows.iter().all(|r| r.verified);
        if c.json {
            for r in &rows {
                println!("{}", r.to_json());
            }
        } else {
            print_tasks(ns, &rows);
        }
    }
    if !all_ok {
        bail!("a micro-benchmark computed a wrong result");
    }
    Ok(())
}

fn print_tasks(ns: u64, rows: &[MbResult]) {
    println!("\ncompute task: active wait of {ns} ns");
    println!(
        "{:<4} {:>10} {:>10} {:>10} {:>10} {:>12} {:>14} {:>10} {:>8}",
        "MB", "seq exec", "C tasks", "ctl tasks", "seq s", "plain s", "ns/C task", "ns/ctl", "ok"
    );
    for r in rows {
        println!(
            "{:<4} {:>10} {:>10} {:>10} {:>10.4} {:>12.4} {:>14.2} {:>10} {:>8}",
            r.mb.name(),
            r.executions,
            r.compute_tasks,
            r.control_tasks,
            r.seq_s,
            r.plain_s,
            r.ns_per_compute_task(),
            r.overhead_ns_per_control_task
                .map_or("-".into(), |c| format!("{c:.2}")),
            if r.verified { "yes" } else { "NO" }
        );
    }
    println!("(ns/C task: MB1's overhead per compute task; for MB2-4 the whole overhead per compute task; ns/ctl: overhead per select/commute/iterate task once MB1's per-task overhead is taken out)");
}

/// The pipeline the arguments ask for (`--quick`: 200 frames of at most 1024 samples).
fn pipeline_params(a: &PipelineArgs, quick: bool) -> anyhow::Result<PipelineParams> {
    let wait = match a.wait.as_str() {
        "passive" => Wait::Passive,
        "active" => Wait::Active,
        w => bail!("--wait: '{w}' is not passive or active"),
    };
    Ok(PipelineParams {
        frames: if quick { 200 } else { a.frames },
        frame: if quick { a.frame.min(1024) } else { a.frame },
        taps: a.taps,
        buffer: a.buffer,
        wait,
        max_replicas: a.max_replicas,
        pin: a.pin,
    })
}

pub(crate) fn pipeline(a: PipelineArgs, c: &Common) -> anyhow::Result<()> {
    let p = pipeline_params(&a, c.quick)?;
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "source (sequential) -> FIR {} taps over {} f32 (cloneable, x replicas) -> checking sink (sequential); {} frames, buffer {}, {:?} waiting, {} runs alternated; medians",
            p.taps, p.frame, p.frames, p.buffer, p.wait, c.runs
        );
    }
    let study = pipeline::measure(&p, c.runs)?;
    if c.json {
        for r in &study.results {
            println!("{}", r.to_json(&p, c.runs));
        }
    } else {
        print_pipeline(&p, &study);
    }
    if !study.verified() {
        bail!("the pipeline lost, reordered or corrupted frames");
    }
    Ok(())
}

fn print_pipeline(p: &PipelineParams, study: &PipelineStudy) {
    println!(
        "{:<9} {:>8} {:>12} {:>8}   {:<54} {:>8}",
        "mode",
        "replicas",
        "frames/s",
        "speedup",
        "per stage: wait / copy / work (% of thread time)",
        "verified"
    );
    for r in &study.results {
        let per: Vec<String> = r
            .stages
            .iter()
            .map(|s| {
                format!(
                    "{:.0}/{:.0}/{:.0}",
                    100.0 * s.wait,
                    100.0 * s.copy,
                    100.0 * s.work
                )
            })
            .collect();
        println!(
            "{:<9} {:>8} {:>12.0} {:>8.2}   {:<54} {:>8}",
            r.mode(),
            r.replicas,
            r.frames_per_second.median,
            r.speedup,
            per.join("  "),
            if r.verified { "yes" } else { "NO" }
        );
    }
    for r in 1..=p.max_replicas() {
        println!(
            "replicas {r}: copy-less / copy = {:.2}",
            study.copyless_over_copy(r)
        );
    }
}
