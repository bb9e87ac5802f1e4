//! `radioflow bench dvbs2-rx`: the DVB-S2 receiver (issue 20) on the same cf32 recording
//! through radioflow (`radioflow_dvbs2::framed::run_rx`, the plan's pipeline or one sequence) and
//! through gr-dvbs2rx's `dvbs2-rx` application (GPLv3, built outside the repository; its
//! install prefix given with `--gr-dvbs2rx` or `GR_DVBS2RX_PREFIX`), alternated run by run.
//! The recording is made by radioflow's transmitter (bit-exact with gr-dtv) from a TS file,
//! RRC roll-off 0.2 at 2 samples per symbol, with white Gaussian noise at the Es/N0 asked
//! for. The figure is Mb/s of TS written (the information delivered) per second of run; both
//! receivers run as a child process on the same file, so both pay their start-up, which is
//! also measured alone on a ten-frame file.

use super::{parse_cases, Dvbs2Case};
use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::stats::{summarize, Summary};
use crate::values;
use clap::Args;
use radioflow_dvbs2::framed::{calibrate, run_tx, RxProfile, RxRun, TxRun};
use radioflow_dvbs2::rx::sync::SyncConfig;
use radioflow_dvbs2::{FrameSize, RollOff, Schedule, Shaping, TxConfig};
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
pub(super) fn ts_bytes(packets: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(packets * 188);
    for p in 0..packets as u32 {
        s.extend_from_slice(&[0x47, 0x01, 0x00, 0x10 | (p % 16) as u8]);
        s.extend_from_slice(&p.to_be_bytes());
        s.extend((8..188u32).map(|j| (p.wrapping_mul(7) ^ j) as u8));
    }
    s
}

pub(super) fn io_error(path: &Path) -> impl Fn(std::io::Error) -> BenchError + '_ {
    move |source| BenchError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the recording of `packets` TS packets for `case` with noise at `esn0_db`.
pub(super) fn write_recording(
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
        let (u1, u2): (f32, f32) = (rng.gen_range(f32::EPSILON..1.0), rng.r#gen());
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
pub(super) fn command(
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
pub(super) fn timed(mut cmd: Command, output: &Path, what: &str) -> Result<(f64, u64), BenchError> {
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
                filter: Default::default(),
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

/// `bench dvbs2-rx`: a noisy cf32 recording -> DVB-S2 receiver -> TS file, Mb/s of TS.
#[derive(Args, Clone)]
pub(crate) struct Dvbs2RxArgs {
    /// TS packets carried by each recording (accepts 1e5).
    #[arg(long, default_value = "100000", value_parser = values::count)]
    packets: u64,
    /// MODCOD settings, `MODCOD:FRAME:PILOTS` comma separated.
    #[arg(long, default_value = "qpsk-8/9:short:on,8psk-3/5:normal:on")]
    cases: String,
    /// radioflow cores to plan for, comma separated (0: one sequence on one thread).
    /// Default: 0 and the number of CPUs.
    #[arg(long)]
    cores: Option<String>,
    /// Es/N0 of the recordings in dB (white Gaussian noise added to the transmitter's output).
    #[arg(long, default_value = "12", allow_hyphen_values = true, value_parser = esn0)]
    esn0: f64,
    /// Install prefix of gr-dvbs2rx (built outside the repository; docs/benchmarks.md says
    /// how), for `--compare gr-dvbs2rx`. Default: $GR_DVBS2RX_PREFIX.
    #[arg(long)]
    gr_dvbs2rx: Option<PathBuf>,
}

/// `--esn0`: a finite dB value the receiver can work at.
fn esn0(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (-3.0..=60.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not an Es/N0 in dB between -3 and 60")),
    }
}

/// `radioflow bench dvbs2-rx`: every case with every core count (and gr-dvbs2rx), alternated
/// run by run.
pub(crate) fn bench(a: Dvbs2RxArgs, c: &Common) -> Result<(), BenchError> {
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let cores: Vec<usize> = match &a.cores {
        Some(t) => t
            .split(',')
            .map(|x| x.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|e| BenchError::Params(format!("--cores {t:?}: {e}")))?,
        None => vec![0, cpus],
    };
    if let Some(&t) = cores.iter().find(|&&t| t > 256) {
        return Err(BenchError::Params(format!("--cores {t}: at most 256")));
    }
    let gr = gr_dvbs2rx_peer(c, a.gr_dvbs2rx.clone(), "dvbs2-rx")?;
    let p = Dvbs2RxParams {
        packets: if c.quick { 2000 } else { a.packets as usize },
        runs: if c.quick { 1 } else { c.runs },
        cores,
        cases: parse_cases(&a.cases)?,
        esn0_db: a.esn0,
        gr_dvbs2rx: gr,
        radioflow: std::env::current_exe()?,
    };
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "dvbs2-rx: {} TS packets per recording, RRC roll-off 0.2 at 2 samples/symbol, Es/N0 {} dB; \
             {} alternated runs of each receiver as a child process on the same file; Mb/s of TS written, \
             wall clock (start-up included; start-up alone on a 1000-packet file shown)",
            p.packets, p.esn0_db, p.runs
        );
    }
    let (rows, profiles) = measure(&p)?;
    if c.json {
        for r in &rows {
            println!(
                "{}",
                serde_json::json!({"experiment": "dvbs2-rx", "case": r.case, "runtime": r.runtime, "mbps": r.mbps, "ts_bytes": r.ts_bytes, "startup_s": r.startup, "verified": r.verified})
            );
        }
        return Ok(());
    }
    println!(
        "{:<24} {:<30} {:>8} {:>8} {:>8} {:>10} {:>10} {:>10} {:>9}",
        "case", "runtime", "median", "min", "max", "x gr", "TS MB", "start-up s", "verified"
    );
    for r in &rows {
        let Some(s) = r.summary else { continue };
        let gr = rows
            .iter()
            .find(|g| g.case == r.case && g.runtime.starts_with("gr-dvbs2rx"))
            .and_then(|g| g.summary);
        let ratio = gr.map_or("-".to_string(), |g| format!("{:.2}", s.median / g.median));
        println!(
            "{:<24} {:<30} {:>8.1} {:>8.1} {:>8.1} {:>10} {:>10.2} {:>10.3} {:>9}",
            r.case,
            r.runtime,
            s.median,
            s.min,
            s.max,
            ratio,
            r.ts_bytes as f64 / 1e6,
            r.startup,
            if r.verified { "yes" } else { "NO" }
        );
    }
    for (case, prof) in p.cases.iter().zip(&profiles) {
        println!(
            "\n{}: profile of the first samples and the plan (Table 3 of Cassagne et al. 2023)",
            case.label()
        );
        println!("{}", prof.table());
    }
    Ok(())
}

/// The `--compare` peers of the DVB-S2 receiver benchmarks: gr-dvbs2rx only, found under
/// `given` or `$GR_DVBS2RX_PREFIX`; `None` (with a SKIPPED line) when no prefix is known.
pub(super) fn gr_dvbs2rx_peer(
    c: &Common,
    given: Option<PathBuf>,
    experiment: &str,
) -> Result<Option<PathBuf>, BenchError> {
    let mut gr = None;
    for peer in c.compare.iter().flat_map(|s| s.split(',')) {
        match peer {
            "gr-dvbs2rx" | "dvbs2rx" => {
                let prefix = given
                    .clone()
                    .or_else(|| std::env::var_os("GR_DVBS2RX_PREFIX").map(Into::into));
                match prefix {
                    Some(p) if gr_dvbs2rx_available(&p) => gr = Some(p),
                    Some(p) => {
                        return Err(BenchError::Params(format!(
                            "--compare gr-dvbs2rx: no bin/dvbs2-rx under {} (--gr-dvbs2rx PREFIX)",
                            p.display()
                        )))
                    }
                    None => println!(
                        "SKIPPED gr-dvbs2rx: give its install prefix with --gr-dvbs2rx or GR_DVBS2RX_PREFIX"
                    ),
                }
            }
            other => {
                return Err(BenchError::Params(format!(
                    "--compare {other}: {experiment} compares with gr-dvbs2rx only"
                )))
            }
        }
    }
    Ok(gr)
}
