//! `buf` (Bloessl et al. 2019, Fig. 3): shared null source -> head(N f32) -> P chains of S
//! copy blocks -> one null sink per chain. Verified: every sink received exactly N items.
//! Measured side by side by [`crate::compare`]; [`profiled`]: the same graph profiled
//! (`resched`, `items`).

pub mod profiled;

use crate::experiment::{check_shape, connect, sinks_received, timed_run};
use crate::measurement::{BenchError, Measurement};
use crate::values;
use clap::Args;
use radioflow_blocks::{Copy, Head, NullSink, NullSource};
use radioflow_runtime::{BlockId, Flowgraph, Scheduler};
use serde_json::json;

/// Parameters of the stream benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufParams {
    /// Parallel chains.
    pub pipes: usize,
    /// Copy blocks per chain.
    pub stages: usize,
    /// f32 samples passed by the head block.
    pub samples: u64,
}

/// Size of the `buf` graph (also profiled by `resched` and `items`).
#[derive(Args, Clone, Copy)]
pub(crate) struct BufArgs {
    #[arg(long, default_value = "10", value_parser = values::small, allow_negative_numbers = true)]
    pipes: usize,
    #[arg(long, default_value = "10", value_parser = values::small, allow_negative_numbers = true)]
    stages: usize,
    /// Samples through the head block (accepts 1e8).
    #[arg(long, default_value = "1e8", value_parser = values::count, allow_negative_numbers = true)]
    samples: u64,
}

impl From<BufArgs> for BufParams {
    fn from(a: BufArgs) -> Self {
        BufParams {
            pipes: a.pipes,
            stages: a.stages,
            samples: a.samples,
        }
    }
}

/// The graph and its sinks.
pub fn build(p: &BufParams) -> Result<(Flowgraph, Vec<BlockId>), BenchError> {
    check_shape("buf", p.pipes, p.stages)?;
    let mut fg = Flowgraph::new();
    let src = fg.add(NullSource::<f32>::new());
    let head = fg.add(Head::<f32>::new(p.samples));
    connect(&mut fg, src, head);
    let mut sinks = Vec::with_capacity(p.pipes);
    for _ in 0..p.pipes {
        let mut prev = head;
        for _ in 0..p.stages {
            let c = fg.add(Copy::<f32>::new());
            connect(&mut fg, prev, c);
            prev = c;
        }
        let sink = fg.add(NullSink::<f32>::new());
        connect(&mut fg, prev, sink);
        sinks.push(sink);
    }
    Ok((fg, sinks))
}

/// Builds, runs and verifies one `buf` run.
///
/// # Errors
/// Bad parameters or a failed run.
pub fn run(p: &BufParams, scheduler: &dyn Scheduler) -> Result<Measurement, BenchError> {
    run_graph(p, scheduler).map(|(_, m)| m)
}

/// One run, returning the graph too (for its statistics).
fn run_graph(
    p: &BufParams,
    scheduler: &dyn Scheduler,
) -> Result<(Flowgraph, Measurement), BenchError> {
    let (mut fg, sinks) = build(p)?;
    let seconds = timed_run("buf", &mut fg, scheduler)?;
    let verified = sinks_received(&fg, &sinks, p.samples);
    let m = Measurement {
        experiment: "buf".into(),
        runtime: "radioflow".into(),
        scheduler: scheduler.name().to_owned(),
        params: json!({ "pipes": p.pipes, "stages": p.stages, "samples": p.samples }),
        seconds,
        verified,
        extra: serde_json::Value::Null,
        detail: format!("{} sinks x {} items", p.pipes, p.samples),
    };
    Ok((fg, m))
}

/// One `buf` run with its profile, for `resched` (Bloessl et al. 2019, Fig. 5: context switches
/// per thread) and `items` (Fig. 6: log2 histogram of items produced per work call by the copy
/// blocks).
/// The profile is in [`Measurement::extra`]: `voluntary`, `involuntary` (summed over threads),
/// `threads`, `per_thread` (each thread's `name`, `voluntary`, `involuntary`), and
/// `produced_log2` (32 bins) with `work_calls` and `items_produced`.
///
/// # Errors
/// Bad parameters or a failed run.
pub fn run_profiled(p: &BufParams, scheduler: &dyn Scheduler) -> Result<Measurement, BenchError> {
    let (fg, mut m) = run_graph(p, scheduler)?;
    let threads = fg.thread_stats();
    let mut hist = [0u64; 32];
    let mut calls = 0;
    let mut items = 0;
    for b in 0..fg.len() {
        let id = BlockId::from_index(b);
        if fg.block::<Copy<f32>>(id).is_some() {
            let st = fg.stats(id).expect("block exists");
            calls += st.work_calls;
            items += st.items_produced;
            for (h, c) in hist.iter_mut().zip(st.produced_log2) {
                *h += c;
            }
        }
    }
    m.extra = json!({
        "threads": threads.len(),
        "voluntary": threads.iter().map(|t| t.voluntary_switches).sum::<u64>(),
        "involuntary": threads.iter().map(|t| t.involuntary_switches).sum::<u64>(),
        "cpu_seconds": threads.iter().map(|t| t.cpu_time.as_secs_f64()).sum::<f64>(),
        "per_thread": threads.iter().map(|t| json!({
            "name": t.name,
            "voluntary": t.voluntary_switches,
            "involuntary": t.involuntary_switches,
            "cpu_seconds": t.cpu_time.as_secs_f64(),
        })).collect::<Vec<_>>(),
        "work_calls": calls,
        "items_produced": items,
        "produced_log2": hist.to_vec(),
    });
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::FlowScheduler;

    #[test]
    fn the_profiled_run_counts_each_worker_and_its_cpu_time() {
        let p = BufParams {
            pipes: 3,
            stages: 2,
            samples: 2_000_000,
        };
        let m = run_profiled(&p, &FlowScheduler::new().workers(2)).unwrap();
        assert!(m.verified, "{m:?}");
        let e = &m.extra;
        assert_eq!(e["threads"], 2, "{e}");
        let per_thread = e["per_thread"].as_array().unwrap();
        assert_eq!(per_thread.len(), 2, "{e}");
        let cpu: f64 = per_thread
            .iter()
            .map(|t| t["cpu_seconds"].as_f64().unwrap())
            .sum();
        assert!(
            (cpu - e["cpu_seconds"].as_f64().unwrap()).abs() < 1e-9,
            "{e}"
        );
        // 2e6 samples copied 6 times and more: the workers ran, and no longer than they lived
        // (the run's time plus their start and end, on two threads).
        assert!(cpu > 0.0, "{e}");
        assert!(cpu < 2.0 * m.seconds + 1.0, "{e}");
        #[cfg(target_os = "linux")]
        assert!(
            per_thread
                .iter()
                .all(|t| t["cpu_seconds"].as_f64().unwrap() > 0.0),
            "{e}"
        );
        assert_eq!(e["items_produced"], 3 * 2 * 2_000_000u64, "{e}");
    }
}
