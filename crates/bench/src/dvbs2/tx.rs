//! `radioflow bench dvbs2-tx`: the DVB-S2 transmitter (issue 19) on the same TS file through
//! radioflow (`radioflow_dvbs2::run_tx`, a framed sequence or pipeline) and through GNU Radio's
//! gr-dtv chain (`peers/gnuradio/dvbs2_tx.py`: bbheader → bbscrambler → bch → ldpc →
//! interleaver → modulator → physical → RRC FIR → null sink), alternated run by run. The
//! figure is Mb/s of information: TS bits carried by the BBFRAMEs per second of run.

use crate::measurement::BenchError;
use crate::peers::repo_root;
use crate::stats::{summarize, Summary};
use radioflow_dvbs2::{run_tx, FrameSize, RollOff, Schedule, Shaping, TxConfig, TxRun};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One MODCOD setting measured.
#[derive(Debug, Clone)]
pub struct Dvbs2Case {
    /// MODCOD name, e.g. `qpsk-8/9`.
    pub modcod: String,
    /// Frame size.
    pub frame: FrameSize,
    /// Pilots on.
    pub pilots: bool,
}

impl Dvbs2Case {
    /// `qpsk-8/9 short pilots`.
    pub fn label(&self) -> String {
        format!(
            "{} {} {}",
            self.modcod,
            if self.frame == FrameSize::Short {
                "short"
            } else {
                "normal"
            },
            if self.pilots { "pilots" } else { "no pilots" }
        )
    }
}

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
