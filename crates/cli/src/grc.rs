//! `radioflow grc list`: the GNU Radio block ids a `.grc` flowgraph run by radioflow may hold.

use clap::Subcommand;

#[derive(Subcommand)]
pub(crate) enum GrcCommand {
    /// The GNU Radio block ids radioflow runs, with the radioflow block each becomes.
    List,
}

pub(crate) fn main(c: GrcCommand) -> anyhow::Result<()> {
    match c {
        GrcCommand::List => {
            let all = radioflow_graphfile::grc::supported();
            let width = all.iter().map(|(g, _)| g.len()).max().unwrap_or(0);
            for (grc, ours) in &all {
                println!("{grc:width$}  -> {ours}");
            }
            println!("\n{} GNU Radio blocks; variables, parameters and GUI variable widgets are evaluated, virtual sinks/sources joined, disabled and bypassed blocks honoured.", all.len());
        }
    }
    Ok(())
}
