//! `radioflow profile`: one of the [`graphs`](super::graphs) run with time counters on, its
//! per-block [`Profile`], optionally a trace of its work calls, and while it runs, live
//! samples of every block's counters.

use super::graphs::build;
use anyhow::Context;
use radioflow_runtime::{
    BlockId, BlockStats, Counters, Flowgraph, Profile, ProfileRow, Scheduler, Trace, TraceConfig,
};
use serde_json::json;
use std::time::{Duration, Instant};

/// How to run the graph.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProfileParams<'a> {
    /// A graph of [`GRAPH_NAMES`](super::graphs::GRAPH_NAMES).
    pub(crate) graph: &'a str,
    /// Items through each head block (messages for msg).
    pub(crate) samples: u64,
    /// Keep a trace of this many work calls per block (the most recent ones).
    pub(crate) trace_events: Option<usize>,
    /// Sample the live counters this often while the graph runs.
    pub(crate) live: Option<Duration>,
}

/// One block in a live sample.
#[derive(Clone, Debug)]
pub(crate) struct LiveBlock {
    /// The block's name.
    pub(crate) name: String,
    /// Items produced (consumed for sinks) per second since the last sample.
    pub(crate) rate: f64,
    /// Its share of the time in work so far (0-1).
    pub(crate) share: f64,
}

/// The live counters at one moment.
#[derive(Clone, Debug)]
pub(crate) struct LiveSample {
    /// Seconds since the start.
    pub(crate) elapsed: f64,
    /// One per block, in the order added.
    pub(crate) blocks: Vec<LiveBlock>,
}

/// A finished profiled run.
pub(crate) struct ProfileRun {
    /// The graph, after its run (for its trace).
    pub(crate) flowgraph: Flowgraph,
    /// The per-block profile.
    pub(crate) profile: Profile,
}

impl ProfileRun {
    /// The trace of the run, if one was asked for.
    pub(crate) fn trace(&self) -> Option<&Trace> {
        self.flowgraph.trace()
    }
}

/// One block's profile as `radioflow profile --json` prints it.
pub(crate) fn row_json(r: &ProfileRow) -> serde_json::Value {
    let s = &r.stats;
    json!({
        "block": r.name, "work_calls": s.work_calls,
        "items_consumed": s.items_consumed, "items_produced": s.items_produced,
        "work_ns": s.work_ns, "work_ns_min": s.work_ns_min,
        "work_ns_avg": s.work_ns_avg(), "work_ns_max": s.work_ns_max,
        "share": r.share, "throughput": r.throughput, "bottleneck": r.bottleneck,
        "input_empty": s.input_empty, "output_full": s.output_full,
        "messages": s.messages, "produced_log2": s.produced_log2.to_vec(),
        "events": s.events.iter().map(|(k, v)| ((*k).to_owned(), json!(v)))
            .collect::<serde_json::Map<_, _>>(),
    })
}

/// Runs `p.graph` on `scheduler` with time counters on; calls `on_start` with the running
/// graph right after it started (to attach a control port, `radioflow profile --control`),
/// and with `p.live`, `on_live` with the counters every so often until the graph finishes.
///
/// # Errors
///
/// An unknown graph, or the graph failed to run.
pub(crate) fn run_observed(
    p: &ProfileParams<'_>,
    scheduler: &dyn Scheduler,
    on_live: &mut dyn FnMut(&LiveSample),
    on_start: &mut dyn FnMut(&Flowgraph),
) -> anyhow::Result<ProfileRun> {
    let mut fg = build(p.graph, p.samples)?;
    fg.set_counters(Counters::Timed);
    if let Some(events_per_block) = p.trace_events {
        fg.set_trace(Some(TraceConfig { events_per_block }));
    }
    let t0 = Instant::now();
    fg.start(scheduler).context("profile")?;
    on_start(&fg);
    if let Some(every) = p.live.filter(|d| !d.is_zero()) {
        watch(&fg, every, on_live);
    }
    fg.wait().context("profile")?;
    let profile = Profile::of(&fg, t0.elapsed().as_secs_f64());
    Ok(ProfileRun {
        flowgraph: fg,
        profile,
    })
}

/// Samples the live counters of the running `fg` every `every` until it finishes: per block
/// the items produced (consumed for sinks) since the last look, as a rate, and its share of the
/// time in work so far.
fn watch(fg: &Flowgraph, every: Duration, on_live: &mut dyn FnMut(&LiveSample)) {
    let Some(handle) = fg.stats_handle() else {
        return;
    };
    let ids: Vec<BlockId> = (0..fg.len()).map(BlockId::from_index).collect();
    let items = |s: &BlockStats| s.items_produced.max(s.items_consumed);
    let mut last: Vec<u64> = vec![0; ids.len()];
    let start = Instant::now();
    let mut tick = start;
    while !fg.is_finished() {
        std::thread::sleep(every.min(Duration::from_millis(10)));
        if tick.elapsed() < every {
            continue;
        }
        let dt = tick.elapsed().as_secs_f64();
        tick = Instant::now();
        let now: Vec<_> = ids.iter().filter_map(|&id| handle.get(id)).collect();
        let busy: u64 = now.iter().map(|s| s.work_ns).sum::<u64>().max(1);
        let blocks = ids
            .iter()
            .zip(&now)
            .zip(&mut last)
            .map(|((&id, s), l)| {
                let rate = (items(s) - *l) as f64 / dt;
                *l = items(s);
                LiveBlock {
                    name: fg.name(id).to_owned(),
                    rate,
                    share: s.work_ns as f64 / busy as f64,
                }
            })
            .collect();
        on_live(&LiveSample {
            elapsed: start.elapsed().as_secs_f64(),
            blocks,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use radioflow_runtime::SingleThread;

    #[test]
    fn a_profiled_run_counts_every_block_and_keeps_its_trace() {
        let p = ProfileParams {
            graph: "fir",
            samples: 10_000,
            trace_events: Some(16),
            live: None,
        };
        let run = run_observed(&p, &SingleThread::new(), &mut |_| {}, &mut |_| {}).unwrap();
        assert_eq!(run.profile.rows.len(), run.flowgraph.len());
        assert!(run.profile.rows.iter().any(|r| r.stats.work_calls > 0));
        let json = row_json(&run.profile.rows[0]);
        assert_eq!(json["produced_log2"].as_array().map(Vec::len), Some(32));
        let trace = run.trace().expect("a trace was asked for");
        assert!(!trace.is_empty());
        assert!(build("no-such-graph", 1).is_err());
    }
}
