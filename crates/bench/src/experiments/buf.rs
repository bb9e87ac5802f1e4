//! `buf` (seed 000, Fig. 3): shared null source -> head(N f32) -> P chains of S copy blocks ->
//! one null sink per chain. Verified: every sink received exactly N items.

use super::{check_shape, connect, sinks_received, timed_run};
use crate::measurement::{BenchError, Measurement};
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

/// One `buf` run with its profile, for `resched` (seed Fig. 5: context switches per thread) and
/// `items` (seed Fig. 6: log2 histogram of items produced per work call by the copy blocks).
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
        "per_thread": threads.iter().map(|t| json!({
            "name": t.name,
            "voluntary": t.voluntary_switches,
            "involuntary": t.involuntary_switches,
        })).collect::<Vec<_>>(),
        "work_calls": calls,
        "items_produced": items,
        "produced_log2": hist.to_vec(),
    });
    Ok(m)
}
