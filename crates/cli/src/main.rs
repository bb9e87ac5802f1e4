//! `radioflow`: run the source documents' benchmarks on radioflow, and profile graphs.
//!
//! The experiments live in `radioflow_bench`; this binary parses arguments, maps them to the
//! bench crate's parameters and prints what it returns.

mod bench;
mod bench_compare;
mod bench_dvbs2;
mod bench_framed;
mod bench_observe;
mod bench_profile;
mod dvbs2;
mod profile;

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
    /// DVB-S2 tools: `tx` encodes a TS file into a shaped cf32 file.
    Dvbs2(dvbs2::Dvbs2Args),
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .without_time()
        .init();
    match Cli::parse().command {
        Command::Bench(args) => bench::main(args),
        Command::Profile(args) => profile::main(args),
        Command::Dvbs2(args) => dvbs2::main(args),
    }
}
