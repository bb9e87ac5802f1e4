//! `radioflow bench dvbs2-rx`: the DVB-S2 receiver (issue 20) on the same cf32 recording
//! through radioflow (`radioflow_dvbs2::framed_rx`, the plan's pipeline or one sequence) and
//! through gr-dvbs2rx's `dvbs2-rx` application (GPLv3, built outside the repository; its
//! install prefix given with `--gr-dvbs2rx` or `GR_DVBS2RX_PREFIX`), alternated run by run.
//! The recording is made by radioflow's transmitter (bit-exact with gr-dtv) from a TS file,
//! RRC roll-off 0.2 at 2 samples per symbol, with white Gaussian noise at the Es/N0 asked
//! for. The figure is Mb/s of TS written (the information delivered) per second of run; both
//! receivers run as a child process on the same file, so both pay their start-up, which is
//! also measured alone on a ten-frame file.

use crate::dvbs2_tx::Dvbs2Case;
use crate::measurement::BenchError;
use crate::stats::{summarize, Summary};
use radioflow_dvbs2::framed_rx::{calibrate, RxProfile, RxRun};
use radioflow_dvbs2::sync::SyncConfig;
use radioflow_dvbs2::{run_tx, FrameSize, RollOff, Schedule, Shaping, TxConfig, TxRun};
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What to measure.
#[derive(Debug, Clone)]
pub struct Dvbs2RxParams {
    /// TS packets carried by the recording.
    pub packets: usize,
    /// Runs per configuration (alternated).
    pub runs: usize,
    /// radioflow cores to plan for (0: one sequence on one thread).
    pub cores: Vec<usize>,
    /// The MODCODs.
    pub cases: Vec<Dvbs2Case>,
    /// Es/N0 of the recording (dB).
    pub esn0_db: f64,
    /// gr-dvbs2rx's install prefix, to compare with.
    pub gr_dvbs2rx: Option<PathBuf>,
    /// The `radioflow` binary that runs the receiver (this one).
    pub radioflow: PathBuf,
}

/// One configuration's runs.
#[derive(Debug, Clone)]
pub struct Dvbs2RxRow {
    /// The MODCOD setting.
    pub case: String,
    /// `radioflow ...` or `gr-dvbs2rx`.
    pub runtime: String,
    /// Mb/s of TS written per run (wall clock of the child process).
    pub mbps: Vec<f64>,
    /// Summary of `mbps`.
    pub summary: Option<Summary>,
    /// TS bytes the run wrote (the same every run).
    pub ts_bytes: u64,
    /// Start-up alone (s): the same command on a ten-frame file.
    pub startup: f64,
    /// Every run's TS was a contiguous run of the transmitted packets (the first frames go
    /// to acquisition), with at least 90 % of them.
    pub verified: bool,
}

/// Whether `got` is a contiguous run of `sent`'s packets (at least 90 % of them).
fn verify(got: &[u8], sent: &[u8]) -> bool {
    if !got.len().is_multiple_of(188) || got.len() < 188 || got.len() * 10 < sent.len() * 9 {
        return false;
    }
    let first = u32::from_be_bytes([got[4], got[5], got[6], got[7]]) as usize;
    sent.get(first * 188..first * 188 + got.len()) == Some(got)
}

/// The TS file: `packets` packets with a counter.
fn ts_bytes(packets: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(packets * 188);
    for p in 0..packets as u32 {
        s.extend_from_slice(&[0x47, 0x01, 0x00, 0x10 | (p % 16) as u8]);
        s.extend_from_slice(&p.to_be_bytes());
        s.extend((8..188u32).map(|j| (p.wrapping_mul(7) ^ j) as u8));
    }
    s
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> BenchError + '_ {
    move |source| BenchError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the recording of `packets` TS packets for `case` with noise at `esn0_db`.
fn write_recording(
    case: &Dvbs2Case,
    packets: usize,
    esn0_db: f64,
    path: &Path,
) -> Result<(), BenchError> {
    let modcod = case
        .modcod
        .parse()
        .map_err(|e| BenchError::Params(format!("dvbs2-rx: {e}")))?;
    let run = TxRun {
        tx: TxConfig::new(modcod, case.frame, case.pilots),
        shaping: Shaping::Rrc {
            roll_off: RollOff::R020,
            sps: 2,
            span: 10,
        },
        schedule: Schedule::default(),
        encoders: 2,
    };
    let file = std::fs::File::create(path).map_err(io_error(path))?;
    run_tx(&run, std::io::Cursor::new(ts_bytes(packets)), file)
        .map_err(|e| BenchError::Params(format!("dvbs2-rx transmitter: {e}")))?;
    let clean = std::fs::read(path).map_err(io_error(path))?;
    // Es = mean sample power × 2 samples per symbol; white noise of complex variance σ²
    // per sample has N0 = σ² (unit sample spacing), so σ² = 2·P / (Es/N0).
    let floats: Vec<f32> = clean
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    let power =
        floats.iter().map(|x| f64::from(x * x)).sum::<f64>() / (floats.len() / 2).max(1) as f64;
    let sigma = (2.0 * power / 10f64.powf(esn0_db / 10.0) / 2.0).sqrt() as f32;
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    let mut gauss = move || {
        // Box–Muller: a test signal's noise, not a hot path.
        let (u1, u2): (f32, f32) = (rng.gen_range(f32::EPSILON..1.0), rng.gen());
        let r = (-2.0 * u1.ln()).sqrt();
        let t = std::f32::consts::TAU * u2;
        (r * t.cos(), r * t.sin())
    };
    let mut out = Vec::with_capacity(clean.len());
    for c in clean.chunks_exact(8) {
        let re = f32::from_le_bytes(c[..4].try_into().expect("4 bytes"));
        let im = f32::from_le_bytes(c[4..].try_into().expect("4 bytes"));
        let (a, b) = gauss();
        out.extend_from_slice(&(re + sigma * a).to_le_bytes());
        out.extend_from_slice(&(im + sigma * b).to_le_bytes());
    }
    std::fs::write(path, out).map_err(io_error(path))
}

/// `qpsk-8/9` as gr-dvbs2rx spells it: `QPSK8/9`.
fn gr_modcod(m: &str) -> String {
    m.to_uppercase().replace('-', "")
}

/// The command of one receiver run on `input`, writing `output`.
fn command(
    p: &Dvbs2RxParams,
    case: &Dvbs2Case,
    cores: Option<usize>,
    input: &Path,
    output: &Path,
) -> Command {
    match cores {
        Some(c) => {
            let mut cmd = Command::new(&p.radioflow);
            cmd.args(["dvbs2", "rx", "--input"])
                .arg(input)
                .arg("--out")
                .arg(output)
                .args(["--cores", &c.to_string()]);
            cmd
        }
        None => {
            let prefix = p.gr_dvbs2rx.as_deref().unwrap_or(Path::new("/usr"));
            let mut cmd = Command::new("/usr/bin/python3");
            cmd.arg(prefix.join("bin/dvbs2-rx"))
                .args(["--source", "file", "--in-file"])
                .arg(input)
                .args(["--sink", "file", "--out-file"])
                .arg(output)
                .args([
                    "--frame-size",
                    if case.frame == FrameSize::Short {
                        "short"
                    } else {
                        "normal"
                    },
                    "-m",
                    &gr_modcod(&case.modcod),
                    "-p",
                    if case.pilots { "on" } else { "off" },
                    "-r",
                    "0.2",
                    "-o",
                    "2",
                ])
                .env("PYTHONPATH", gr_pythonpath(prefix))
                .env("LD_LIBRARY_PATH", prefix.join("lib/x86_64-linux-gnu"));
            cmd
        }
    }
}

/// The site-packages folders under `prefix/lib` (python3.X).
fn gr_pythonpath(prefix: &Path) -> String {
    let mut dirs = Vec::new();
    if let Ok(rd) = std::fs::read_dir(prefix.join("lib")) {
        for e in rd.flatten() {
            let p = e.path().join("site-packages");
            if p.is_dir() {
                dirs.push(p.display().to_string());
            }
            let p = e.path().join("dist-packages");
            if p.is_dir() {
                dirs.push(p.display().to_string());
            }
        }
    }
    dirs.join(":")
}

/// Runs `cmd`; the wall-clock seconds and the bytes it wrote to `output`.
fn timed(mut cmd: Command, output: &Path, what: &str) -> Result<(f64, u64), BenchError> {
    let t = Instant::now();
    let out = cmd
        .output()
        .map_err(|e| BenchError::Peer(format!("{what}: {e}")))?;
    let secs = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(BenchError::Peer(format!(
            "{what} failed: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or_default()
        )));
    }
    let bytes = std::fs::metadata(output).map_err(io_error(output))?.len();
    Ok((secs, bytes))
}

/// Whether gr-dvbs2rx's application is under `prefix`.
pub fn gr_dvbs2rx_available(prefix: &Path) -> bool {
    prefix.join("bin/dvbs2-rx").is_file()
}

/// Measures every case with every radioflow core count (and gr-dvbs2rx), alternating the
/// configurations run by run. The recordings are written to the system's temporary folder
/// and removed afterwards. Also returns each case's calibration profile (the Table 3).
///
/// # Errors
/// A run that fails (radioflow or the peer), or a file that cannot be written.
pub fn measure(p: &Dvbs2RxParams) -> Result<(Vec<Dvbs2RxRow>, Vec<RxProfile>), BenchError> {
    let tmp = std::env::temp_dir().join(format!("radioflow-dvbs2-rx-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(io_error(&tmp))?;
    let result = (|| {
        let mut rows = Vec::new();
        let mut profiles = Vec::new();
        let sent = ts_bytes(p.packets);
        for (k, case) in p.cases.iter().enumerate() {
            let rec = tmp.join(format!("case{k}.cf32"));
            let tiny = tmp.join(format!("case{k}-tiny.cf32"));
            write_recording(case, p.packets, p.esn0_db, &rec)?;
            write_recording(case, 10 * 100, p.esn0_db, &tiny)?;
            let sync = SyncConfig::default();
            let run = RxRun {
                sync,
                frame: None,
                pilots: None,
                cores: 2,
                pin: false,
            };
            let f = std::fs::File::open(&rec).map_err(io_error(&rec))?;
            profiles.push(
                calibrate(&run, f, 2)
                    .map_err(|e| BenchError::Params(format!("dvbs2-rx calibration: {e}")))?,
            );
            let mut configs: Vec<Option<usize>> = p.cores.iter().map(|&c| Some(c)).collect();
            if p.gr_dvbs2rx.is_some() {
                configs.push(None);
            }
            let mut case_rows: Vec<(Option<usize>, Dvbs2RxRow)> = Vec::new();
            for &c in &configs {
                let out = tmp.join("startup.ts");
                let (startup, _) = timed(command(p, case, c, &tiny, &out), &out, "start-up")?;
                case_rows.push((
                    c,
                    Dvbs2RxRow {
                        case: case.label(),
                        runtime: match c {
                            Some(0) => "radioflow sequence (1 thread)".into(),
                            Some(c) => format!("radioflow plan for {c} cores"),
                            None => "gr-dvbs2rx (dvbs2-rx app)".into(),
                        },
                        mbps: vec![],
                        summary: None,
                        ts_bytes: 0,
                        startup,
                        verified: true,
                    },
                ));
            }
            for _ in 0..p.runs {
                for (c, row) in case_rows.iter_mut() {
                    let out = tmp.join("out.ts");
                    let what = if c.is_some() {
                        "radioflow"
                    } else {
                        "gr-dvbs2rx"
                    };
                    let (secs, bytes) = timed(command(p, case, *c, &rec, &out), &out, what)?;
                    row.mbps.push(bytes as f64 * 8.0 / secs / 1e6);
                    row.ts_bytes = bytes;
                    let got = std::fs::read(&out).map_err(io_error(&out))?;
                    row.verified &= verify(&got, &sent);
                }
            }
            rows.extend(case_rows.into_iter().map(|(_, mut r)| {
                r.summary = summarize(&r.mbps);
                r
            }));
        }
        Ok((rows, profiles))
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// What [`fer`] sweeps.
#[derive(Debug, Clone)]
pub struct FerParams {
    /// The MODCODs (frame size and pilots included).
    pub cases: Vec<Dvbs2Case>,
    /// Es/N0 points, in dB relative to each MODCOD's Table 13 threshold.
    pub offsets_db: Vec<f64>,
    /// PLFRAMEs per point.
    pub frames: usize,
    /// gr-dvbs2rx's install prefix, to measure beside radioflow.
    pub gr_dvbs2rx: Option<PathBuf>,
    /// The `radioflow` binary (unused by radioflow's own runs, which are in-process).
    pub radioflow: PathBuf,
}

/// Frames sent after the measured ones (see [`fer`]).
const FER_TAIL: usize = 40;

/// One point of a curve.
#[derive(Debug, Clone, Copy)]
pub struct FerPoint {
    /// Es/N0 of the recording (dB).
    pub esn0_db: f64,
    /// radioflow: frames that failed / frames synchronised after the first decoded one.
    pub fer: f64,
    /// radioflow: packets not delivered intact in the measured window (see [`fer`]).
    pub per: f64,
    /// gr-dvbs2rx: the same packet measure, when it ran.
    pub gr_per: Option<f64>,
    /// radioflow's own estimate of the Es/N0 (dB), from the known symbols.
    pub estimated_db: f64,
}

/// A case's curve.
#[derive(Debug, Clone)]
pub struct FerCurve {
    /// `qpsk-1/2 normal pilots`.
    pub case: String,
    /// Table 13's quasi-error-free Es/N0 (dB).
    pub threshold_db: f64,
    /// The points, in Es/N0 order.
    pub points: Vec<FerPoint>,
}

/// Packets per frame of `case` (Kbch less the BBHEADER, over 188 bytes).
fn packets_per_frame(case: &Dvbs2Case) -> Result<usize, BenchError> {
    let m: radioflow_dvbs2::Modcod = case
        .modcod
        .parse()
        .map_err(|e| BenchError::Params(format!("dvbs2-fer: {e}")))?;
    let fec = m
        .fec(case.frame)
        .map_err(|e| BenchError::Params(format!("dvbs2-fer: {e}")))?;
    Ok((fec.kbch - 80) / 8 / 188)
}

/// Packets of `sent` delivered intact in `got`, counting only packets `from..to` of the stream
/// (each output packet is matched to the sent one its counter names).
fn intact(got: &[u8], sent: &[u8], from: usize, to: usize) -> usize {
    got.chunks_exact(188)
        .filter(|p| {
            let k = u32::from_be_bytes([p[4], p[5], p[6], p[7]]) as usize;
            (from..to).contains(&k) && sent.get(k * 188..(k + 1) * 188) == Some(*p)
        })
        .count()
}

/// FER and PER against Es/N0 around each MODCOD's Table 13 threshold, with the whole receiver
/// (synchronisation included), on recordings of the crate's transmitter with AWGN (RRC 0.2, 2
/// samples/symbol). PER counts the packets of frames 3..frames-2 not delivered intact
/// (acquisition left out); 40 more frames follow them so both receivers flush the window.
/// FER is over every frame radioflow synchronised, the extra ones included.
///
/// # Errors
/// A file that cannot be written, a run that fails.
pub fn fer(p: &FerParams) -> Result<Vec<FerCurve>, BenchError> {
    use radioflow_dvbs2::rx_app::{rx_file, RxFileOptions};
    let tmp = std::env::temp_dir().join(format!("radioflow-dvbs2-fer-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(io_error(&tmp))?;
    let result = (|| {
        let mut curves = Vec::new();
        for case in &p.cases {
            let ppf = packets_per_frame(case)?;
            // 40 frames after the measured ones, so that a receiver whose pipeline still holds
            // frames when the file ends (gr-dvbs2rx holds about 25) is not charged for them.
            let packets = (p.frames + FER_TAIL) * ppf;
            let sent = ts_bytes(packets);
            let (from, to) = (3 * ppf, (p.frames - 2) * ppf);
            let m: radioflow_dvbs2::Modcod = case
                .modcod
                .parse()
                .map_err(|e| BenchError::Params(format!("dvbs2-fer: {e}")))?;
            let threshold = m.qef_esn0_db();
            let mut points = Vec::new();
            for &off in &p.offsets_db {
                let esn0 = threshold + off;
                let rec = tmp.join("rec.cf32");
                let out = tmp.join("out.ts");
                write_recording(case, packets, esn0, &rec)?;
                let r = rx_file(
                    &RxFileOptions {
                        input: rec.clone(),
                        sps: 2.0,
                        output: out.clone(),
                        rolloff: 0.2,
                        gold: 0,
                        frame: None,
                        pilots: None,
                        cores: 0,
                        profile: false,
                        pin: false,
                        span: None,
                    },
                    |_, _| {},
                )
                .map_err(|e| BenchError::Params(format!("dvbs2-fer radioflow: {e}")))?;
                let got = std::fs::read(&out).map_err(io_error(&out))?;
                let window = (to - from).max(1) as f64;
                let per = 1.0 - intact(&got, &sent, from, to) as f64 / window;
                let fer = r.failed as f64 / (r.decoded + r.failed).max(1) as f64;
                // gr-dvbs2rx decodes QPSK and 8PSK only (it refuses APSK MODCODs).
                let gr_supports =
                    case.modcod.starts_with("qpsk") || case.modcod.starts_with("8psk");
                let gr_per = match &p.gr_dvbs2rx {
                    Some(_) if gr_supports => {
                        let _ = std::fs::remove_file(&out);
                        let cmd = command(
                            &Dvbs2RxParams {
                                packets,
                                runs: 1,
                                cores: vec![],
                                cases: vec![],
                                esn0_db: esn0,
                                gr_dvbs2rx: p.gr_dvbs2rx.clone(),
                                radioflow: p.radioflow.clone(),
                            },
                            case,
                            None,
                            &rec,
                            &out,
                        );
                        timed(cmd, &out, "gr-dvbs2rx")?;
                        let got = std::fs::read(&out).map_err(io_error(&out))?;
                        Some(1.0 - intact(&got, &sent, from, to) as f64 / window)
                    }
                    _ => None,
                };
                points.push(FerPoint {
                    esn0_db: esn0,
                    fer,
                    per,
                    gr_per,
                    estimated_db: f64::from(r.esn0_db.unwrap_or(f32::NAN)),
                });
            }
            curves.push(FerCurve {
                case: case.label(),
                threshold_db: threshold,
                points,
            });
        }
        Ok(curves)
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    result
}
