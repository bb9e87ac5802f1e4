//! `radioflow dvbs2 tx`: a TS file to a cf32 file through the framed transmitter
//! ([`run_tx`]), with errors that name the option, file or packet at fault.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

use clap::{Args, ValueEnum};
use radioflow_blocks::runtime::registry::PathUse;
use radioflow_dvbs2::framed::{run_tx, TxRun, TxRunError, TxStats};
use radioflow_dvbs2::{
    FrameSize, InputStream, Modcod, ModcodError, RollOff, Schedule, Shaping, TxConfig, TxError,
};
use radioflow_library::RunFiles;

use super::args::{rolloff, OnOff};

/// The options of `radioflow dvbs2 tx`, as text where the user typed text.
#[derive(Debug, Clone)]
pub(crate) struct TxFileOptions {
    /// TS file (whole 188-byte packets starting with 0x47).
    pub(crate) input: PathBuf,
    /// Output file of little-endian complex float32 samples.
    pub(crate) output: PathBuf,
    /// MODCOD, e.g. `qpsk-8/9`.
    pub(crate) modcod: String,
    /// `short` or `normal`.
    pub(crate) frame: String,
    /// Pilots on.
    pub(crate) pilots: bool,
    /// Roll-off: 0.35, 0.25 or 0.2.
    pub(crate) rolloff: f64,
    /// Samples per symbol.
    pub(crate) sps: usize,
    /// RRC shaping (false: one symbol, then `sps − 1` zeros).
    pub(crate) rrc: bool,
    /// PL scrambling Gold code index.
    pub(crate) gold: u32,
    /// VCM schedule `INDEX:MODCOD[:FRAME[:PILOTS]],...` (signals ACM/VCM in MATYPE).
    pub(crate) schedule: Option<String>,
    /// Encoder threads (0: everything on the calling thread).
    pub(crate) threads: usize,
}

/// Why `radioflow dvbs2 tx` failed.
#[derive(Debug, Error)]
pub(crate) enum TxFileError {
    /// The MODCOD text is not one of the 28.
    #[error("unknown MODCOD {given:?} ({why}); valid MODCODs: {valid}")]
    UnknownModcod {
        /// What was given.
        given: String,
        /// The parser's reason.
        why: ModcodError,
        /// The 28 valid names.
        valid: String,
    },
    /// Bad `--frame`, MODCOD/frame pair, roll-off, sps or schedule.
    #[error("{0}")]
    Settings(String),
    /// The input cannot be opened or read.
    #[error("input {path}: {source}")]
    Input {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The input is not a TS file.
    #[error("input {path}: {why}")]
    NotTs {
        /// The file.
        path: PathBuf,
        /// Which packet/offset is wrong.
        why: String,
    },
    /// The output cannot be created.
    #[error("output {path}: {source}")]
    Output {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The run failed.
    #[error(transparent)]
    Run(#[from] TxRunError),
}

/// The 28 MODCOD names, space separated.
fn valid_modcods() -> String {
    Modcod::all()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses `s` as a MODCOD, with the list of valid ones in the error.
///
/// # Errors
/// [`TxFileError::UnknownModcod`].
pub(crate) fn parse_modcod(s: &str) -> Result<Modcod, TxFileError> {
    s.parse().map_err(|why| TxFileError::UnknownModcod {
        given: s.to_string(),
        why,
        valid: valid_modcods(),
    })
}

/// Checks that `path` holds whole 188-byte packets each starting with 0x47.
///
/// # Errors
/// [`TxFileError::Input`] (missing, unreadable) or [`TxFileError::NotTs`] naming the packet and
/// byte offset at fault.
pub(crate) fn check_ts_file(path: &Path) -> Result<u64, TxFileError> {
    let io = |source| TxFileError::Input {
        path: path.to_path_buf(),
        source,
    };
    let not_ts = |why: String| TxFileError::NotTs {
        path: path.to_path_buf(),
        why,
    };
    let mut f = File::open(path).map_err(io)?;
    let mut buf = vec![0u8; 188 * 4096];
    let mut total = 0u64;
    loop {
        // Fill whole packets where the file allows, so packet starts stay at multiples of 188.
        let mut n = 0;
        while n < buf.len() {
            match f.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io(e)),
            }
        }
        for (k, &b) in buf[..n].iter().step_by(188).enumerate() {
            if b != 0x47 {
                let offset = total + (k * 188) as u64;
                return Err(not_ts(format!(
                    "TS packet {} (byte offset {offset}) starts with {b:#04x}, not the sync byte 0x47",
                    offset / 188
                )));
            }
        }
        total += n as u64;
        if n < buf.len() {
            break;
        }
    }
    if total == 0 {
        return Err(not_ts("the file is empty: no TS packets".into()));
    }
    if !total.is_multiple_of(188) {
        return Err(not_ts(format!(
            "{total} bytes is not a whole number of 188-byte TS packets: {} bytes of an \
             incomplete packet {} at byte offset {}",
            total % 188,
            total / 188,
            total - total % 188
        )));
    }
    Ok(total)
}

/// Checks the options and builds what [`run_tx`] runs.
///
/// # Errors
/// Unknown MODCOD, bad frame size, undefined MODCOD/frame pair, roll-off, sps, schedule.
pub(crate) fn tx_run(o: &TxFileOptions) -> Result<TxRun, TxFileError> {
    let modcod = parse_modcod(&o.modcod)?;
    let frame: FrameSize = o
        .frame
        .parse()
        .map_err(|e: ModcodError| TxFileError::Settings(format!("--frame: {e}")))?;
    modcod.fec(frame).map_err(|e| {
        TxFileError::Settings(format!("--modcod {modcod} --frame {}: {e}", o.frame))
    })?;
    let roll_off = match o.rolloff {
        r if (r - 0.35).abs() < 1e-9 => RollOff::R035,
        r if (r - 0.25).abs() < 1e-9 => RollOff::R025,
        r if (r - 0.20).abs() < 1e-9 => RollOff::R020,
        r => {
            return Err(TxFileError::Settings(format!(
                "--rolloff {}: DVB-S2 defines 0.35, 0.25 and 0.2",
                radioflow_blocks::dsp::Num(r)
            )))
        }
    };
    if o.sps == 0 {
        return Err(TxFileError::Settings("--sps must be at least 1".into()));
    }
    if o.rrc && o.sps < 2 {
        return Err(TxFileError::Settings(format!(
            "--sps {}: RRC shaping needs at least 2 samples per symbol; use --shaping none \
             for one unshaped symbol per sample",
            o.sps
        )));
    }
    let schedule = match &o.schedule {
        Some(s) => Schedule::parse(s, frame, o.pilots)
            .map_err(|e| TxFileError::Settings(format!("--schedule: {e}")))?,
        None => Schedule::default(),
    };
    if o.gold > 262_141 {
        return Err(TxFileError::Settings(format!(
            "--gold {}: {}",
            o.gold,
            TxError::Gold(o.gold)
        )));
    }
    let tx = TxConfig {
        modcod,
        frame,
        pilots: o.pilots,
        roll_off,
        gold: o.gold,
        stream: InputStream::Transport,
        ccm: schedule.is_empty(),
    };
    let shaping = if o.rrc {
        Shaping::rrc(roll_off, o.sps)
    } else {
        Shaping::None { sps: o.sps }
    };
    Ok(TxRun {
        tx,
        shaping,
        schedule,
        encoders: o.threads,
    })
}

/// Encodes the TS file `o.input` into `o.output`. A FIFO or a device (a stream, which
/// cannot be read twice) is encoded as it comes, each packet checked as it is read.
///
/// # Errors
/// See [`TxFileError`]: every option and the input are checked before the output is created
/// (a stream's packets: as they are read).
pub(crate) fn tx_file(o: &TxFileOptions) -> Result<TxStats, TxFileError> {
    let run = tx_run(o)?;
    let input_error = |source| TxFileError::Input {
        path: o.input.clone(),
        source,
    };
    if std::fs::metadata(&o.input).map_err(input_error)?.is_file() {
        check_ts_file(&o.input)?;
    }
    let input = File::open(&o.input).map_err(input_error)?;
    let output = File::create(&o.output).map_err(|source| TxFileError::Output {
        path: o.output.clone(),
        source,
    })?;
    run_tx(&run, input, output).map_err(|e| match e {
        // Only a stream gets here with a bad packet: name it as the check would.
        TxRunError::Tx(TxError::TsSync(e)) => TxFileError::NotTs {
            path: o.input.clone(),
            why: e.to_string(),
        },
        TxRunError::Io {
            what: "reading the input",
            source,
        } => input_error(source),
        e => e.into(),
    })
}

#[derive(Clone, Copy, ValueEnum)]
enum ShapingKind {
    /// Root-raised-cosine (clause 5.6) at --sps samples per symbol.
    Rrc,
    /// No filter: each symbol then sps-1 zeros (--sps 1: one complex value per symbol).
    None,
}

#[derive(Args)]
pub(super) struct TxArgs {
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

/// `radioflow dvbs2 tx`.
pub(super) fn run(a: TxArgs) -> anyhow::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(dir: &Path, input: &[u8]) -> TxFileOptions {
        let path = dir.join("in.ts");
        std::fs::write(&path, input).unwrap();
        TxFileOptions {
            input: path,
            output: dir.join("out.cf32"),
            modcod: "qpsk-8/9".into(),
            frame: "short".into(),
            pilots: true,
            rolloff: 0.2,
            sps: 2,
            rrc: true,
            gold: 0,
            schedule: None,
            threads: 2,
        }
    }

    fn ts(n: usize) -> Vec<u8> {
        (0..n * 188)
            .map(|i| if i % 188 == 0 { 0x47 } else { (i / 3) as u8 })
            .collect()
    }

    fn err(o: &TxFileOptions) -> String {
        tx_file(o).unwrap_err().to_string()
    }

    #[test]
    fn writes_shaped_frames_of_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let o = opts(dir.path(), &ts(19)); // 3572 bytes: 2 frames of 1769 and a padded one
        let stats = tx_file(&o).unwrap();
        assert_eq!(stats.frames, 3);
        assert_eq!(stats.input_bytes, 19 * 188);
        let len = std::fs::metadata(&o.output).unwrap().len();
        // The frames, then the RRC filter's tail (±10 symbols at 2 samples each).
        assert_eq!(len, (3 * 8370 * 2 + 40) * 8);
        let o1 = TxFileOptions {
            sps: 1,
            rrc: false,
            threads: 0,
            ..o.clone()
        };
        tx_file(&o1).unwrap();
        assert_eq!(std::fs::metadata(&o.output).unwrap().len(), 3 * 8370 * 8);
    }

    #[test]
    fn errors_name_the_option_packet_or_file_at_fault() {
        let dir = tempfile::tempdir().unwrap();
        let o = opts(dir.path(), &ts(4));
        let e = err(&TxFileOptions {
            modcod: "qpsk-7/8".into(),
            ..o.clone()
        });
        assert!(e.contains("unknown MODCOD \"qpsk-7/8\""), "{e}");
        assert!(e.contains("qpsk-1/4") && e.contains("32apsk-9/10"), "{e}");
        let e = err(&TxFileOptions {
            modcod: "qpsk-9/10".into(),
            ..o.clone()
        });
        assert!(e.contains("--modcod qpsk-9/10 --frame short"), "{e}");
        assert!(e.contains("not defined for short FECFRAMEs"), "{e}");
        let e = err(&TxFileOptions {
            frame: "medium".into(),
            ..o.clone()
        });
        assert!(e.contains("--frame") && e.contains("medium"), "{e}");
        let e = err(&TxFileOptions {
            rolloff: 0.3,
            ..o.clone()
        });
        assert!(e.contains("--rolloff 0.3"), "{e}");
        let e = err(&TxFileOptions {
            sps: 1,
            ..o.clone()
        });
        assert!(e.contains("--shaping none"), "{e}");
        let e = err(&TxFileOptions {
            input: dir.path().join("missing.ts"),
            ..o.clone()
        });
        assert!(
            e.contains("missing.ts") && e.contains("No such file"),
            "{e}"
        );

        let mut bad = ts(5);
        bad[3 * 188] = 0x00;
        let o2 = opts(dir.path(), &bad);
        let e = err(&o2);
        assert!(
            e.contains("in.ts") && e.contains("TS packet 3 (byte offset 564) starts with 0x00"),
            "{e}"
        );
        let o3 = opts(dir.path(), &ts(5)[..5 * 188 - 8]);
        let e = err(&o3);
        assert!(
            e.contains("932 bytes is not a whole number")
                && e.contains("180 bytes of an incomplete packet 4 at byte offset 752"),
            "{e}"
        );
        let e = err(&opts(dir.path(), &[]));
        assert!(e.contains("empty"), "{e}");
        let e = err(&TxFileOptions {
            schedule: Some("10:qpsk-9/10".into()),
            ..o
        });
        assert!(e.contains("--schedule"), "{e}");
    }
}
