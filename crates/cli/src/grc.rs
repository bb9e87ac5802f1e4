//! `radioflow grc list [ID]`: the GNU Radio block ids a `.grc` flowgraph run by radioflow may
//! hold, and for one id how each of its parameters and item types maps onto radioflow's block
//! (the rows of [`radioflow_library::gnuradio`]). `radioflow grc check DIR`: what of a folder
//! of flowgraphs radioflow runs.

use anyhow::bail;
use clap::Subcommand;
use radioflow_graphfile::GraphError;
use radioflow_library::gnuradio::{self, GrBlock, To, GRC_COMMON};
use radioflow_runtime::echo::cut;
use radioflow_runtime::{RunError, SchedulerSpec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub(crate) enum GrcCommand {
    /// The GNU Radio block ids radioflow runs, with the radioflow block each becomes; with an
    /// id, what each of that block's parameters and item types becomes.
    List {
        /// A GRC block id (`blocks_add_xx`).
        id: Option<String>,
    },
    /// Reads (and with --run, runs) every `.grc` flowgraph under a folder and prints a table:
    /// which build, run to their end or until stopped, and which hold GNU Radio blocks
    /// radioflow does not run (with their ids, ranked by how many flowgraphs need each).
    /// With --run, flowgraphs with embedded Python run it (through the Python package, as
    /// `radioflow run` does): check only folders you trust.
    Check {
        /// The folder (searched recursively), or one `.grc` file.
        path: PathBuf,
        /// Run each flowgraph that builds, for at most this many seconds (it writes the files
        /// its blocks write, as `radioflow run` would).
        #[arg(long, value_name = "SECONDS")]
        run: Option<f64>,
    },
}

pub(crate) fn main(c: GrcCommand) -> anyhow::Result<()> {
    match c {
        GrcCommand::List { id: None } => {
            let all = radioflow_graphfile::grc::supported();
            let width = all.iter().map(|(g, _)| g.len()).max().unwrap_or(0);
            for (grc, ours) in &all {
                println!("{grc:width$}  -> {ours}");
            }
            println!("\n{} GNU Radio blocks; variables, parameters and GUI variable widgets are evaluated, virtual sinks/sources joined, disabled and bypassed blocks honoured. `radioflow grc list ID` shows one.", all.len());
        }
        GrcCommand::Check { path, run } => check(&path, run)?,
        GrcCommand::List { id: Some(id) } => {
            let Some(row) = gnuradio::find(&id) else {
                bail!("radioflow does not run GNU Radio block '{id}' (`radioflow grc list` shows those it runs)");
            };
            print!("{}", describe(row));
        }
    }
    Ok(())
}

/// One row, as `radioflow grc list ID` prints it.
fn describe(row: &GrBlock) -> String {
    let mut out = format!("{} -> radioflow's {}\n", row.id, row.block);
    if !row.make.is_empty() {
        out += &format!("GNU Radio's Python: {}\n", row.make);
    }
    if !row.types.is_empty() {
        out += "type:\n";
        for t in row.types {
            match t.dtype {
                Some(d) => match t.block {
                    Some(b) => {
                        out += &format!("  {:10} -> {} (radioflow's {b})\n", t.option, d.name())
                    }
                    None => out += &format!("  {:10} -> {}\n", t.option, d.name()),
                },
                None => out += &format!("  {:10} -> refused: {}\n", t.option, t.why),
            }
        }
    }
    out += "parameters:\n";
    for p in row.params {
        let what = match p.to {
            To::Param(n) => n.to_owned(),
            To::Convert(n, _) => format!("{n} (converted)"),
            To::Only(_, why) => format!("only where radioflow's block does the same ({why})"),
            To::NoEffect(why) => format!("no effect: {why}"),
            To::Word(n) => format!("{n} (an enumeration's option, as written)"),
        };
        out += &format!("  {:20} -> {what}\n", p.key);
    }
    for (name, value) in row.fixed {
        out += &format!("  {:20} -> {name} = {value} (fixed by the id)\n", "");
    }
    for key in row.extra {
        out += &format!("  {key:20} -> {key} (radioflow's, where the file gives it)\n");
    }
    if row.choose.is_some() {
        out += "  (the radioflow block may change with the parameters' values)\n";
    }
    let common: Vec<&str> = GRC_COMMON.iter().map(|(k, _)| *k).collect();
    out += &format!("GRC's {} have no effect.\n", common.join(", "));
    out
}

/// What became of one flowgraph.
enum Outcome {
    /// Read and built (not run).
    Builds,
    /// Ran to its end.
    Ran,
    /// Still running after the time given, then stopped.
    RanUntilStopped,
    /// Holds GNU Radio blocks radioflow does not run.
    Unsupported(Vec<String>),
    /// Holds GUI blocks only: nothing is left to run without a display.
    OnlyGui,
    /// A hierarchical block (`generate_options: hb`), checked but not run: a block of other
    /// flowgraphs, which GNU Radio does not run alone either.
    HierBlock,
    /// Needs a radio that is not there (its device block could not find it): the error.
    #[cfg_attr(not(feature = "soapysdr"), allow(dead_code))]
    NoDevice(String),
    /// Could not be read, built or run: the error.
    Failed(String),
}

impl Outcome {
    fn label(&self) -> &'static str {
        match self {
            Outcome::Builds => "builds",
            Outcome::Ran => "runs",
            Outcome::RanUntilStopped => "runs until stopped",
            Outcome::Unsupported(_) => "unsupported blocks",
            Outcome::OnlyGui => "GUI only",
            Outcome::HierBlock => "hierarchical block",
            Outcome::NoDevice(_) => "needs an absent device",
            Outcome::Failed(_) => "error",
        }
    }

    /// A failure, or the absent radio it was for.
    fn failed(error: String) -> Self {
        #[cfg(feature = "soapysdr")]
        if error.contains(radioflow_interop::soapy::NO_DEVICE) {
            return Outcome::NoDevice(error);
        }
        Outcome::Failed(error)
    }
}

/// Every `.grc` file under `path`, sorted.
fn grc_files(path: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if path.is_file() {
        out.push(path.to_owned());
        return Ok(());
    }
    let entries =
        std::fs::read_dir(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            grc_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "grc") {
            out.push(p);
        }
    }
    Ok(())
}

/// One flowgraph read, built and (with `run`) run for at most `run` seconds; whether it
/// has GUI blocks run headless.
fn check_one(file: &Path, run: Option<f64>) -> (Outcome, bool) {
    let python = crate::python_grc::python_entries(file);
    if !python.is_empty() {
        return check_python(file, &python, run);
    }
    let description = match radioflow_graphfile::grc::describe_grc_file(file) {
        Ok(d) => d,
        Err(GraphError::Unsupported { ids, .. }) => return (Outcome::Unsupported(ids), false),
        Err(GraphError::HierBlock { .. }) => return (Outcome::HierBlock, false),
        Err(e) => return (Outcome::Failed(e.to_string()), false),
    };
    if description.blocks.is_empty() && !description.notes.is_empty() {
        return (Outcome::OnlyGui, false);
    }
    let headless = !description.notes.is_empty();
    (run_one(description, run), headless)
}

/// [`check_one`] of a file with embedded Python: its other blocks described here, and (with
/// `run`) run by the Python package, which makes the Python parts (`python_grc.rs`). Without
/// `run` its Python is not run: "builds" says that the rest of the file is described.
fn check_python(file: &Path, python: &[String], run: Option<f64>) -> (Outcome, bool) {
    let read = match radioflow_graphfile::grc::describe_grc_embedded(file, Default::default()) {
        Ok(read) => read,
        Err(e) => return (Outcome::Failed(e.to_string()), false),
    };
    let headless = match read.graph {
        Ok(d) => !d.notes.is_empty(),
        Err(GraphError::Unsupported { ids, .. }) => return (Outcome::Unsupported(ids), false),
        Err(GraphError::HierBlock { .. }) => return (Outcome::HierBlock, false),
        // A variable naming an epy_module is valued by the Python side: then the run tells.
        Err(e) if run.is_none() || !python.iter().any(|p| p.ends_with("(epy_module)")) => {
            return (Outcome::Failed(e.to_string()), false)
        }
        Err(_) => false,
    };
    let Some(seconds) = run else {
        return (Outcome::Builds, headless);
    };
    let outcome = match crate::python_grc::check(file, python, seconds) {
        crate::python_grc::Checked::Ran => Outcome::Ran,
        crate::python_grc::Checked::RanUntilStopped => Outcome::RanUntilStopped,
        crate::python_grc::Checked::Failed(e) => Outcome::failed(e),
    };
    (outcome, headless)
}

/// A described flowgraph built and (with `run`) run for at most `run` seconds.
fn run_one(description: radioflow_graphfile::GraphDescription, run: Option<f64>) -> Outcome {
    let mut graph = match description.build() {
        Ok(g) => g,
        Err(e) => return Outcome::failed(e.to_string()),
    };
    let Some(seconds) = run else {
        return Outcome::Builds;
    };
    let scheduler = SchedulerSpec::default().build();
    if let Err(e) = graph.flowgraph.start(scheduler.as_ref()) {
        return Outcome::failed(e.to_string());
    }
    match graph
        .flowgraph
        .wait_timeout(Duration::from_secs_f64(seconds))
    {
        Ok(()) => Outcome::Ran,
        Err(RunError::Unresponsive { .. }) => {
            graph.flowgraph.stop();
            match graph.flowgraph.wait() {
                Ok(()) => Outcome::RanUntilStopped,
                Err(e) => Outcome::failed(e.to_string()),
            }
        }
        Err(e) => Outcome::failed(e.to_string()),
    }
}

/// `radioflow grc check PATH [--run SECONDS]`.
fn check(path: &Path, run: Option<f64>) -> anyhow::Result<()> {
    if let Some(s) = run
        && !(s.is_finite() && s > 0.0)
    {
        bail!("--run {s}: the time limit must be a positive number of seconds");
    }
    let mut files = Vec::new();
    grc_files(path, &mut files)?;
    if files.is_empty() {
        bail!("{}: no .grc file there", path.display());
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut missing: BTreeMap<String, usize> = BTreeMap::new();
    for file in &files {
        let (outcome, headless) = check_one(file, run);
        let shown = file
            .strip_prefix(path)
            .unwrap_or(file)
            .display()
            .to_string();
        let label = if headless && !matches!(outcome, Outcome::Unsupported(_)) {
            format!("{} (GUI headless)", outcome.label())
        } else {
            outcome.label().to_owned()
        };
        let detail = match &outcome {
            Outcome::Unsupported(ids) => {
                for id in ids {
                    *missing.entry(id.clone()).or_default() += 1;
                }
                ids.join(", ")
            }
            Outcome::Failed(e) | Outcome::NoDevice(e) => {
                // The error names the file, which the table's first column shows.
                let e = e.lines().next().unwrap_or_default();
                let prefix = format!("{}: ", file.display());
                cut(e.strip_prefix(&prefix).unwrap_or(e)).to_string()
            }
            _ => String::new(),
        };
        *counts.entry(label.clone()).or_default() += 1;
        println!("{shown:48} {label:20} {detail}");
    }
    println!();
    let summary: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    println!("{} flowgraphs: {}", files.len(), summary.join(", "));
    if !missing.is_empty() {
        let mut ranked: Vec<(&String, &usize)> = missing.iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let top: Vec<String> = ranked
            .iter()
            .take(30)
            .map(|(id, n)| format!("{id} {n}"))
            .collect();
        println!(
            "{} GNU Radio ids missing; by flowgraphs needing each: {}",
            missing.len(),
            top.join(", ")
        );
    }
    Ok(())
}
