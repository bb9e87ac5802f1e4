//! `radioflow dvbs2 ...`: the DVB-S2 tools (`tx`; a receiver will join as another
//! subcommand). Thin: the logic is in `radioflow_dvbs2::app`.

use clap::{Args, Subcommand, ValueEnum};
use radioflow_dvbs2::app::{tx_file, TxFileOptions};
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct Dvbs2Args {
    #[command(subcommand)]
    command: Dvbs2Command,
}

#[derive(Subcommand)]
enum Dvbs2Command {
    /// Encode a TS file into DVB-S2 PLFRAMEs, pulse-shaped, as complex float32 samples.
    Tx(TxArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum OnOff {
    On,
    Off,
}

#[derive(Clone, Copy, ValueEnum)]
enum ShapingKind {
    /// Root-raised-cosine (clause 5.6) at --sps samples per symbol.
    Rrc,
    /// No filter: each symbol then sps-1 zeros (--sps 1: one complex value per symbol).
    None,
}

#[derive(Args)]
struct TxArgs {
    /// MPEG-TS input file (whole 188-byte packets starting with 0x47).
    #[arg(long)]
    input: PathBuf,
    /// Output file of little-endian complex float32 (cf32) samples.
    #[arg(long)]
    out: PathBuf,
    /// MODCOD, e.g. qpsk-8/9, 8psk-3/5, 16apsk-2/3, 32apsk-9/10.
    #[arg(long, default_value = "qpsk-8/9")]
    modcod: String,
    /// FECFRAME size: short (16200) or normal (64800).
    #[arg(long, default_value = "normal")]
    frame: String,
    /// Pilot blocks.
    #[arg(long, value_enum, default_value = "on")]
    pilots: OnOff,
    /// RRC roll-off (also signalled in the BBHEADER): 0.35, 0.25 or 0.2.
    #[arg(long, default_value = "0.2", value_parser = rolloff)]
    rolloff: f64,
    /// Samples per symbol (1 to 64; RRC needs at least 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    sps: u16,
    /// Pulse shaping.
    #[arg(long, value_enum, default_value = "rrc")]
    shaping: ShapingKind,
    /// PL scrambling Gold code index n (0..=262141).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=262_141))]
    gold: u32,
    /// VCM: MODCOD changes by frame index, `INDEX:MODCOD[:FRAME[:on|off]],...`
    /// (e.g. `100:8psk-3/5,200:qpsk-1/2:short`); signals ACM/VCM in the BBHEADER.
    #[arg(long)]
    schedule: Option<String>,
    /// Encoder threads of the pipeline (BCH, LDPC, mapping, PL framing, RRC), between a
    /// reading and a writing thread; 0 runs everything on one thread. Default: one per CPU.
    #[arg(long, value_parser = clap::value_parser!(u16).range(0..=256))]
    threads: Option<u16>,
}

/// `--rolloff`: one of the standard's three (clause 5.6).
fn rolloff(s: &str) -> Result<f64, String> {
    match s.trim() {
        "0.35" => Ok(0.35),
        "0.25" => Ok(0.25),
        "0.2" | "0.20" => Ok(0.2),
        _ => Err(format!(
            "'{s}': DVB-S2 defines the roll-offs 0.35, 0.25 and 0.2"
        )),
    }
}

pub(crate) fn main(args: Dvbs2Args) -> anyhow::Result<()> {
    match args.command {
        Dvbs2Command::Tx(a) => tx(a),
    }
}

fn tx(a: TxArgs) -> anyhow::Result<()> {
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        usize::from,
    );
    let o = TxFileOptions {
        input: a.input,
        output: a.out,
        modcod: a.modcod,
        frame: a.frame,
        pilots: matches!(a.pilots, OnOff::On),
        rolloff: a.rolloff,
        sps: usize::from(a.sps),
        rrc: matches!(a.shaping, ShapingKind::Rrc),
        gold: a.gold,
        schedule: a.schedule,
        threads,
    };
    // The error's own message names the option, file or packet at fault: it is the first line.
    let stats = tx_file(&o)?;
    eprintln!(
        "dvbs2 tx: {} PLFRAMEs, {} samples to {} in {:.3} s ({:.1} Mb/s of TS input)",
        stats.frames,
        stats.samples,
        o.output.display(),
        stats.seconds,
        stats.input_bytes as f64 * 8.0 / stats.seconds.max(1e-9) / 1e6
    );
    Ok(())
}
