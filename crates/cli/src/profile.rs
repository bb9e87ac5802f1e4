//! `radioflow profile [GRAPH] [--trace FILE]`: one of the named [`graphs`] run with time
//! counters on ([`run`]); prints its per-block profile table (or JSON), live counters while the
//! graph runs, and writes the trace.

mod graphs;
mod run;

use anyhow::Context;
use clap::Args;
use radioflow_runtime::SchedulerSpec;
use run::{LiveSample, ProfileParams, ProfileRun};
use std::path::Path;
use std::time::Duration;

#[derive(Args)]
pub(crate) struct ProfileArgs {
    /// The graph: example (tone -> head -> FIR -> gain -> sink), fir and fir-chain (the
    /// counters experiment), buf, opti, msg, workload (a real-time source: 1e6 samples/s),
    /// fm (the `bench fm` mono receiver chain).
    #[arg(default_value = "example")]
    graph: String,
    /// Items through each head block (messages for msg; accepts 1e7).
    #[arg(long, default_value = "1e7", value_parser = crate::values::count, allow_negative_numbers = true)]
    samples: u64,
    /// Scheduler: flow, tpb or single, with options (`flow:workers=2,pin`, `tpb:realtime`).
    #[arg(long, default_value = "flow")]
    scheduler: String,
    /// Also write a Chrome trace-event JSON of the run here (opens in Perfetto).
    #[arg(long)]
    trace: Option<std::path::PathBuf>,
    /// Work calls kept per block in the trace (the most recent ones).
    #[arg(long, default_value = "65536", value_parser = crate::values::bytes, allow_negative_numbers = true)]
    trace_events: usize,
    /// Print the table as JSON (one object per block) instead.
    #[arg(long)]
    json: bool,
    /// While the graph runs, print every block's live counters every this many seconds.
    #[arg(long, value_parser = crate::values::seconds, allow_negative_numbers = true)]
    live: Option<f64>,
    #[command(flatten)]
    control: crate::control::ControlArgs,
}

pub(crate) fn main(a: ProfileArgs) -> anyhow::Result<()> {
    if let Some(path) = &a.trace {
        crate::values::writable_file(path, "--trace")?;
    }
    a.control.refuse_probes("profile")?;
    let scheduler = a.scheduler.parse::<SchedulerSpec>()?.build();
    let p = ProfileParams {
        graph: &a.graph,
        samples: a.samples,
        trace_events: a.trace.is_some().then_some(a.trace_events),
        live: a.live.map(Duration::from_secs_f64),
    };
    // The error of an unknown graph lists the known ones.
    let mut control = Ok(None);
    let run = run::run_observed(&p, scheduler.as_ref(), &mut print_live, &mut |fg| {
        control = a.control.serve(fg, Vec::new(), Vec::new());
    })?;
    drop(control?);
    if a.json {
        for r in &run.profile.rows {
            println!("{}", run::row_json(r));
        }
    } else {
        println!(
            "{} on {} ({:e} items per head)",
            a.graph,
            scheduler.name(),
            a.samples as f64
        );
        println!("{}", run.profile);
    }
    if let Some(path) = &a.trace {
        write_trace(&run, path)?;
    }
    Ok(())
}

/// One line of live counters: per block its rate and share of the time in work.
fn print_live(s: &LiveSample) {
    let cells: Vec<String> = s
        .blocks
        .iter()
        .map(|b| format!("{} {:.1} M/s {:.0}%", b.name, b.rate / 1e6, 100.0 * b.share))
        .collect();
    println!("[{:>6.2} s] {}", s.elapsed, cells.join(" | "));
}

fn write_trace(run: &ProfileRun, path: &Path) -> anyhow::Result<()> {
    let Some(trace) = run.trace() else {
        return Ok(());
    };
    let mut f =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    trace
        .write_chrome_json(&mut f)
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!(
        "trace: {} work calls ({} older ones dropped) -> {} (open in Perfetto or chrome://tracing)",
        trace.len(),
        trace.dropped(),
        path.display()
    );
    Ok(())
}
