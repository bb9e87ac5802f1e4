//! `radioflow dvbs2 ...`: the DVB-S2 tools (`tx`; a receiver will join as another
//! subcommand). Thin: the logic is in `radioflow_dvbs2::app`.

use anyhow::Context;
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
    #[arg(long, default_value_t = 0.2)]
    rolloff: f64,
    /// Samples per symbol.
    #[arg(long, default_value_t = 2)]
    sps: usize,
    /// Pulse shaping.
    #[arg(long, value_enum, default_value = "rrc")]
    shaping: ShapingKind,
    /// PL scrambling Gold code index n (0..=262141).
    #[arg(long, default_value_t = 0)]
    gold: u32,
    /// VCM: MODCOD changes by frame index, `INDEX:MODCOD[:FRAME[:on|off]],...`
    /// (e.g. `100:8psk-3/5,200:qpsk-1/2:short`); signals ACM/VCM in the BBHEADER.
    #[arg(long)]
    schedule: Option<String>,
    /// Encoder threads of the pipeline (BCH, LDPC, mapping, PL framing, RRC), between a
    /// reading and a writing thread; 0 runs everything on one thread. Default: one per CPU.
    #[arg(long)]
    threads: Option<usize>,
}

pub(crate) fn main(args: Dvbs2Args) -> anyhow::Result<()> {
    match args.command {
        Dvbs2Command::Tx(a) => tx(a),
    }
}

fn tx(a: TxArgs) -> anyhow::Result<()> {
    let threads = a.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let o = TxFileOptions {
        input: a.input,
        output: a.out,
        modcod: a.modcod,
        frame: a.frame,
        pilots: matches!(a.pilots, OnOff::On),
        rolloff: a.rolloff,
        sps: a.sps,
        rrc: matches!(a.shaping, ShapingKind::Rrc),
        gold: a.gold,
        schedule: a.schedule,
        threads,
    };
    let stats = tx_file(&o).context("radioflow dvbs2 tx")?;
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
