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
