//! `radioflow`: run the source documents' benchmarks on radioflow, and profile graphs.
//!
//! The experiments live in `radioflow_bench`; this binary parses arguments, maps them to the
//! bench crate's parameters and prints what it returns.

mod bench;
mod bench_compare;
mod bench_framed;
mod bench_observe;
mod bench_profile;
mod blocks;
mod control;
mod grc;
mod profile;
mod run;
mod soak;
mod values;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "radioflow",
    version,
    about = "A dataflow runtime for software-defined radio"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a benchmark experiment (without one: a short demo of every experiment and scheduler).
    Bench(bench::BenchArgs),
    /// Run a graph with time counters on and print a per-block profile (optionally a trace).
    Profile(profile::ProfileArgs),
    /// List the block library (or show one block's parameters and ports).
    Blocks(blocks::BlocksArgs),
    /// Run a graph file (radioflow's TOML or GNU Radio Companion's .grc).
    Run(run::RunArgs),
    /// GNU Radio Companion flowgraphs: `radioflow grc list` shows the GNU Radio blocks supported.
    #[command(subcommand)]
    Grc(grc::GrcCommand),
    /// Keep a graph running, sampling memory, threads and throughput (fails if memory grows).
    Soak(soak::SoakArgs),
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .without_time()
        .init();
    match Cli::parse().command {
        Command::Bench(args) => bench::main(args),
        Command::Profile(args) => profile::main(args),
        Command::Blocks(args) => blocks::main(args),
        Command::Run(args) => run::main(args),
        Command::Grc(c) => grc::main(c),
        Command::Soak(args) => soak::main(args),
    }
}
