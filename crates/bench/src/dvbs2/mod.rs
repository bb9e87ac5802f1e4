//! `radioflow bench dvbs2-tx`: prints `radioflow_bench::dvbs2_tx`.

use crate::bench::{parse_count, Common};
use anyhow::bail;
use clap::Args;
use radioflow_bench::dvbs2_tx::{self, Dvbs2Case, Dvbs2TxParams};
use radioflow_bench::Machine;

/// `bench dvbs2-tx`: TS file -> DVB-S2 PLFRAMEs -> RRC (2 sps, roll-off 0.2) -> discarded.
#[derive(Args, Clone)]
pub(crate) struct Dvbs2TxArgs {
    /// TS packets in the input file (accepts 1e5).
    #[arg(long, default_value = "100000", value_parser = parse_count)]
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

fn parse_cases(s: &str) -> anyhow::Result<Vec<Dvbs2Case>> {
    s.split(',')
        .map(|c| {
            let f: Vec<&str> = c.trim().split(':').collect();
            let [modcod, frame, pilots] = f[..] else {
                bail!("--cases: {c:?} is not MODCOD:FRAME:on|off");
            };
            Ok(Dvbs2Case {
                modcod: modcod.to_string(),
                frame: frame
                    .parse()
                    .map_err(|e| anyhow::anyhow!("--cases {c:?}: {e}"))?,
                pilots: match pilots {
                    "on" => true,
                    "off" => false,
                    _ => bail!("--cases {c:?}: pilots must be on or off"),
                },
            })
        })
        .collect()
}

pub(crate) fn dvbs2_tx(a: Dvbs2TxArgs, c: &Common) -> anyhow::Result<()> {
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads: Vec<usize> = match &a.threads {
        Some(t) => t
            .split(',')
            .map(|x| x.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("--threads {t:?}: {e}"))?,
        None => vec![0, cpus],
    };
    if let Some(&t) = threads.iter().find(|&&t| t > 256) {
        bail!("--threads {t}: at most 256 encoder replicas");
    }
    // The peers and settings are checked before anything prints: GNU Radio's availability too.
    let mut gnuradio = false;
    let mut skipped = None;
    for peer in c.compare.iter().flat_map(|s| s.split(',')) {
        match peer {
            "gnuradio" | "gr" if dvbs2_tx::gnuradio_available() => gnuradio = true,
            "gnuradio" | "gr" => {
                skipped = Some("SKIPPED gnuradio: /usr/bin/python3 cannot import gnuradio.dtv")
            }
            other => bail!("--compare {other}: dvbs2-tx compares with gnuradio only"),
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
    let rows = dvbs2_tx::measure(&p)?;
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
        let cpu = radioflow_bench::stats::summarize(&r.mbps_per_cpu).map_or(f64::NAN, |c| c.median);
        let gr_cpu = rows
            .iter()
            .find(|g| g.case == r.case && g.runtime.starts_with("gnuradio"))
            .and_then(|g| radioflow_bench::stats::summarize(&g.mbps_per_cpu));
        let cpu_ratio = gr_cpu.map_or("-".to_string(), |g| format!("{:.2}", cpu / g.median));
        println!(
            "{:<24} {:<33} {:>8.1} {:>8.1} {:>8.1} {:>8} {:>9.1} {:>8}",
            r.case, r.runtime, s.median, s.min, s.max, ratio, cpu, cpu_ratio
        );
    }
    Ok(())
}

/// `bench dvbs2-rx`: a noisy cf32 recording -> DVB-S2 receiver -> TS file, Mb/s of TS.
#[derive(Args, Clone)]
pub(crate) struct Dvbs2RxArgs {
    /// TS packets carried by each recording (accepts 1e5).
    #[arg(long, default_value = "100000", value_parser = parse_count)]
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
    gr_dvbs2rx: Option<std::path::PathBuf>,
}

/// `--esn0`: a finite dB value the receiver can work at.
fn esn0(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (-3.0..=60.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not an Es/N0 in dB between -3 and 60")),
    }
}

pub(crate) fn dvbs2_rx(a: Dvbs2RxArgs, c: &Common) -> anyhow::Result<()> {
    use radioflow_bench::dvbs2_rx::{self, Dvbs2RxParams};
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let cores: Vec<usize> = match &a.cores {
        Some(t) => t
            .split(',')
            .map(|x| x.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow::anyhow!("--cores {t:?}: {e}"))?,
        None => vec![0, cpus],
    };
    if let Some(&t) = cores.iter().find(|&&t| t > 256) {
        bail!("--cores {t}: at most 256");
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
    let (rows, profiles) = dvbs2_rx::measure(&p)?;
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
            "\n{}: profile of the first samples and the plan (seed's Table 3)",
            case.label()
        );
        println!("{}", prof.table());
    }
    Ok(())
}

/// `bench dvbs2-fer`: frame and packet error rates against Es/N0 around Table 13.
#[derive(Args, Clone)]
pub(crate) struct Dvbs2FerArgs {
    /// MODCOD settings, `MODCOD:FRAME:PILOTS` comma separated.
    #[arg(
        long,
        default_value = "qpsk-1/2:normal:on,qpsk-1/2:short:on,qpsk-8/9:normal:on,qpsk-8/9:short:on,8psk-3/5:normal:on,8psk-3/5:short:on,16apsk-3/4:normal:on,16apsk-3/4:short:on"
    )]
    cases: String,
    /// Es/N0 points in dB relative to each MODCOD's Table 13 threshold, comma separated.
    #[arg(
        long,
        default_value = "-0.5,0,0.5,1,1.5,2,3",
        allow_hyphen_values = true
    )]
    offsets: String,
    /// PLFRAMEs per point (accepts 1e3).
    #[arg(long, default_value = "60", value_parser = parse_count)]
    frames: u64,
    /// Install prefix of gr-dvbs2rx, for `--compare gr-dvbs2rx`. Default: $GR_DVBS2RX_PREFIX.
    #[arg(long)]
    gr_dvbs2rx: Option<std::path::PathBuf>,
}

pub(crate) fn dvbs2_fer(a: Dvbs2FerArgs, c: &Common) -> anyhow::Result<()> {
    use radioflow_bench::dvbs2_rx::{self, FerParams};
    let offsets: Vec<f64> = a
        .offsets
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow::anyhow!("--offsets {:?}: {e}", a.offsets))?;
    if let Some(o) = offsets.iter().find(|o| !o.is_finite() || o.abs() > 20.0) {
        bail!("--offsets: {o} dB is not within ±20 dB of the threshold");
    }
    if a.frames < 8 {
        bail!(
            "--frames {}: at least 8 (3 for acquisition, 2 at the end)",
            a.frames
        );
    }
    let gr = gr_dvbs2rx_peer(c, a.gr_dvbs2rx.clone(), "dvbs2-fer")?;
    if let Some(dir) = &c.out {
        std::fs::create_dir_all(dir)?;
    }
    let p = FerParams {
        cases: parse_cases(&a.cases)?,
        offsets_db: if c.quick { vec![3.0] } else { offsets },
        frames: if c.quick { 12 } else { a.frames as usize },
        gr_dvbs2rx: gr,
        radioflow: std::env::current_exe()?,
    };
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "dvbs2-fer: {} PLFRAMEs per point, AWGN, RRC roll-off 0.2 at 2 samples/symbol, the whole \
             receiver (synchronisation included); FER: frames failed / synchronised; PER: packets of \
             frames 3..{} not delivered intact",
            p.frames,
            p.frames - 2
        );
    }
    let curves = dvbs2_rx::fer(&p)?;
    for cv in &curves {
        if c.json {
            for pt in &cv.points {
                println!(
                    "{}",
                    serde_json::json!({"experiment": "dvbs2-fer", "case": cv.case, "threshold_db": cv.threshold_db, "esn0_db": pt.esn0_db, "estimated_db": pt.estimated_db, "fer": pt.fer, "per": pt.per, "gr_per": pt.gr_per})
                );
            }
            continue;
        }
        println!("\n{} (Table 13: {:.2} dB)", cv.case, cv.threshold_db);
        println!(
            "{:>10} {:>10} {:>12} {:>12} {:>14}",
            "Es/N0 dB", "estimated", "FER", "PER", "gr-dvbs2rx PER"
        );
        for pt in &cv.points {
            println!(
                "{:>10.2} {:>10.2} {:>12.4} {:>12.4} {:>14}",
                pt.esn0_db,
                pt.estimated_db,
                pt.fer,
                pt.per,
                pt.gr_per.map_or("-".to_string(), |g| format!("{g:.4}"))
            );
        }
        if let Some(dir) = &c.out {
            use radioflow_bench::plot::{line_chart, Chart, Series};
            let mut series = vec![
                Series {
                    label: "radioflow FER".into(),
                    points: cv.points.iter().map(|p| (p.esn0_db, p.fer)).collect(),
                },
                Series {
                    label: "radioflow PER".into(),
                    points: cv.points.iter().map(|p| (p.esn0_db, p.per)).collect(),
                },
            ];
            if cv.points.iter().any(|p| p.gr_per.is_some()) {
                series.push(Series {
                    label: "gr-dvbs2rx PER".into(),
                    points: cv
                        .points
                        .iter()
                        .filter_map(|p| p.gr_per.map(|g| (p.esn0_db, g)))
                        .collect(),
                });
            }
            series.push(Series {
                label: "EN 302 307-1 Table 13 (QEF)".into(),
                points: vec![(cv.threshold_db, 0.0), (cv.threshold_db, 1.0)],
            });
            let stem = dir.join(format!("dvbs2-fer-{}", cv.case.replace(['/', ' '], "_")));
            let title = format!("{}: error rates against Es/N0", cv.case);
            match line_chart(
                &stem,
                &Chart {
                    title: &title,
                    x_label: "Es/N0 (dB)",
                    y_label: "error rate",
                    log_x: false,
                    series: &series,
                },
            ) {
                Ok(w) => println!("plot: {}", w.svg.display()),
                Err(e) => println!("no plot: {e}"),
            }
        }
    }
    Ok(())
}

/// The `--compare` peers of the DVB-S2 receiver benchmarks: gr-dvbs2rx only, found under
/// `given` or `$GR_DVBS2RX_PREFIX`; `None` (with a SKIPPED line) when no prefix is known.
fn gr_dvbs2rx_peer(
    c: &Common,
    given: Option<std::path::PathBuf>,
    experiment: &str,
) -> anyhow::Result<Option<std::path::PathBuf>> {
    use radioflow_bench::dvbs2_rx::gr_dvbs2rx_available;
    let mut gr = None;
    for peer in c.compare.iter().flat_map(|s| s.split(',')) {
        match peer {
            "gr-dvbs2rx" | "dvbs2rx" => {
                let prefix = given
                    .clone()
                    .or_else(|| std::env::var_os("GR_DVBS2RX_PREFIX").map(Into::into));
                match prefix {
                    Some(p) if gr_dvbs2rx_available(&p) => gr = Some(p),
                    Some(p) => bail!(
                        "--compare gr-dvbs2rx: no bin/dvbs2-rx under {} (--gr-dvbs2rx PREFIX)",
                        p.display()
                    ),
                    None => println!(
                        "SKIPPED gr-dvbs2rx: give its install prefix with --gr-dvbs2rx or GR_DVBS2RX_PREFIX"
                    ),
                }
            }
            other => bail!("--compare {other}: {experiment} compares with gr-dvbs2rx only"),
        }
    }
    Ok(gr)
}
