//! `radioflow dvbs2 rx`: a cf32 recording (2 samples per symbol, or any rate the receiver
//! resamples from) to a TS file, through the framed receiver ([`crate::framed_rx`]): stages
//! chosen by `plan` from a profile of the first samples, decoding duplicated over the cores.

pub use crate::framed_rx::{RxLive, TaskCounters};

use crate::framed_rx::{
    calibrate, calibration_samples, run_rx, RxProfile, RxRun, RxRunError, CALIBRATION,
};
use crate::sync::SyncConfig;
use crate::{FrameSize, Modcod};
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What to receive.
#[derive(Clone, Debug)]
pub struct RxFileOptions {
    /// The recording: little-endian complex float32 at `sps` samples per symbol.
    pub input: PathBuf,
    /// Samples per symbol of the recording: 2, or any rate in
    /// [`SyncConfig::min_samples_per_symbol`]`..=`[`SyncConfig::MAX_SAMPLES_PER_SYMBOL`]
    /// (resampled to 2 first).
    pub sps: f64,
    /// The TS file to write.
    pub output: PathBuf,
    /// RRC roll-off of the matched filter: 0.35, 0.25 or 0.2.
    pub rolloff: f64,
    /// PL scrambling Gold code index.
    pub gold: u32,
    /// Decode only frames of this size (the PLS code of each frame says which it is);
    /// `None`: every frame.
    pub frame: Option<FrameSize>,
    /// Decode only frames with (true) or without (false) pilots; `None`: every frame.
    pub pilots: Option<bool>,
    /// Cores to plan the stages for; 0: one sequence on the calling thread.
    pub cores: usize,
    /// Profile the first samples even when `cores` is 0 (for the Table 3 report).
    pub profile: bool,
    /// Pin the pipeline's stages to CPUs (see [`RxRun::pin`]).
    pub pin: bool,
    /// Where the samples are in `input`: (byte offset, sample count); `None`: the whole file.
    /// For a recording inside a container (a SigMF archive's data).
    pub span: Option<(u64, u64)>,
}

/// Why the receiver could not run.
#[derive(Debug, thiserror::Error)]
pub enum RxAppError {
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

/// What a receiver run did.
#[derive(Clone, Debug)]
pub struct RxReport {
    /// Input samples.
    pub samples: u64,
    /// PLFRAMEs synchronised.
    pub frames: u64,
    /// Of those, frames decoded (BCH and BBHEADER good).
    pub decoded: u64,
    /// Frames that failed to decode (their packets carry TEI).
    pub failed: u64,
    /// Frames synchronised but left undecoded: not of the `frame`/`pilots` asked for.
    pub skipped: u64,
    /// TS packets written.
    pub packets: u64,
    /// Information bits decoded.
    pub info_bits: u64,
    /// The last frame's MODCOD, frame size and pilots.
    pub last_modcod: Option<(Modcod, FrameSize, bool)>,
    /// The last Es/N0 estimate (dB, smoothed over frames).
    pub esn0_db: Option<f32>,
    /// Whether frame synchronisation held at the end.
    pub locked: bool,
    /// Wall time, seconds (the calibration included).
    pub seconds: f64,
    /// The calibration's profile and plan (when `cores` ≥ 1 or `profile`).
    pub profile: Option<RxProfile>,
}

fn file_error(path: &Path) -> impl Fn(std::io::Error) -> RxAppError + '_ {
    move |source| RxAppError::File {
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
fn open_input(path: &Path, span: Option<(u64, u64)>) -> Result<Input, RxAppError> {
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
            return Err(RxAppError::Partial {
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

/// Receives `opts.input` into `opts.output`, calling `progress(samples read, total)` as the
/// input is read (`total` 0: a stream, a FIFO or a device read until it ends). With
/// `opts.cores` ≥ 1 the stages come from `plan` on a profile of the first samples
/// ([`calibrate`]); with 0 everything runs as one sequence on this thread.
///
/// # Errors
/// An unreadable or partial input, an unwritable output, a bad rate, roll-off or Gold code.
pub fn rx_file(
    opts: &RxFileOptions,
    progress: impl FnMut(u64, u64) + Send,
) -> Result<RxReport, RxAppError> {
    rx_file_live(opts, progress, Arc::new(RxLive::default()))
}

/// As [`rx_file`], counting each task's work into `live` as it runs and ending early (as if
/// the input ended there) when its flag is set.
///
/// # Errors
/// As [`rx_file`].
pub fn rx_file_live(
    opts: &RxFileOptions,
    mut progress: impl FnMut(u64, u64) + Send,
    live: Arc<RxLive>,
) -> Result<RxReport, RxAppError> {
    let run = RxRun {
        sync: SyncConfig {
            roll_off: opts.rolloff,
            gold: opts.gold,
            samples_per_symbol: opts.sps,
            ..SyncConfig::default()
        },
        frame: opts.frame,
        pilots: opts.pilots,
        cores: opts.cores,
        pin: opts.pin,
    };
    // Settings first: a bad one is named before any file is touched.
    run.sync
        .validate()
        .map_err(|e| RxAppError::Setting(e.to_string()))?;
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
    let stats = run_rx(
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
    Ok(RxReport {
        samples: stats.samples,
        frames: stats.frames,
        decoded: stats.decoded,
        failed: stats.failed,
        skipped: stats.skipped,
        packets: stats.packets,
        info_bits: stats.info_bits,
        last_modcod: stats.last_modcod,
        esn0_db: stats.esn0_db,
        locked: stats.locked,
        seconds: started.elapsed().as_secs_f64(),
        profile: calibration,
    })
}

/// Names the file an I/O error of a run is about.
fn run_error(e: RxRunError, opts: &RxFileOptions) -> RxAppError {
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
            Ok(m) if m.is_file() => RxAppError::Partial {
                path: opts.input.clone(),
                len: m.len(),
            },
            // A stream: what was left at its end.
            _ => file_error(&opts.input)(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                RxRunError::Partial(carry).to_string(),
            )),
        },
        e => RxAppError::Setting(e.to_string()),
    }
}

#[cfg(all(test, feature = "framed"))]
mod tests {
    use super::*;
    use crate::app::{tx_file, TxFileOptions};

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
        assert_eq!(report.failed, 0);
        assert!(report.decoded >= 30);
        assert_eq!(report.skipped, 0);
        assert_eq!(
            report.last_modcod.map(|m| m.0.to_string()).as_deref(),
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
            (sequential.frames, sequential.decoded, sequential.packets),
            (report.frames, report.decoded, report.packets)
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
        assert_eq!(n(1, |c| &c.items_in), again.samples);
        assert_eq!(n(4, |c| &c.items_in), again.decoded + again.failed);
        assert_eq!(n(5, |c| &c.items_out), again.packets);
        assert!(n(2, |c| &c.busy_ns) > 0);
        let stopped = Arc::new(RxLive::default());
        stopped
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let r = rx_file_live(&opts, |_, _| {}, stopped).unwrap();
        assert_eq!((r.samples, r.packets), (0, 0));

        // Pinned stages: the same packets.
        opts.cores = 2;
        opts.pin = true;
        rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(std::fs::read(&ts_out).unwrap(), got);
        opts.pin = false;

        // Asked for normal frames only: every frame is synchronised, none decoded.
        opts.frame = Some(FrameSize::Normal);
        let only_normal = rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(only_normal.frames, report.frames);
        assert_eq!(only_normal.skipped, report.frames);
        assert_eq!((only_normal.decoded, only_normal.packets), (0, 0));
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
        assert_eq!(report.failed, 0);
        let plan = report.profile.as_ref().expect("calibrated for 2 cores");
        assert!(plan.table().contains("resample"), "{}", plan.table());
        assert_eq!(
            plan.samples, report.samples,
            "a short input: all of it profiled"
        );
        // The resampler reads the input, 4 samples out per 5 in.
        let tasks = &live.tasks;
        let count = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(count(&tasks[0].items_in), report.samples);
        let out = count(&tasks[0].items_out) as f64;
        assert!((out / report.samples as f64 - 0.8).abs() < 1e-3, "{out}");
        assert_eq!(count(&tasks[1].items_in), count(&tasks[0].items_out));

        // One sequence on this thread: the same packets.
        opts.cores = 0;
        let sequential = rx_file(&opts, |_, _| {}).unwrap();
        assert_eq!(std::fs::read(&ts_out).unwrap(), got);
        assert_eq!(sequential.decoded, report.decoded);
    }
}
