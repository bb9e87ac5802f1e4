//! `radioflow dvbs2 ...`: the DVB-S2 transmitter (`tx`) and receiver (`rx`). Thin: the
//! logic is in `radioflow_dvbs2::app` and `radioflow_dvbs2::rx_app`.

use crate::interrupt::Interrupt;
use clap::{Args, Subcommand, ValueEnum};
use radioflow_blocks::dsp::Num;
use radioflow_blocks::runtime::registry::PathUse;
use radioflow_control::Tasks;
use radioflow_dvbs2::app::{tx_file, TxFileOptions};
use radioflow_dvbs2::rx_app::{rx_file_live, RxFileOptions, RxLive};
use radioflow_dvbs2::sync::{SyncConfig, SyncError};
use radioflow_dvbs2::FrameSize;
use radioflow_interop::sigmf;
use radioflow_library::RunFiles;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

#[derive(Args)]
pub(crate) struct Dvbs2Args {
    #[command(subcommand)]
    command: Dvbs2Command,
}

#[derive(Subcommand)]
enum Dvbs2Command {
    /// Encode a TS file into DVB-S2 PLFRAMEs, pulse-shaped, as complex float32 samples.
    Tx(TxArgs),
    /// Receive a cf32 recording into a TS file (MODCOD, frame size and pilots of each frame
    /// read from its PLS code); at 2 samples per symbol, or at another rate through a
    /// resampler.
    Rx(RxArgs),
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

#[derive(Clone, Copy, ValueEnum)]
enum FrameKind {
    Short,
    Normal,
    /// Whatever each frame's PLS code says.
    Any,
}

#[derive(Args)]
struct RxArgs {
    /// Recording of little-endian complex float32 (cf32) samples: a raw file, or a SigMF
    /// recording of datatype cf32_le (X.sigmf-meta, X.sigmf-data or a X.sigmf archive).
    #[arg(long)]
    input: PathBuf,
    /// Output TS file (188-byte packets; those of frames that failed carry TEI).
    #[arg(long)]
    out: PathBuf,
    /// Samples per symbol of the recording: 2, or any rate from 1 + roll-off + 0.05 (1.25 at
    /// roll-off 0.2) to 64, not necessarily whole (e.g. 2.5, 3.37, 1.7), resampled to 2 first
    /// by a polyphase filter bank.
    #[arg(long, default_value_t = 2.0, value_parser = sps_rate, allow_negative_numbers = true)]
    sps: f64,
    /// Decode only frames of this size.
    #[arg(long, value_enum, default_value = "any")]
    frame: FrameKind,
    /// Decode only frames with (on) or without (off) pilots; both when not given.
    #[arg(long, value_enum)]
    pilots: Option<OnOff>,
    /// RRC roll-off of the matched filter: 0.35, 0.25 or 0.2.
    #[arg(long, default_value = "0.2", value_parser = rolloff)]
    rolloff: f64,
    /// PL scrambling Gold code index n (0..=262141).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=262_141))]
    gold: u32,
    /// Cores to plan the pipeline for (stages chosen from a profile of the first samples);
    /// 0 runs everything on one thread. Default: one per CPU.
    #[arg(long, value_parser = clap::value_parser!(u16).range(0..=256))]
    cores: Option<u16>,
    /// Print the per-task profile of the first samples in the form of the seed's Table 3
    /// (throughput normalised to information bits, latency, share of time) and the plan.
    #[arg(long)]
    profile: bool,
    /// Pin the pipeline's stages to CPUs (the longest first, each on the least loaded CPU):
    /// faster on a machine of its own, slower on a busy shared one.
    #[arg(long)]
    pin: bool,
    // The receiver runs framed tasks, not a flowgraph: the live view shows its five tasks
    // (matched filter, timing, frame sync, decode, depacketize) with their counters, and its
    // Stop button ends the run; no probes or parameters.
    #[command(flatten)]
    control: crate::control::ControlArgs,
}

/// `--sps`: a finite number; its range depends on `--rolloff` (checked in [`rx`]).
fn sps_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a number of samples per symbol")),
    }
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
        Dvbs2Command::Rx(a) => rx(a),
    }
}

fn rx(a: RxArgs) -> anyhow::Result<()> {
    let sync = SyncConfig {
        roll_off: a.rolloff,
        samples_per_symbol: a.sps,
        ..SyncConfig::default()
    };
    if let Err(e @ SyncError::SamplesPerSymbol { .. }) = sync.validate() {
        anyhow::bail!("invalid value '{}' for '--sps': {e}", Num(a.sps));
    }
    RunFiles::new()
        .add("--input", &a.input, crate::values::reads(&a.input))
        .add("--out", &a.out, PathUse::Write)
        .check()?;
    let (input, span) = if sigmf::is_sigmf(&a.input) {
        let rec = sigmf::Recording::open(&a.input)?;
        let datatype = rec.meta.global.datatype;
        if datatype != sigmf::Datatype::CF32_LE {
            return Err(sigmf::SigmfError::Field {
                file: rec.meta_file,
                field: "global.core:datatype".into(),
                message: format!("{datatype}: the DVB-S2 receiver reads cf32_le"),
            }
            .into());
        }
        (rec.data_file, Some((rec.data_offset, rec.samples)))
    } else {
        (a.input, None)
    };
    let o = RxFileOptions {
        input,
        sps: a.sps,
        span,
        output: a.out,
        rolloff: a.rolloff,
        gold: a.gold,
        frame: match a.frame {
            FrameKind::Short => Some(FrameSize::Short),
            FrameKind::Normal => Some(FrameSize::Normal),
            FrameKind::Any => None,
        },
        pilots: a.pilots.map(|p| matches!(p, OnOff::On)),
        cores: a.cores.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            usize::from,
        ),
        profile: a.profile,
        pin: a.pin,
    };
    a.control.refuse_probes("dvbs2 rx")?;
    let live = Arc::new(RxLive::default());
    // Ctrl-C and SIGTERM end the run as the end of the input would (the TS file flushed).
    let mut interrupt = Interrupt::catch()?;
    let stop = live.stop.clone();
    interrupt.then(move || stop.store(true, Relaxed));
    // The resampler's task runs only for a recording at another rate than 2.
    let control = a
        .control
        .serve_tasks(rx_tasks(&live, RxLive::first_task(&sync)))?;
    let mut shown = false;
    // The last percent shown (a stream: the last 2^20 samples).
    let mut last_percent = u64::MAX;
    let r = rx_file_live(
        &o,
        |read, total| {
            if total == 0 {
                // A stream, of unknown length: once per 2^20 samples.
                if read >> 20 != last_percent {
                    last_percent = read >> 20;
                    eprint!("\r  {read} samples");
                    std::io::stderr().flush().ok();
                    shown = true;
                }
                return;
            }
            let percent = 100 * read / total;
            // Long inputs only (more than a few blocks of input), once per percent.
            if total > 1 << 21 && percent != last_percent {
                last_percent = percent;
                eprint!("\r  {percent:3}%  {read} of {total} samples");
                std::io::stderr().flush().ok();
                shown = true;
            }
        },
        live.clone(),
    )?;
    drop(control);
    if shown {
        eprintln!();
    }
    if interrupt.caught() {
        println!("stopped by a signal after {} samples", r.samples);
    } else if live.stop.load(Relaxed) {
        println!("stopped from the live view after {} samples", r.samples);
    }
    if let Some(p) = r.profile.as_ref().filter(|_| a.profile) {
        println!(
            "profile of the first {} samples (one thread), Table 3 of the seed:",
            p.samples
        );
        println!("{}", p.table());
    }
    println!(
        "lock: {}",
        if r.locked {
            "locked at the end"
        } else if r.frames > 0 {
            "lost at the end"
        } else {
            "never (no PLFRAME found)"
        }
    );
    if let Some((modcod, frame, pilots)) = r.last_modcod {
        println!(
            "MODCOD: {modcod}, {} frames, pilots {}; Es/N0 {:.1} dB (estimated from the frames)",
            match frame {
                FrameSize::Short => "short",
                FrameSize::Normal => "normal",
            },
            if pilots { "on" } else { "off" },
            r.esn0_db.unwrap_or(f32::NAN)
        );
    }
    println!(
        "frames: {} synchronised, {} decoded, {} failed{}; {} TS packets to {}",
        r.frames,
        r.decoded,
        r.failed,
        if r.skipped > 0 {
            format!(
                ", {} skipped (not the --frame/--pilots asked for)",
                r.skipped
            )
        } else {
            String::new()
        },
        r.packets,
        o.output.display()
    );
    println!(
        "{} samples in {:.2} s: {:.2} Msamples/s, {:.1} Mb/s of information",
        r.samples,
        r.seconds,
        r.samples as f64 / r.seconds.max(1e-9) / 1e6,
        r.info_bits as f64 / r.seconds.max(1e-9) / 1e6
    );
    Ok(())
}

fn tx(a: TxArgs) -> anyhow::Result<()> {
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        usize::from,
    );
    RunFiles::new()
        .add("--input", &a.input, PathUse::Read)
        .add("--out", &a.out, PathUse::Write)
        .check()?;
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

/// The receiver's framed tasks from `RxLive::TASKS[first]` on as the live view's tasks, each
/// handing its output to the next.
fn rx_tasks(live: &Arc<RxLive>, first: usize) -> Tasks {
    let read = live.clone();
    Tasks {
        names: RxLive::TASKS[first..]
            .iter()
            .map(|t| (*t).to_owned())
            .collect(),
        edges: RxLive::EDGES[first..]
            .iter()
            .enumerate()
            .map(|(i, what)| (i, i + 1, (*what).to_owned()))
            .collect(),
        read: Arc::new(move |out| {
            for (s, t) in out.iter_mut().zip(&read.tasks[first..]) {
                s.work_calls = t.calls.load(Relaxed);
                s.items_consumed = t.items_in.load(Relaxed);
                s.items_produced = t.items_out.load(Relaxed);
                s.work_ns = t.busy_ns.load(Relaxed);
            }
        }),
        stop: Some(live.stop.clone()),
    }
}
