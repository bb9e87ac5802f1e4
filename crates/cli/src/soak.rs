//! `radioflow soak`: keeps a graph running for a long time ([`run`]), printing memory, threads
//! and throughput as it goes; fails if memory grew or a thread appeared or items stopped.

mod run;

use clap::Args;
use radioflow_runtime::SchedulerSpec;
use run::{SoakSample, SOAK_GRAPHS};
use std::time::Duration;

#[derive(Args)]
pub(crate) struct SoakArgs {
    /// The graph: copy (tagged counter through copies, messages through forwarders), fm (the FM
    /// receiver, stereo and RDS, on the built-in station read again and again) or dvbs2 (the
    /// DVB-S2 transmitter feeding the receiver, an endless TS stream).
    #[arg(long, default_value = "copy")]
    graph: String,
    /// How long to run, in seconds.
    #[arg(long, default_value = "120", value_parser = crate::values::seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Seconds between samples.
    #[arg(long, default_value = "1", value_parser = crate::values::seconds, allow_negative_numbers = true)]
    every: f64,
    /// Scheduler (spec such as `flow:workers=2,pin`).
    #[arg(long, default_value = "flow")]
    scheduler: String,
    /// Print one JSON object per sample, then the report, instead of a table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn main(a: SoakArgs) -> anyhow::Result<()> {
    if !SOAK_GRAPHS.contains(&a.graph.as_str()) {
        anyhow::bail!(
            "--graph {}: unknown (known: {})",
            a.graph,
            SOAK_GRAPHS.join(", ")
        );
    }
    let scheduler = a.scheduler.parse::<SchedulerSpec>()?.build();
    if !a.json {
        println!(
            "{:>8} {:>10} {:>8} {:>14} {:>12}",
            "seconds", "RSS MiB", "threads", "items/s", "messages"
        );
    }
    let json = a.json;
    let mut print = |s: &SoakSample| {
        if json {
            println!("{}", serde_json::to_string(s).unwrap_or_default());
        } else {
            println!(
                "{:>8.1} {:>10.1} {:>8} {:>14.3e} {:>12}",
                s.seconds,
                s.rss as f64 / (1 << 20) as f64,
                s.threads,
                s.items_per_second,
                s.messages
            );
        }
    };
    let report = run::run(
        &a.graph,
        Duration::from_secs_f64(a.seconds),
        Duration::from_secs_f64(a.every),
        scheduler.as_ref(),
        &mut print,
    )?;
    let verdict = format!(
        "soak {}: {} samples over {:.0} s, RSS growth {:.1} MiB after warm-up: {}",
        report.graph,
        report.samples.len(),
        a.seconds,
        report.rss_growth as f64 / (1 << 20) as f64,
        if report.flat { "flat" } else { "NOT FLAT" }
    );
    if json {
        println!(
            "{}",
            serde_json::json!({"graph": report.graph, "rss_growth": report.rss_growth, "flat": report.flat})
        );
    }
    eprintln!("{verdict}");
    if !report.flat {
        anyhow::bail!("{verdict} (memory grew, threads changed or items stopped)");
    }
    Ok(())
}
