//! `radioflow dvbs2 rx`: a cf32 recording (2 samples per symbol, or any rate the receiver
//! resamples from; a raw file, a SigMF recording or a stream) to a TS file, through the framed
//! receiver ([`run_rx`]): stages chosen by `plan` from a profile of the first samples,
//! decoding duplicated over the cores; the live view shows its tasks.

use crate::interrupt::Interrupt;
use clap::{Args, ValueEnum};
use radioflow_blocks::dsp::Num;
use radioflow_blocks::runtime::registry::PathUse;
use radioflow_control::Tasks;
use radioflow_dvbs2::framed::{
    calibrate, calibration_samples, run_rx, RxLive, RxProfile, RxRun, RxRunError, CALIBRATION,
};
use radioflow_dvbs2::rx::sync::{SyncConfig, SyncError};
use radioflow_dvbs2::rx::FrameFilter;
use radioflow_dvbs2::{FrameSize, RxStats};
use radioflow_interop::sigmf;
use radioflow_library::RunFiles;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Instant;

use super::args::{rolloff, OnOff};

/// What to receive.
#[derive(Clone, Debug)]
pub(crate) struct RxFileOptions {
    /// The recording: little-endian complex float32 at `sps` samples per symbol.
    pub(crate) input: PathBuf,
    /// Samples per symbol of the recording: 2, or any rate in
    /// [`SyncConfig::min_samples_per_symbol`]`..=`[`SyncConfig::MAX_SAMPLES_PER_SYMBOL`]
    /// (resampled to 2 first).
    pub(crate) sps: f64,
    /// The TS file to write.
    pub(crate) output: PathBuf,
    /// RRC roll-off of the matched filter: 0.35, 0.25 or 0.2.
    pub(crate) rolloff: f64,
    /// PL scrambling Gold code index.
    pub(crate) gold: u32,
    /// Decode only frames of this size (the PLS code of each frame says which it is);
    /// `None`: every frame.
    pub(crate) frame: Option<FrameSize>,
    /// Decode only frames with (true) or without (false) pilots; `None`: every frame.
    pub(crate) pilots: Option<bool>,
    /// Cores to plan the stages for; 0: one sequence on the calling thread.
    pub(crate) cores: usize,
    /// Profile the first samples even when `cores` is 0 (for the Table 3 report).
    pub(crate) profile: bool,
    /// Pin the pipeline's stages to CPUs (see [`RxRun::pin`]).
    pub(crate) pin: bool,
    /// Where the samples are in `input`: (byte offset, sample count); `None`: the whole file.
    /// For a recording inside a container (a SigMF archive's data).
    pub(crate) span: Option<(u64, u64)>,
}

/// Why the receiver could not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RxFileError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The recording is not whole complex float32 samples.
    #[error("{}: {len} bytes is not a whole number of cf32 samples (8 bytes each)", path.display())]
    Partial {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
    /// A setting is refused.
    #[error("{0}")]
    Setting(String),
}

/// What a receiver run did, and the calibration's profile and plan (when `cores` ≥ 1 or
/// `profile`).
#[derive(Clone, Debug)]
pub(crate) struct Received {
    /// The counts; `seconds` is the wall time with the calibration.
    pub(crate) stats: RxStats,
    /// The calibration.
    pub(crate) profile: Option<RxProfile>,
}

fn file_error(path: &Path) -> impl Fn(std::io::Error) -> RxFileError + '_ {
    move |source| RxFileError::File {
        path: path.to_owned(),
        source,
    }
}

/// The recording as it is read: samples, and how many (`None`: a stream).
type Input = (Box<dyn Read + Send>, Option<u64>);

/// Opens the recording: a readable file of whole cf32 samples, or `span` (byte offset,
/// samples) of it, or a stream (a FIFO, a character device: read as it comes, once, until
/// it ends); returns the reader of exactly those samples and their count (`None` for a
/// stream).
fn open_input(path: &Path, span: Option<(u64, u64)>) -> Result<Input, RxFileError> {
    let meta = std::fs::metadata(path).map_err(file_error(path))?;
    if meta.is_dir() {
        return Err(file_error(path)(std::io::Error::other(
            "a directory, not a file",
        )));
    }
    let kind = meta.file_type();
    if span.is_none() && (kind.is_fifo() || kind.is_char_device() || kind.is_socket()) {
        let f = std::fs::File::open(path).map_err(file_error(path))?;
        return Ok((Box::new(f), None));
    }
    let (offset, samples) = match span {
        Some(span) => span,
        None if meta.len() % 8 != 0 => {
            return Err(RxFileError::Partial {
                path: path.to_owned(),
                len: meta.len(),
            })
        }
        None => (0, meta.len() / 8),
    };
    let mut f = std::fs::File::open(path).map_err(file_error(path))?;
    f.seek(SeekFrom::Start(offset)).map_err(file_error(path))?;
    Ok((Box::new(f.take(samples * 8)), Some(samples)))
}

/// [`rx_file_live`] without a live view.
#[cfg(test)]
fn rx_file(
    opts: &RxFileOptions,
    progress: impl FnMut(u64, u64) + Send,
) -> Result<Received, RxFileError> {
    rx_file_live(opts, progress, Arc::new(RxLive::default()))
}

/// Receives `opts.input` into `opts.output`, calling `progress(samples read, total)` as the
/// input is read (`total` 0: a stream, a FIFO or a device read until it ends), counting each
/// task's work into `live` as it runs and ending early (as if the input ended there) when its
/// flag is set. With `opts.cores` ≥ 1 the stages come from `plan` on a profile of the first
/// samples ([`calibrate`]); with 0 everything runs as one sequence on this thread.
///
/// # Errors
/// An unreadable or partial input, an unwritable output, a bad rate, roll-off or Gold code.
pub(crate) fn rx_file_live(
    opts: &RxFileOptions,
    mut progress: impl FnMut(u64, u64) + Send,
    live: Arc<RxLive>,
) -> Result<Received, RxFileError> {
    let run = RxRun {
        sync: SyncConfig {
            roll_off: opts.rolloff,
            gold: opts.gold,
            samples_per_symbol: opts.sps,
            ..SyncConfig::default()
        },
        filter: FrameFilter {
            frame: opts.frame,
            pilots: opts.pilots,
        },
        cores: opts.cores,
        pin: opts.pin,
    };
    // Settings first: a bad one is named before any file is touched.
    run.sync
        .validate()
        .map_err(|e| RxFileError::Setting(e.to_string()))?;
    let (mut input, total) = open_input(&opts.input, opts.span)?;
    let started = Instant::now();
    let calibration = if !(opts.cores > 0 || opts.profile) {
        None
    } else if total.is_some() {
        let (head, _) = open_input(&opts.input, opts.span)?;
        Some(calibrate(&run, head, opts.cores.max(1)).map_err(|e| run_error(e, opts))?)
    } else {
        // A stream is read once: its first samples are kept for the profile (at most
        // CALIBRATION of them: a stream at many samples per symbol gets a shorter profile),
        // then received again from memory.
        let want = calibration_samples(&run.sync).min(CALIBRATION as u64) * 8;
        let mut head = Vec::new();
        (&mut input)
            .take(want)
            .read_to_end(&mut head)
            .map_err(file_error(&opts.input))?;
        let profile = calibrate(&run, std::io::Cursor::new(head.clone()), opts.cores.max(1))
            .map_err(|e| run_error(e, opts))?;
        input = Box::new(std::io::Cursor::new(head).chain(input));
        Some(profile)
    };
    let total = total.unwrap_or(0);
    let out = std::fs::File::create(&opts.output).map_err(file_error(&opts.output))?;
    let mut last = u64::MAX;
    let mut stats = run_rx(
        &run,
        input,
        std::io::BufWriter::with_capacity(1 << 16, out),
        calibration.as_ref(),
        live,
        |read| {
            // Once per 2^20 samples read, and at the end.
            if read >> 20 != last >> 20 || (read == total && last != total) {
                last = read;
                progress(read, total);
            }
        },
    )
    .map_err(|e| run_error(e, opts))?;
    stats.seconds = started.elapsed().as_secs_f64();
    Ok(Received {
        stats,
        profile: calibration,
    })
}

/// Names the file an I/O error of a run is about.
fn run_error(e: RxRunError, opts: &RxFileOptions) -> RxFileError {
    match e {
        RxRunError::Io { what, source } => {
            let path = if what == "reading the input" {
                &opts.input
            } else {
                &opts.output
            };
            file_error(path)(source)
        }
        RxRunError::Partial(carry) => match std::fs::metadata(&opts.input) {
            Ok(m) if m.is_file() => RxFileError::Partial {
                path: opts.input.clone(),
                len: m.len(),
            },
            // A stream: what was left at its end.
            _ => file_error(&opts.input)(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                RxRunError::Partial(carry).to_string(),
            )),
        },
        e => RxFileError::Setting(e.to_string()),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum FrameKind {
    Short,
    Normal,
    /// Whatever each frame's PLS code says.
    Any,
}

#[derive(Args)]
pub(super) struct RxArgs {
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
    /// Print the per-task profile of the first samples in the form of Table 3 of Cassagne et
    /// al. 2023 (throughput normalised to information bits, latency, share of time) and the
    /// plan.
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

/// `--sps`: a finite number; its range depends on `--rolloff` (checked in [`run`]).
fn sps_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a number of samples per symbol")),
    }
}

/// `radioflow dvbs2 rx`.
pub(super) fn run(a: RxArgs) -> anyhow::Result<()> {
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
    let Received { stats: r, profile } = r;
    drop(control);
    if shown {
        eprintln!();
    }
    if interrupt.caught() {
        println!("stopped by a signal after {} samples", r.samples);
    } else if live.stop.load(Relaxed) {
        println!("stopped from the live view after {} samples", r.samples);
    }
    if let Some(p) = profile.as_ref().filter(|_| a.profile) {
        println!(
            "profile of the first {} samples (one thread), Table 3 of Cassagne et al. 2023:",
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

#[cfg(test)]
mod tests {
    use super::super::tx::{tx_file, TxFileOptions};
    use super::*;
    use radioflow_dvbs2::framed::TaskCounters;

    /// `n` TS packets with a counter in their payload (PID 0x100).
    fn ts(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| {
                let mut p = vec![0u8; 188];
                p[..4].copy_from_slice(&[0x47, 0x01, 0x00, 0x10 | (i % 16) as u8]);
                p[4..8].copy_from_slice(&(i as u32).to_be_bytes());
                for (j, b) in p[8..].iter_mut().enumerate() {
                    *b = (i * 7 + j) as u8;
                }
                p
            })
            .collect()
    }

    #[test]
    fn what_the_transmitter_writes_the_receiver_reads_back_after_lock() {
        let dir = tempfile::tempdir().unwrap();
        let (ts_in, iq, ts_out) = (
            dir.path().join("in.ts"),
            dir.path().join("x.cf32"),
            dir.path().join("out.ts"),
        );
        let input = ts(400);
        std::fs::write(&ts_in, &input).unwrap();
        tx_file(&TxFileOptions {
            input: ts_in,
            output: iq.clone(),
            modcod: "qpsk-8/9".into(),
            frame: "short".into(),
            pilots: true,
            rolloff: 0.2,
            sps: 2,
            rrc: true,
            gold: 0,
            schedule: None,
            threads: 0,
        })
        .unwrap();
        let mut calls = 0;
        let mut opts = RxFileOptions {
            input: iq,
            sps: 2.0,
            output: ts_out.clone(),
            rolloff: 0.2,
            gold: 0,
            frame: Some(FrameSize::Short),
            pilots: Some(true),
            cores: 2,
            profile: false,
            pin: false,
            span: None,
        };
        let report = rx_file(&opts, |read, total| {
            assert!(read <= total);
            calls += 1;
        })
        .unwrap();
        assert!(calls > 0);
        let got = std::fs::read(&ts_out).unwrap();
        assert_eq!(got.len() % 188, 0);
        // After lock every packet is the transmitter's, in order, none lost: the output is
        // a contiguous run of the input (the first frames go to acquisition).
        let first = got
            .get(4..8)
            .map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize);
        let first = first.expect("packets decoded");
        let n = got.len() / 188;
        assert_eq!(
            got[..],
            input[first * 188..(first + n) * 188],
            "packets {first}..{}",
            first + n
        );
        assert!(n >= 300, "only {n} of 400 packets after lock");
        assert_eq!(report.stats.failed, 0);
        assert!(report.stats.decoded >= 30);
        assert_eq!(report.stats.skipped, 0);
        assert_eq!(
            report.stats.last_modcod.map(|m| m.0.to_string()).as_deref(),
            Some("qpsk-8/9")
        );

        // The plan's pipeline and one sequence on this thread write the same packets.
        let plan = report.profile.as_ref().expect("calibrated for 2 cores");
        assert!(plan.plan.stages.len() > 1, "{:?}", plan.plan);
        assert!(plan.table().contains("frame_sync"));
        opts.cores = 0;
        let sequential = rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(std::fs::read(&ts_out).unwrap(), got);
        assert_eq!(
            (
                sequential.stats.frames,
                sequential.stats.decoded,
                sequential.stats.packets
            ),
            (
                report.stats.frames,
                report.stats.decoded,
                report.stats.packets
            )
        );
        assert!(sequential.profile.is_none());

        // The live counters: every sample through the first task, every packet out of the
        // last; a stop flag set before the start ends the run at once, without an error.
        let live = Arc::new(RxLive::default());
        let again = rx_file_live(&opts, |_, _| {}, live.clone()).unwrap();
        let n = |t: usize, f: fn(&TaskCounters) -> &std::sync::atomic::AtomicU64| {
            f(&live.tasks[t]).load(std::sync::atomic::Ordering::Relaxed)
        };
        assert_eq!(
            n(0, |c| &c.calls),
            0,
            "no resampler at 2 samples per symbol"
        );
        assert_eq!(n(1, |c| &c.items_in), again.stats.samples);
        assert_eq!(
            n(4, |c| &c.items_in),
            again.stats.decoded + again.stats.failed
        );
        assert_eq!(n(5, |c| &c.items_out), again.stats.packets);
        assert!(n(2, |c| &c.busy_ns) > 0);
        let stopped = Arc::new(RxLive::default());
        stopped
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let r = rx_file_live(&opts, |_, _| {}, stopped).unwrap();
        assert_eq!((r.stats.samples, r.stats.packets), (0, 0));

        // Pinned stages: the same packets.
        opts.cores = 2;
        opts.pin = true;
        rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(std::fs::read(&ts_out).unwrap(), got);
        opts.pin = false;

        // Asked for normal frames only: every frame is synchronised, none decoded.
        opts.frame = Some(FrameSize::Normal);
        let only_normal = rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(only_normal.stats.frames, report.stats.frames);
        assert_eq!(only_normal.stats.skipped, report.stats.frames);
        assert_eq!(
            (only_normal.stats.decoded, only_normal.stats.packets),
            (0, 0)
        );
    }

    #[test]
    fn bad_inputs_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("odd.cf32");
        std::fs::write(&odd, [0u8; 12]).unwrap();
        let opts = |input: PathBuf| RxFileOptions {
            input,
            sps: 2.0,
            output: dir.path().join("o.ts"),
            rolloff: 0.2,
            gold: 0,
            frame: None,
            pilots: None,
            cores: 1,
            profile: false,
            pin: false,
            span: None,
        };
        let e = rx_file(&opts(odd), |_, _| {}).unwrap_err();
        assert!(
            e.to_string()
                .contains("12 bytes is not a whole number of cf32 samples"),
            "{e}"
        );
        let e = rx_file(&opts(dir.path().join("missing.cf32")), |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("missing.cf32"), "{e}");
        let mut bad = opts(dir.path().join("odd.cf32"));
        bad.rolloff = 2.0;
        assert!(rx_file(&bad, |_, _| {})
            .unwrap_err()
            .to_string()
            .contains("roll-off"));
        let mut bad = opts(dir.path().join("odd.cf32"));
        bad.sps = 1.0;
        let e = rx_file(&bad, |_, _| {}).unwrap_err().to_string();
        assert!(e.contains("1 samples per symbol out of range"), "{e}");
    }

    #[test]
    fn a_recording_at_another_rate_is_resampled_first() {
        let dir = tempfile::tempdir().unwrap();
        let (ts_in, iq, ts_out) = (
            dir.path().join("in.ts"),
            dir.path().join("x.cf32"),
            dir.path().join("out.ts"),
        );
        let input = ts(300);
        std::fs::write(&ts_in, &input).unwrap();
        tx_file(&TxFileOptions {
            input: ts_in,
            output: iq.clone(),
            modcod: "qpsk-8/9".into(),
            frame: "short".into(),
            pilots: true,
            rolloff: 0.2,
            sps: 5,
            rrc: true,
            gold: 0,
            schedule: None,
            threads: 0,
        })
        .unwrap();
        // Every other sample: 2.5 samples per symbol (the band, 0.6 symbol rates, is below
        // the new Nyquist frequency, 1.25).
        let at5 = std::fs::read(&iq).unwrap();
        let at25: Vec<u8> = at5
            .chunks_exact(16)
            .flat_map(|c| &c[..8])
            .copied()
            .collect();
        std::fs::write(&iq, &at25).unwrap();
        let mut opts = RxFileOptions {
            input: iq,
            sps: 2.5,
            output: ts_out.clone(),
            rolloff: 0.2,
            gold: 0,
            frame: None,
            pilots: None,
            cores: 2,
            profile: false,
            pin: false,
            span: None,
        };
        let live = Arc::new(RxLive::default());
        let report = rx_file_live(&opts, |_, _| {}, live.clone()).unwrap();
        let got = std::fs::read(&ts_out).unwrap();
        let n = got.len() / 188;
        let first = u32::from_be_bytes(got[4..8].try_into().unwrap()) as usize;
        assert_eq!(got[..], input[first * 188..(first + n) * 188]);
        assert!(n >= 200, "only {n} of 300 packets after lock");
        assert_eq!(report.stats.failed, 0);
        let plan = report.profile.as_ref().expect("calibrated for 2 cores");
        assert!(plan.table().contains("resample"), "{}", plan.table());
        assert_eq!(
            plan.samples, report.stats.samples,
            "a short input: all of it profiled"
        );
        // The resampler reads the input, 4 samples out per 5 in.
        let tasks = &live.tasks;
        let count = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(count(&tasks[0].items_in), report.stats.samples);
        let out = count(&tasks[0].items_out) as f64;
        assert!(
            (out / report.stats.samples as f64 - 0.8).abs() < 1e-3,
            "{out}"
        );
        assert_eq!(count(&tasks[1].items_in), count(&tasks[0].items_out));

        // One sequence on this thread: the same packets.
        opts.cores = 0;
        let sequential = rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(std::fs::read(&ts_out).unwrap(), got);
        assert_eq!(sequential.stats.decoded, report.stats.decoded);
    }
}
