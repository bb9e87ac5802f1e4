//! `radioflow run GRAPH.toml|FLOWGRAPH.grc`: builds a graph file or a GNU Radio Companion
//! flowgraph (see `radioflow_graphfile`) and runs it.

use crate::interrupt::Interrupt;
use clap::Args;
use radioflow_runtime::{SchedulerSpec, StopHandle};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct RunArgs {
    /// The graph file: radioflow's TOML (a `[blocks]` table, `connections`, `messages`;
    /// `radioflow blocks` lists the blocks it can name) or GNU Radio Companion's `.grc`
    /// (`radioflow grc list` shows the GNU Radio blocks it can hold). A `.grc` with embedded
    /// Python (epy_block, epy_module, snippet) is handed to radioflow's Python package
    /// (`python3 -m radioflow.gnuradio FILE.grc`, or `$RADIOFLOW_PYTHON`), which runs the
    /// Python it holds, as GNU Radio Companion does: run only files you trust.
    graph: PathBuf,
    /// Scheduler: flow, tpb or single, with options (`flow:workers=2,pin`, `tpb:realtime`).
    #[arg(long, default_value = "flow")]
    scheduler: String,
    #[command(flatten)]
    control: crate::control::ControlArgs,
    /// Run the graph across hosts: `name=address` of each host's `radioflow serve`
    /// (`a=10.0.0.1:7300,b=10.0.0.2:7300`); every block names its host (`host = "a"` in a
    /// graph file, a `host=a` line in the block's comment in a .grc file).
    #[arg(
        long,
        value_name = "NAME=ADDR,...",
        requires = "host_token",
        conflicts_with = "control"
    )]
    hosts: Option<String>,
    /// The token the hosts' `radioflow serve` were started with (or the environment's
    /// RADIOFLOW_TOKEN).
    #[arg(
        long = "host-token",
        id = "host_token",
        value_name = "TOKEN",
        env = "RADIOFLOW_TOKEN"
    )]
    host_token: Option<String>,
    /// With --hosts: a link's receiving end drops (logs and counts) a frame that cannot be a
    /// link frame instead of failing the run (its port is open to anyone who can reach it).
    #[arg(long, requires = "hosts")]
    drop_malformed: bool,
    /// A .grc file with GNU Radio GUI blocks runs headless: no page is served in place of its
    /// QT window (its displays discarded, its widgets at their values in the file).
    #[arg(long)]
    no_gui: bool,
}

pub(crate) fn main(a: RunArgs) -> anyhow::Result<()> {
    let python = crate::python_grc::python_entries(&a.graph);
    if !python.is_empty() {
        if a.hosts.is_some() || a.control.enabled() {
            anyhow::bail!(
                "{}: embedded Python ({}) runs through the Python package, which takes \
                 neither --hosts nor the control options yet",
                a.graph.display(),
                python.join(", ")
            );
        }
        return crate::python_grc::run(&a.graph, &python, &a.scheduler);
    }
    if let Some(hosts) = &a.hosts {
        return across_hosts(&a, hosts);
    }
    let scheduler = a.scheduler.parse::<SchedulerSpec>()?.build();
    // Before anything is printed: a signal that comes while the graph is being built stops
    // it as soon as it starts.
    let mut interrupt = Interrupt::catch()?;
    // A .grc file with QT GUI blocks shows them on the live page (served on loopback unless
    // --control says where), its widgets setting the running blocks' parameters.
    let live = if a.graph.extension().is_some_and(|e| e == "grc") && !a.no_gui {
        Some(radioflow_graphfile::grc::LiveGrc::open(&a.graph)?).filter(crate::grc_gui::has_gui)
    } else {
        None
    };
    let mut graph = match &live {
        Some(grc) => grc.description().build()?,
        None => radioflow_graphfile::load_any(&a.graph)?,
    };
    let mut notes = graph.notes.clone();
    let crate::grc_gui::GuiTaps {
        mut probes,
        taps,
        views,
    } = match &live {
        Some(grc) => crate::grc_gui::add_view_probes(&mut graph, grc.widgets(), &mut notes)?,
        None => crate::grc_gui::GuiTaps {
            probes: Vec::new(),
            taps: Vec::new(),
            views: Vec::new(),
        },
    };
    // The GUI sinks the page shows do not run headless.
    let shown: Vec<String> = views
        .iter()
        .map(|v| format!("'{}' runs headless", v.name))
        .collect();
    for note in notes
        .iter()
        .filter(|n| !shown.iter().any(|s| n.contains(s)))
    {
        eprintln!("{}: {note}", a.graph.display());
    }
    probes.extend(a.control.add_probes(&mut graph.flowgraph)?);
    if a.control.enabled() || live.is_some() {
        graph
            .flowgraph
            .set_counters(radioflow_runtime::Counters::Timed);
    }
    let start = Instant::now();
    graph.flowgraph.start(scheduler.as_ref())?;
    let stop = graph.flowgraph.stop_handle();
    interrupt.then(move || stop.iter().for_each(StopHandle::stop));
    let control = match live {
        Some(grc) => Some(a.control.serve_gui(
            &graph.flowgraph,
            crate::grc_gui::GuiTaps {
                probes,
                taps,
                views,
            },
            radioflow_control::SharedVariables::new(crate::grc_gui::GrcVariables(grc)),
        )?),
        None => a.control.serve(&graph.flowgraph, probes, Vec::new())?,
    };
    graph.flowgraph.wait()?;
    drop(control);
    let seconds = start.elapsed().as_secs_f64();
    println!("{}: {} {seconds:.3} s", a.graph.display(), ran(&interrupt));
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

/// `--hosts`: the graph's parts on the hosts, this process coordinating.
fn across_hosts(a: &RunArgs, hosts: &str) -> anyhow::Result<()> {
    a.scheduler.parse::<SchedulerSpec>()?;
    let graph = radioflow_graphfile::describe_any(&a.graph)?;
    let hosts = radioflow_hosts::HostAddress::parse_list(hosts)
        .map_err(|e| anyhow::anyhow!("--hosts: {e}"))?;
    let options = radioflow_hosts::RunOptions {
        token: a.host_token.clone().unwrap_or_default(),
        scheduler: a.scheduler.clone(),
        drop_malformed: a.drop_malformed,
    };
    let interrupt = Interrupt::catch()?;
    let start = Instant::now();
    let report = radioflow_hosts::run_until(&graph, &hosts, &options, interrupt.flag())?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{}: on {} hosts, {} {seconds:.3} s",
        a.graph.display(),
        report.hosts.len(),
        ran(&interrupt)
    );
    for (host, blocks) in &report.hosts {
        for b in blocks {
            println!(
                "  {host}:{:14} {:>12} in {:>12} out {:>8} messages{}",
                b.name,
                b.consumed,
                b.produced,
                b.messages,
                if b.dropped > 0 {
                    format!(" ({} malformed frames dropped)", b.dropped)
                } else {
                    String::new()
                }
            );
        }
    }
    Ok(())
}

/// How the run ended, before its length.
fn ran(interrupt: &Interrupt) -> &'static str {
    if interrupt.caught() {
        "stopped by a signal after"
    } else {
        "ran in"
    }
}
