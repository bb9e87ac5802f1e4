//! `radioflow`: run the source documents' benchmarks on radioflow.

mod bench;

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
}

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .without_time()
        .init();
    match Cli::parse().command {
        Command::Bench(args) => bench::main(args),
    }
}
