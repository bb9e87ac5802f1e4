//! `radioflow run GRAPH.toml|FLOWGRAPH.grc`: builds a graph file or a GNU Radio Companion
//! flowgraph (see `radioflow_graph`) and runs it.

use clap::Args;
use radioflow_runtime::SchedulerSpec;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct RunArgs {
    /// The graph file: radioflow's TOML (a `[blocks]` table, `connections`, `messages`;
    /// `radioflow blocks` lists the blocks it can name) or GNU Radio Companion's `.grc`
    /// (`radioflow grc list` shows the GNU Radio blocks it can hold).
    graph: PathBuf,
    /// Scheduler: flow, tpb or single, with options (`flow:workers=2,pin`, `tpb:realtime`).
    #[arg(long, default_value = "flow")]
    scheduler: String,
    #[command(flatten)]
    control: crate::control::ControlArgs,
}

pub(crate) fn main(a: RunArgs) -> anyhow::Result<()> {
    let scheduler = a.scheduler.parse::<SchedulerSpec>()?.build();
    let mut graph = radioflow_graph::load_any(&a.graph)?;
    let probes = a.control.add_probes(&mut graph.flowgraph)?;
    if a.control.enabled() {
        graph
            .flowgraph
            .set_counters(radioflow_runtime::Counters::Timed);
    }
    let start = Instant::now();
    graph.flowgraph.start(scheduler.as_ref())?;
    let control = a.control.serve(&graph.flowgraph, probes, Vec::new())?;
    graph.flowgraph.wait()?;
    drop(control);
    let seconds = start.elapsed().as_secs_f64();
    println!("{}: ran in {seconds:.3} s", a.graph.display());
    for (name, id) in &graph.blocks {
        if let Some(s) = graph.flowgraph.stats(*id) {
            println!(
                "  {name:16} {:>12} in {:>12} out {:>8} messages",
                s.items_consumed, s.items_produced, s.messages
            );
        }
    }
    Ok(())
}
