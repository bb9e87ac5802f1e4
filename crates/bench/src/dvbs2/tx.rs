//! `radioflow bench dvbs2-tx`: the DVB-S2 transmitter (issue 19) on the same TS file through
//! radioflow (`radioflow_dvbs2::framed::run_tx`, a framed sequence or pipeline) and through GNU Radio's
//! gr-dtv chain (`peers/gnuradio/dvbs2_tx.py`: bbheader → bbscrambler → bch → ldpc →
//! interleaver → modulator → physical → RRC FIR → null sink), alternated run by run. The
//! figure is Mb/s of information: TS bits carried by the BBFRAMEs per second of run.

use super::{parse_cases, Dvbs2Case};
use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::peers::repo_root;
use crate::stats::{summarize, Summary};
use crate::values;
use clap::Args;
use radioflow_dvbs2::framed::{run_tx, TxRun};
use radioflow_dvbs2::{FrameSize, RollOff, Schedule, Shaping, TxConfig};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to measure.
#[derive(Debug, Clone)]
pub struct Dvbs2TxParams {
    /// TS packets in the input file.
    pub packets: usize,
    /// Runs per configuration (alternated).
    pub runs: usize,
    /// radioflow encoder replicas to measure (0: one sequence on one thread).
    pub threads: Vec<usize>,
    /// The MODCODs.
    pub cases: Vec<Dvbs2Case>,
    /// Also run gr-dtv.
    pub gnuradio: bool,
    /// RRC taps (2 samples per symbol, roll-off 0.2, both sides).
    pub taps: usize,
}

/// One configuration's runs.
#[derive(Debug, Clone)]
pub struct Dvbs2Row {
    /// The MODCOD setting.
    pub case: String,
    /// `radioflow sequence`, `radioflow pipeline N encoders` or `gnuradio gr-dtv`.
    pub runtime: String,
    /// Mb/s of information per run.
    pub mbps: Vec<f64>,
    /// Summary of `mbps`.
    pub summary: Option<Summary>,
    /// Mb/s of information per CPU-second (all threads) per run: the cost, whatever the
    /// machine's load.
    pub mbps_per_cpu: Vec<f64>,
}

/// CPU seconds (user + system, all threads) this process used so far, from /proc/self/stat
/// (clock ticks of 10 ms; runs last ≥ 0.5 s).
fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name's closing parenthesis; utime and stime are 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i - 3).and_then(|x| x.parse::<f64>().ok());
    match (ticks(14), ticks(15)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}

/// The TS file: `packets` packets of the gr-dtv golden data's pattern.
fn write_ts(path: &Path, packets: usize) -> Result<(), BenchError> {
    let mut s = Vec::with_capacity(packets * 188);
    for p in 0..packets as u64 {
        for j in 0..188u64 {
            s.push(if j == 0 {
                0x47
            } else {
                ((p * 131 + j * 29 + ((p * j) >> 3)) & 0xFF) as u8
            });
        }
    }
    std::fs::write(path, s).map_err(|source| BenchError::Write {
        path: path.to_path_buf(),
        source,
    })
}

fn radioflow_run(
    case: &Dvbs2Case,
    threads: usize,
    taps: usize,
    ts: &Path,
) -> Result<(f64, f64), BenchError> {
    let modcod = case
        .modcod
        .parse()
        .map_err(|e| BenchError::Params(format!("dvbs2-tx: {e}")))?;
    let tx = TxConfig::new(modcod, case.frame, case.pilots);
    let run = TxRun {
        tx,
        shaping: Shaping::Rrc {
            roll_off: RollOff::R020,
            sps: 2,
            span: taps / 4,
        },
        schedule: Schedule::default(),
        encoders: threads,
    };
    let input = std::fs::File::open(ts).map_err(|source| BenchError::Write {
        path: ts.to_path_buf(),
        source,
    })?;
    let c0 = process_cpu_seconds();
    let stats = run_tx(&run, input, std::io::sink())
        .map_err(|e| BenchError::Params(format!("dvbs2-tx radioflow: {e}")))?;
    let cpu = process_cpu_seconds() - c0;
    let mbits = stats.input_bytes as f64 * 8.0 / 1e6;
    Ok((mbits / stats.seconds, mbits / cpu))
}

fn gnuradio_run(case: &Dvbs2Case, taps: usize, ts: &Path) -> Result<(f64, f64), BenchError> {
    let script = repo_root().join("peers/gnuradio/dvbs2_tx.py");
    let frame = if case.frame == FrameSize::Short {
        "short"
    } else {
        "normal"
    };
    let out = Command::new("/usr/bin/python3")
        .arg(&script)
        .args(["--input", &ts.to_string_lossy(), "--modcod", &case.modcod])
        .args([
            "--frame",
            frame,
            "--pilots",
            if case.pilots { "on" } else { "off" },
        ])
        .args(["--rolloff", "0.2", "--taps", &taps.to_string()])
        .output()
        .map_err(|e| BenchError::Peer(format!("gnuradio dvbs2-tx: {}: {e}", script.display())))?;
    if !out.status.success() {
        return Err(BenchError::Peer(format!(
            "gnuradio dvbs2-tx failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| BenchError::Peer(format!("gnuradio dvbs2-tx output: {e}")))?;
    let (bytes, secs, cpu) = (
        v["input_bytes"].as_f64(),
        v["seconds"].as_f64(),
        v["cpu_seconds"].as_f64(),
    );
    match (bytes, secs, cpu) {
        (Some(b), Some(s), Some(c)) if s > 0.0 && c > 0.0 => Ok((b * 8e-6 / s, b * 8e-6 / c)),
        _ => Err(BenchError::Peer(format!("gnuradio dvbs2-tx output: {v}"))),
    }
}

/// Whether GNU Radio's gr-dtv is importable by /usr/bin/python3.
pub fn gnuradio_available() -> bool {
    Command::new("/usr/bin/python3")
        .args(["-c", "from gnuradio import dtv, filter"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Measures every case with every radioflow thread count (and gr-dtv), alternating the
/// configurations run by run. The TS file is written to the system's temporary folder and
/// removed afterwards.
///
/// # Errors
/// A run that fails (radioflow or the peer), or the TS file that cannot be written.
pub fn measure(p: &Dvbs2TxParams) -> Result<Vec<Dvbs2Row>, BenchError> {
    if p.taps < 5 || p.taps % 4 != 1 {
        return Err(BenchError::Params(format!(
            "dvbs2-tx: --taps {} must be 4·span + 1 (2 samples per symbol, span symbols each side), e.g. 41",
            p.taps
        )));
    }
    let ts: PathBuf =
        std::env::temp_dir().join(format!("radioflow-dvbs2-tx-{}.ts", std::process::id()));
    write_ts(&ts, p.packets)?;
    let mut rows = Vec::new();
    for case in &p.cases {
        for &t in &p.threads {
            let runtime = if t == 0 {
                "radioflow sequence (1 thread)".to_string()
            } else {
                format!("radioflow pipeline, {t} encoder(s)")
            };
            rows.push((
                case.clone(),
                Some(t),
                Dvbs2Row {
                    case: case.label(),
                    runtime,
                    mbps: vec![],
                    summary: None,
                    mbps_per_cpu: vec![],
                },
            ));
        }
        if p.gnuradio {
            rows.push((
                case.clone(),
                None,
                Dvbs2Row {
                    case: case.label(),
                    runtime: "gnuradio gr-dtv (tpb)".into(),
                    mbps: vec![],
                    summary: None,
                    mbps_per_cpu: vec![],
                },
            ));
        }
    }
    let result = (|| -> Result<(), BenchError> {
        for _ in 0..p.runs {
            for (case, threads, row) in rows.iter_mut() {
                let (mbps, per_cpu) = match threads {
                    Some(t) => radioflow_run(case, *t, p.taps, &ts)?,
                    None => gnuradio_run(case, p.taps, &ts)?,
                };
                row.mbps.push(mbps);
                row.mbps_per_cpu.push(per_cpu);
            }
        }
        Ok(())
    })();
    let _ = std::fs::remove_file(&ts);
    result?;
    Ok(rows
        .into_iter()
        .map(|(_, _, mut r)| {
            r.summary = summarize(&r.mbps);
            r
        })
        .collect())
}

/// `bench dvbs2-tx`: TS file -> DVB-S2 PLFRAMEs -> RRC (2 sps, roll-off 0.2) -> discarded.
#[derive(Args, Clone)]
pub(crate) struct Dvbs2TxArgs {
    /// TS packets in the input file (accepts 1e5).
    #[arg(long, default_value = "100000", value_parser = values::count)]
    packets: u64,
    /// MODCOD settings, `MODCOD:FRAME:PILOTS` comma separated.
    #[arg(long, default_value = "qpsk-8/9:short:on,8psk-3/5:normal:on")]
    cases: String,
    /// radioflow encoder replicas to measure, comma separated (0: one sequence, one thread).
    /// Default: 0 and the number of CPUs.
    #[arg(long)]
    threads: Option<String>,
    /// RRC taps (4·span + 1, 5 to 401), the same for GNU Radio.
    #[arg(long, default_value = "41", value_parser = rrc_taps)]
    taps: usize,
}

/// `--taps`: 4·span + 1 for a span of 1 to 100 symbols (2 samples per symbol).
fn rrc_taps(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (5..=401).contains(&n) && n % 4 == 1 => Ok(n),
        _ => Err(format!(
            "'{s}' is not 4·span + 1 taps (2 samples per symbol, span symbols each side): 5 to 401, e.g. 41"
        )),
    }
}

/// `radioflow bench dvbs2-tx`: every case with every thread count (and gr-dtv), alternated run
/// by run.
pub(crate) fn bench(a: Dvbs2TxArgs, c: &Common) -> Result<(), BenchError> {
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads: Vec<usize> = match &a.threads {
        Some(t) => t
            .split(',')
            .map(|x| x.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|e| BenchError::Params(format!("--threads {t:?}: {e}")))?,
        None => vec![0, cpus],
    };
    if let Some(&t) = threads.iter().find(|&&t| t > 256) {
        return Err(BenchError::Params(format!(
            "--threads {t}: at most 256 encoder replicas"
        )));
    }
    // The peers and settings are checked before anything prints: GNU Radio's availability too.
    let mut gnuradio = false;
    let mut skipped = None;
    for peer in c.compare.iter().flat_map(|s| s.split(',')) {
        match peer {
            "gnuradio" | "gr" if gnuradio_available() => gnuradio = true,
            "gnuradio" | "gr" => {
                skipped = Some("SKIPPED gnuradio: /usr/bin/python3 cannot import gnuradio.dtv")
            }
            other => {
                return Err(BenchError::Params(format!(
                    "--compare {other}: dvbs2-tx compares with gnuradio only"
                )))
            }
        }
    }
    let p = Dvbs2TxParams {
        packets: if c.quick { 2000 } else { a.packets as usize },
        runs: if c.quick { 1 } else { c.runs },
        threads,
        cases: parse_cases(&a.cases)?,
        gnuradio,
        taps: a.taps,
    };
    if let Some(s) = skipped {
        println!("{s}");
    }
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "dvbs2-tx: {} TS packets ({:.1} MB), RRC {} taps, 2 samples/symbol, roll-off 0.2; \
             {} alternated runs; Mb/s of information (TS bits carried), wall clock and per \
             CPU-second of all threads",
            p.packets,
            p.packets as f64 * 188.0 / 1e6,
            p.taps,
            p.runs
        );
    }
    let rows = measure(&p)?;
    if c.json {
        for r in &rows {
            println!(
                "{}",
                serde_json::json!({"experiment": "dvbs2-tx", "case": r.case, "runtime": r.runtime, "mbps": r.mbps, "mbps_per_cpu_second": r.mbps_per_cpu})
            );
        }
        return Ok(());
    }
    println!(
        "{:<24} {:<33} {:>8} {:>8} {:>8} {:>8} {:>9} {:>8}",
        "case", "runtime", "median", "min", "max", "x gr-dtv", "per CPU-s", "x gr-dtv"
    );
    for r in &rows {
        let Some(s) = r.summary else { continue };
        let gr = rows
            .iter()
            .find(|g| g.case == r.case && g.runtime.starts_with("gnuradio"))
            .and_then(|g| g.summary);
        let ratio = gr.map_or("-".to_string(), |g| format!("{:.2}", s.median / g.median));
        let cpu = summarize(&r.mbps_per_cpu).map_or(f64::NAN, |c| c.median);
        let gr_cpu = rows
            .iter()
            .find(|g| g.case == r.case && g.runtime.starts_with("gnuradio"))
            .and_then(|g| summarize(&g.mbps_per_cpu));
        let cpu_ratio = gr_cpu.map_or("-".to_string(), |g| format!("{:.2}", cpu / g.median));
        println!(
            "{:<24} {:<33} {:>8.1} {:>8.1} {:>8.1} {:>8} {:>9.1} {:>8}",
            r.case, r.runtime, s.median, s.min, s.max, ratio, cpu, cpu_ratio
        );
    }
    Ok(())
}
