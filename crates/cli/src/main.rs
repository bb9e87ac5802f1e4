//! `radioflow`: run the source documents' benchmarks on radioflow, and profile graphs.
//!
//! The experiments, with their arguments and their printing, live in `radioflow_bench`; this
//! binary flattens those arguments into its own and adds its other commands.

mod bench;
mod blocks;
mod control;
mod devices;
mod dvbs2;
mod fm;
mod grc;
mod grc_gui;
mod interrupt;
mod profile;
mod python_grc;
mod run;
mod serve;
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
    /// DVB-S2 tools: `tx` encodes a TS file into a shaped cf32 file.
    Dvbs2(dvbs2::Dvbs2Args),
    /// List the block library (or show one block's parameters and ports).
    Blocks(blocks::BlocksArgs),
    /// Run a graph file (radioflow's TOML or GNU Radio Companion's .grc; a .grc with embedded
    /// Python runs that Python, through radioflow's Python package: run only files you trust).
    Run(run::RunArgs),
    /// Serve a host's part of graphs spread across hosts (`radioflow run GRAPH --hosts ...`).
    Serve(serve::ServeArgs),
    /// GNU Radio Companion flowgraphs: `radioflow grc list` shows the GNU Radio blocks supported.
    #[command(subcommand)]
    Grc(grc::GrcCommand),
    /// Keep a graph running, sampling memory, threads and throughput (fails if memory grows).
    Soak(soak::SoakArgs),
    /// Receive an FM broadcast station from an IQ recording into a WAV file.
    Fm(fm::FmArgs),
    /// The radios SoapySDR finds, with each channel's frequencies, rates, gains and antennas.
    Devices(devices::DevicesArgs),
}

fn main() -> std::process::ExitCode {
    // RADIOFLOW_LOG=debug (or trace, warn, ...) shows the runtime's decisions, e.g. where
    // `flow` cut a chain; info by default.
    let level = std::env::var("RADIOFLOW_LOG")
        .ok()
        .and_then(|v| v.parse::<tracing_subscriber::filter::LevelFilter>().ok())
        .unwrap_or(tracing_subscriber::filter::LevelFilter::INFO);
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .without_time()
        .init();
    match run(Cli::parse().command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            std::process::ExitCode::FAILURE
        }
    }
}

/// An error and its causes on one line, each cause only when the text before does not
/// already say it (the library errors put their source's message in their own).
fn error_text(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Bench(args) => bench::main(args),
        Command::Profile(args) => profile::main(args),
        Command::Dvbs2(args) => dvbs2::main(args),
        Command::Blocks(args) => blocks::main(args),
        Command::Run(args) => run::main(args),
        Command::Serve(args) => serve::main(args),
        Command::Grc(c) => grc::main(c),
        Command::Soak(args) => soak::main(args),
        Command::Fm(args) => fm::main(args),
        Command::Devices(args) => devices::main(args),
    }
}
