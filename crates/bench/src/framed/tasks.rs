//! `bench tasks`: the overhead of framed execution per task (Cassagne et al. 2023, Table 1 /
//! Fig. 5). Each
//! micro-benchmark (MB1-MB4) runs the same compute tasks once as a [`Sequence`] and once as a
//! plain loop; the difference is the DSEL's overhead, split between compute and control tasks.

use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::stats::summarize;
use crate::values;
use clap::Args;
use radioflow_framed::{Out, Sequence, Status, Switcher, TaskGraph};
use serde_json::json;
use std::hint::black_box;
use std::time::Instant;

/// The paper's compute task: an active wait of `ns` nanoseconds, then `x + 1`.
#[inline(never)]
fn compute(x: u32, ns: u64) -> u32 {
    let t0 = Instant::now();
    if ns > 0 {
        while (t0.elapsed().as_nanos() as u64) < ns {}
    }
    black_box(t0);
    x.wrapping_add(1)
}

/// One of the paper's micro-benchmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mb {
    /// A chain of three compute tasks.
    Mb1,
    /// MB1 in a `for` loop of 10 iterations.
    Mb2,
    /// MB1 in two nested `for` loops (2 x 5).
    Mb3,
    /// A switch between chains of 3, 2 and 1 compute tasks, taken in turn.
    Mb4,
}

impl Mb {
    /// MB1 to MB4.
    pub const ALL: [Mb; 4] = [Mb::Mb1, Mb::Mb2, Mb::Mb3, Mb::Mb4];

    /// `MB1` ... `MB4`.
    pub fn name(self) -> &'static str {
        match self {
            Mb::Mb1 => "MB1",
            Mb::Mb2 => "MB2",
            Mb::Mb3 => "MB3",
            Mb::Mb4 => "MB4",
        }
    }

    /// Compute tasks per sequence execution (MB4: on average over the three paths).
    fn compute_per_exec(self) -> f64 {
        match self {
            Mb::Mb1 => 3.0,
            Mb::Mb2 | Mb::Mb3 => 30.0,
            Mb::Mb4 => 2.0,
        }
    }

    /// Select + commute + iterate tasks per execution.
    fn control_per_exec(self) -> u64 {
        match self {
            Mb::Mb1 => 0,
            Mb::Mb2 => 3 * 11,
            Mb::Mb3 => 3 * (2 * 6 + 3),
            Mb::Mb4 => 3,
        }
    }

    /// Sequence executions that run about `total` compute tasks.
    fn executions(self, total: u64) -> u64 {
        (total as f64 / self.compute_per_exec()).round() as u64
    }
}

/// A chain of `n` compute tasks from `input`; returns the last output.
fn chain(g: &mut TaskGraph, name: &str, n: usize, mut input: Out<u32>, ns: u64) -> Out<u32> {
    for k in 0..n {
        let t = g.stateless(&format!("{name}{k}"));
        let i = g.input::<u32>(t, "in", 1);
        let o = g.output::<u32>(t, "out", 1);
        g.codelet(t, move |_, io| {
            io.output(o)[0] = compute(io.input(i)[0], ns);
            Status::Continue
        });
        g.bind(i, input).expect("same shape");
        input = o;
    }
    input
}

/// A `for` loop of `n` iterations entered with `input`; returns (switcher, body entry).
fn for_loop(g: &mut TaskGraph, name: &str, n: u32, input: Out<u32>) -> Switcher<u32> {
    let sw = g.switcher::<u32>(name, 2, 1);
    g.bind(sw.select_in(1), input).expect("same shape");
    let (_, p) = g
        .iterate(&format!("{name}_it"), n, sw.select_out())
        .expect("same shape");
    g.bind(sw.commute_in(), sw.select_out())
        .expect("same shape");
    g.bind(sw.commute_path(), p).expect("same shape");
    sw
}

/// MB4's switch: an iterate task choosing paths 0, 1, 2, 0, ... (3, 2 and 1 compute tasks).
fn cycle(g: &mut TaskGraph, src: Out<u32>, ns: u64) -> Result<Out<u32>, BenchError> {
    let m = g.module("cycle", 0u32);
    let it = g.task(m, "cycle");
    let ii = g.input::<u32>(it, "in", 1);
    let io_ = g.output::<u32>(it, "path", 1);
    g.codelet(it, move |k: &mut u32, io| {
        io.output(io_)[0] = *k;
        *k = if *k == 2 { 0 } else { *k + 1 };
        Status::Continue
    });
    g.bind(ii, src)?;
    let sw = g.switcher::<u32>("switch", 3, 1);
    g.bind(sw.commute_in(), src)?;
    g.bind(sw.commute_path(), io_)?;
    for (k, n) in [3, 2, 1].into_iter().enumerate() {
        let end = chain(g, &format!("p{k}c"), n, sw.commute_out(k), ns);
        g.bind(sw.select_in(k), end)?;
    }
    Ok(sw.select_out())
}

/// Builds MBk; returns the sequence, the input socket and the socket holding the result.
fn build_mb(mb: Mb, ns: u64) -> Result<(Sequence, Out<u32>, Out<u32>), BenchError> {
    let mut g = TaskGraph::new();
    let src = g.external::<u32>("input", 1);
    let result = match mb {
        Mb::Mb1 => chain(&mut g, "c", 3, src, ns),
        Mb::Mb2 => {
            let sw = for_loop(&mut g, "loop", 10, src);
            let end = chain(&mut g, "c", 3, sw.commute_out(0), ns);
            g.bind(sw.select_in(0), end)?;
            sw.commute_out(1)
        }
        Mb::Mb3 => {
            let outer = for_loop(&mut g, "outer", 2, src);
            let inner = for_loop(&mut g, "inner", 5, outer.commute_out(0));
            let end = chain(&mut g, "c", 3, inner.commute_out(0), ns);
            g.bind(inner.select_in(0), end)?;
            g.bind(outer.select_in(0), inner.commute_out(1))?;
            outer.commute_out(1)
        }
        Mb::Mb4 => cycle(&mut g, src, ns)?,
    };
    Ok((Sequence::new(g)?, src, result))
}

/// The same compute calls in a plain loop.
#[inline(never)]
fn plain(mb: Mb, execs: u64, ns: u64) -> u32 {
    let mut last = 0;
    for e in 0..execs {
        let mut x = black_box(0u32);
        match mb {
            Mb::Mb1 => {
                for _ in 0..3 {
                    x = compute(x, ns);
                }
            }
            Mb::Mb2 => {
                for _ in 0..10 {
                    for _ in 0..3 {
                        x = compute(x, ns);
                    }
                }
            }
            Mb::Mb3 => {
                for _ in 0..2 {
                    for _ in 0..5 {
                        for _ in 0..3 {
                            x = compute(x, ns);
                        }
                    }
                }
            }
            Mb::Mb4 => {
                for _ in 0..3 - (e % 3) {
                    x = compute(x, ns);
                }
            }
        }
        last = black_box(x);
    }
    last
}

/// One timed run of a micro-benchmark.
#[derive(Clone, Copy, Debug)]
struct MbRun {
    seq_s: f64,
    plain_s: f64,
    verified: bool,
}

/// The result the last of `execs` executions of `mb` leaves: the compute tasks it ran.
fn expected(mb: Mb, execs: u64) -> u32 {
    match mb {
        Mb::Mb4 => 3 - ((execs - 1) % 3) as u32,
        _ => mb.compute_per_exec() as u32,
    }
}

fn run_mb(mb: Mb, execs: u64, ns: u64) -> Result<MbRun, BenchError> {
    let (mut seq, src, result) = build_mb(mb, ns)?;
    seq.write(src)[0] = 0;
    let t = Instant::now();
    let want_plain = plain(mb, execs, ns);
    let plain_s = t.elapsed().as_secs_f64();
    let mut n = 0;
    let t = Instant::now();
    let r = seq.exec(|| {
        n += 1;
        n == execs
    })?;
    let seq_s = t.elapsed().as_secs_f64();
    let want = expected(mb, execs);
    let verified = r.frames == execs && seq.read(result)[0] == want && want_plain == want;
    Ok(MbRun {
        seq_s,
        plain_s,
        verified,
    })
}

/// One micro-benchmark's medians over the runs at one task duration.
#[derive(Clone, Debug)]
pub struct MbResult {
    /// Which micro-benchmark.
    pub mb: Mb,
    /// Active wait of a compute task (ns).
    pub task_ns: u64,
    /// Runs the medians are over.
    pub runs: usize,
    /// Sequence executions per run.
    pub executions: u64,
    /// Compute tasks per run.
    pub compute_tasks: u64,
    /// Select, commute and iterate tasks per run.
    pub control_tasks: u64,
    /// Median seconds of the sequence.
    pub seq_s: f64,
    /// Median seconds of the plain loop.
    pub plain_s: f64,
    /// MB1's overhead per compute task (ns), measured in the same run.
    pub overhead_ns_per_task: f64,
    /// Overhead per control task once MB1's per-task overhead is taken out (ns; none for MB1).
    pub overhead_ns_per_control_task: Option<f64>,
    /// The whole overhead per compute task (ns).
    pub global_overhead_ns_per_task: f64,
    /// Every run's sequence and plain loop computed the expected result.
    pub verified: bool,
}

impl MbResult {
    /// The overhead per compute task the table shows: MB1's own, the whole one for MB2-4.
    pub fn ns_per_compute_task(&self) -> f64 {
        if self.mb == Mb::Mb1 {
            self.overhead_ns_per_task
        } else {
            self.global_overhead_ns_per_task
        }
    }

    /// The JSON line of `bench tasks --json`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "experiment": "tasks",
            "benchmark": self.mb.name(),
            "task_ns": self.task_ns,
            "sequence_executions": self.executions,
            "compute_tasks": self.compute_tasks,
            "control_tasks": self.control_tasks,
            "runs": self.runs,
            "seq_s_median": self.seq_s,
            "plain_s_median": self.plain_s,
            "overhead_ns_per_task": self.overhead_ns_per_task,
            "overhead_ns_per_control_task": self.overhead_ns_per_control_task,
            "global_overhead_ns_per_task": self.global_overhead_ns_per_task,
            "overhead_percent": 100.0 * (self.seq_s - self.plain_s) / self.plain_s,
            "verified": self.verified,
        })
    }
}

/// Runs MB1-MB4 `runs` times each with about `total` compute tasks of `ns` ns, and returns
/// their medians. MB1's overhead per compute task in each run splits MB2-4's overhead in the
/// same run between compute and control tasks.
///
/// # Errors
///
/// A micro-benchmark's graph failed to build or run.
pub fn measure(total: u64, ns: u64, runs: usize) -> Result<Vec<MbResult>, BenchError> {
    let mut per: Vec<Vec<(MbRun, f64)>> = (0..4).map(|_| Vec::new()).collect();
    for _ in 0..runs {
        let mut oc = 0.0;
        for (k, mb) in Mb::ALL.into_iter().enumerate() {
            let execs = mb.executions(total);
            let m = run_mb(mb, execs, ns)?;
            let n_c = execs as f64 * mb.compute_per_exec();
            if mb == Mb::Mb1 {
                oc = (m.seq_s - m.plain_s) * 1e9 / n_c;
            }
            per[k].push((m, oc));
        }
    }
    Ok(Mb::ALL
        .into_iter()
        .zip(&per)
        .map(|(mb, runs_k)| summarize_mb(mb, total, ns, runs_k))
        .collect())
}

/// The medians of one micro-benchmark's runs (each with MB1's overhead per task of its run).
fn summarize_mb(mb: Mb, total: u64, ns: u64, runs_k: &[(MbRun, f64)]) -> MbResult {
    let execs = mb.executions(total);
    let n_c = (execs as f64 * mb.compute_per_exec()).round();
    let n_ctl = execs * mb.control_per_exec() / 3 * 3;
    let med = |f: &dyn Fn(&(MbRun, f64)) -> f64| {
        summarize(&runs_k.iter().map(f).collect::<Vec<_>>()).map_or(f64::NAN, |s| s.median)
    };
    MbResult {
        mb,
        task_ns: ns,
        runs: runs_k.len(),
        executions: execs,
        compute_tasks: n_c as u64,
        control_tasks: n_ctl,
        seq_s: med(&|(m, _)| m.seq_s),
        plain_s: med(&|(m, _)| m.plain_s),
        overhead_ns_per_task: med(&|(_, oc)| *oc),
        overhead_ns_per_control_task: (mb != Mb::Mb1)
            .then(|| med(&|(m, oc)| ((m.seq_s - m.plain_s) * 1e9 - n_c * oc) / n_ctl as f64)),
        global_overhead_ns_per_task: med(&|(m, _)| (m.seq_s - m.plain_s) * 1e9 / n_c),
        verified: runs_k.iter().all(|(m, _)| m.verified),
    }
}

/// `bench tasks`: MB1-MB4.
#[derive(Args, Clone)]
pub(crate) struct TasksArgs {
    /// Compute tasks per micro-benchmark and run (the paper: 1,125,000; accepts 1.125e6).
    #[arg(long, default_value = "1125000", value_parser = values::count, allow_negative_numbers = true)]
    tasks: u64,
    /// Active-wait duration of a compute task in ns, comma separated (the paper: 4000; its
    /// Fig. 5 sweeps 1 to 100 µs). 0: the task only reads the clock once.
    #[arg(long, default_value = "0,1000")]
    task_ns: String,
}

/// `radioflow bench tasks`: MB1-MB4 for each compute task duration.
pub(crate) fn bench(a: TasksArgs, c: &Common) -> Result<(), BenchError> {
    let total = if c.quick { 11_250 } else { a.tasks };
    let durations: Vec<u64> = a
        .task_ns
        .split(',')
        .map(|s| s.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|e| BenchError::Params(format!("--task-ns: comma separated integers: {e}")))?;
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
        let rows = measure(total, ns, c.runs)?;
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
        return Err(BenchError::Unverified(
            "a micro-benchmark computed a wrong result".into(),
        ));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_micro_benchmark_computes_what_the_plain_loop_does() {
        for mb in Mb::ALL {
            for execs in [1, 2, 3, 7] {
                let r = run_mb(mb, execs, 0).unwrap();
                assert!(r.verified, "{} with {execs} executions", mb.name());
                assert_eq!(plain(mb, execs, 0), expected(mb, execs));
            }
        }
    }

    #[test]
    fn task_counts_match_the_paper() {
        let rows = measure(1200, 0, 1).unwrap();
        let counts: Vec<(u64, u64, u64)> = rows
            .iter()
            .map(|r| (r.executions, r.compute_tasks, r.control_tasks))
            .collect();
        assert_eq!(
            counts,
            [
                (400, 1200, 0),
                (40, 1200, 1320),
                (40, 1200, 1800),
                (600, 1200, 1800)
            ]
        );
        assert!(rows.iter().all(|r| r.verified));
        assert!(rows[0].overhead_ns_per_control_task.is_none());
        assert!(rows[1..]
            .iter()
            .all(|r| r.overhead_ns_per_control_task.is_some()));
    }
}
