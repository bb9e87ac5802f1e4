//! `radioflow profile [GRAPH] [--trace FILE]`: run a graph with time counters on and print the
//! per-block profile table; optionally write a Chrome trace of the run.

use anyhow::Context;
use clap::Args;
use radioflow_bench::graphs::{build, GRAPH_NAMES};
use radioflow_runtime::{scheduler_by_name, Counters, Profile, TraceConfig, SCHEDULER_NAMES};
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
    /// Scheduler: flow, tpb or single.
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
}

pub(crate) fn main(a: ProfileArgs) -> anyhow::Result<()> {
    let scheduler = scheduler_by_name(&a.scheduler).with_context(|| {
        format!(
            "unknown scheduler '{}' (known: {})",
            a.scheduler,
            SCHEDULER_NAMES.join(", ")
        )
    })?;
    let mut fg = build(&a.graph, a.samples)
        .with_context(|| format!("graphs: {}", GRAPH_NAMES.join(", ")))?;
    fg.set_counters(Counters::Timed);
    if a.trace.is_some() {
        fg.set_trace(Some(TraceConfig {
            events_per_block: a.trace_events,
        }));
    }
    let t0 = Instant::now();
    fg.run_with(scheduler.as_ref())?;
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
