//! `radioflow profile [GRAPH] [--trace FILE]`: run a graph with time counters on and print the
//! per-block profile table; optionally write a Chrome trace of the run.

use anyhow::Context;
use clap::Args;
use radioflow_bench::graphs::{build, GRAPH_NAMES};
use radioflow_runtime::{Counters, Profile, SchedulerSpec, TraceConfig};
use std::time::Instant;

#[derive(Args)]
pub(crate) struct ProfileArgs {
    /// The graph: example (tone -> head -> FIR -> gain -> sink), fir and fir-chain (the
    /// counters experiment), buf, opti, msg, workload (a real-time source: 1e6 samples/s).
    #[arg(default_value = "example")]
    graph: String,
    /// Items through each head block (messages for msg; accepts 1e7).
    #[arg(long, default_value = "1e7", value_parser = crate::bench::parse_count)]
    samples: u64,
    /// Scheduler: flow, tpb or single, with options (`flow:workers=2,pin`, `tpb:realtime`).
    #[arg(long, default_value = "flow")]
    scheduler: String,
    /// Also write a Chrome trace-event JSON of the run here (opens in Perfetto).
    #[arg(long)]
    trace: Option<std::path::PathBuf>,
    /// Work calls kept per block in the trace (the most recent ones).
    #[arg(long, default_value_t = 1 << 16)]
    trace_events: usize,
    /// Print the table as JSON (one object per block) instead.
    #[arg(long)]
    json: bool,
    /// While the graph runs, print every block's live counters every this many seconds.
    #[arg(long)]
    live: Option<f64>,
}

pub(crate) fn main(a: ProfileArgs) -> anyhow::Result<()> {
    let scheduler = a.scheduler.parse::<SchedulerSpec>()?.build();
    let mut fg = build(&a.graph, a.samples)
        .with_context(|| format!("graphs: {}", GRAPH_NAMES.join(", ")))?;
    fg.set_counters(Counters::Timed);
    if a.trace.is_some() {
        fg.set_trace(Some(TraceConfig {
            events_per_block: a.trace_events,
        }));
    }
    let t0 = Instant::now();
    fg.start(scheduler.as_ref())?;
    if let Some(every) = a.live.filter(|s| *s > 0.0) {
        watch(&fg, std::time::Duration::from_secs_f64(every));
    }
    fg.wait()?;
    let profile = Profile::of(&fg, t0.elapsed().as_secs_f64());
    if a.json {
        for r in &profile.rows {
            let s = &r.stats;
            println!(
                "{}",
                serde_json::json!({
                    "block": r.name, "work_calls": s.work_calls,
                    "items_consumed": s.items_consumed, "items_produced": s.items_produced,
                    "work_ns": s.work_ns, "work_ns_min": s.work_ns_min,
                    "work_ns_avg": s.work_ns_avg(), "work_ns_max": s.work_ns_max,
                    "share": r.share, "throughput": r.throughput, "bottleneck": r.bottleneck,
                    "input_empty": s.input_empty, "output_full": s.output_full,
                    "messages": s.messages, "produced_log2": s.produced_log2.to_vec(),
                })
            );
        }
    } else {
        println!(
            "{} on {} ({:e} items per head)",
            a.graph,
            scheduler.name(),
            a.samples as f64
        );
        println!("{profile}");
    }
    if let (Some(path), Some(trace)) = (&a.trace, fg.trace()) {
        let mut f = std::fs::File::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        trace
            .write_chrome_json(&mut f)
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!(
            "trace: {} work calls ({} older ones dropped) -> {} (open in Perfetto or chrome://tracing)",
            trace.len(),
            trace.dropped(),
            path.display()
        );
    }
    Ok(())
}

/// Prints the live counters of the running `fg` every `every` until it finishes: per block
/// the items produced (consumed for sinks) since the last look, as a rate, and its share of
/// the time in work so far.
fn watch(fg: &radioflow_runtime::Flowgraph, every: std::time::Duration) {
    use radioflow_runtime::BlockId;
    let Some(handle) = fg.stats_handle() else {
        return;
    };
    let ids: Vec<BlockId> = (0..fg.len()).map(BlockId::from_index).collect();
    let items = |s: &radioflow_runtime::BlockStats| s.items_produced.max(s.items_consumed);
    let mut last: Vec<u64> = vec![0; ids.len()];
    let start = Instant::now();
    let mut tick = start;
    while !fg.is_finished() {
        std::thread::sleep(every.min(std::time::Duration::from_millis(10)));
        if tick.elapsed() < every {
            continue;
        }
        let dt = tick.elapsed().as_secs_f64();
        tick = Instant::now();
        let now: Vec<_> = ids.iter().filter_map(|&id| handle.get(id)).collect();
        let busy: u64 = now.iter().map(|s| s.work_ns).sum::<u64>().max(1);
        let cells: Vec<String> = ids
            .iter()
            .zip(&now)
            .zip(&mut last)
            .map(|((&id, s), l)| {
                let rate = (items(s) - *l) as f64 / dt;
                *l = items(s);
                format!(
                    "{} {:.1} M/s {:.0}%",
                    fg.name(id),
                    rate / 1e6,
                    100.0 * s.work_ns as f64 / busy as f64
                )
            })
            .collect();
        println!(
            "[{:>6.2} s] {}",
            start.elapsed().as_secs_f64(),
            cells.join(" | ")
        );
    }
}
