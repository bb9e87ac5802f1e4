//! `radioflow bench fm`: prints `radioflow_bench::suite::fm`.

use crate::bench::{parse_count, schedulers, warn, write_results, Common, Ticker};
use anyhow::bail;
use clap::Args;
use radioflow_bench::suite::{fm, jsonl};
use radioflow_bench::{FmParams, Machine};
use std::path::PathBuf;

/// Size of the `fm` run.
#[derive(Args, Clone)]
pub(crate) struct FmArgs {
    /// Input samples through the receiver (accepts 1e8).
    #[arg(long, default_value = "1e8", value_parser = parse_count)]
    samples: u64,
    /// Folder for the one-second recording read over and over (19.2 MB, made once).
    #[arg(long, default_value_os_t = std::env::temp_dir())]
    data: PathBuf,
}

pub(crate) fn fm(a: FmArgs, c: &Common) -> anyhow::Result<()> {
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let mut skipped = Vec::new();
    let mut gnuradio = false;
    for name in c.compare.iter().flat_map(|s| s.split(',')).map(str::trim) {
        match name {
            "" => {}
            "gnuradio" | "gr" => gnuradio = true,
            other => bail!("bench fm compares with gnuradio only, not '{other}'"),
        }
    }
    let samples = if c.quick {
        a.samples.min(2_000_000)
    } else {
        a.samples
    };
    let p = FmParams {
        samples,
        input: radioflow_bench::fm::recording(&a.data)?,
    };
    let ks = fm::contenders(&schedulers(c)?, gnuradio, &mut skipped);
    warn(skipped);
    let mut ticker = Ticker::new(c, 1);
    let (rows, runs) = fm::measure(&p, &ks, c.runs, &mut |p| ticker.show(p))?;
    ticker.end();
    if let Some(dir) = &c.out {
        write_results(
            dir,
            &jsonl(&runs),
            &(fm::CSV_HEADER.to_owned() + &fm::csv_rows(&p, &rows)),
        )?;
    }
    if !c.json {
        println!(
            "fm: file source -> head({:e}) -> freq_xlating_fir (145 taps, /10) -> quadrature demod -> audio FIR (385 taps, /5) -> de-emphasis -> null sink",
            samples as f64
        );
        println!(
            "{:<26} {:>4} {:>10} {:>21} {:>10} {:>12} {:>8}",
            "runtime scheduler",
            "runs",
            "median s",
            "mean s (95% CI)",
            "Msps",
            "/gnuradio",
            "verified"
        );
        for r in &rows {
            let s = &r.summary;
            println!(
                "{:<26} {:>4} {:>10.4} {:>10.4} ± {:<8.4} {:>10.1} {:>12} {:>8}",
                format!("{} {}", r.runtime, r.scheduler),
                s.n,
                s.median,
                s.mean,
                s.ci95,
                r.msps,
                r.vs_gnuradio.map_or("-".into(), |v| format!("{v:.2}x")),
                if r.verified { "yes" } else { "NO" }
            );
        }
    }
    if rows.iter().any(|r| !r.verified) {
        bail!("some runs lost audio samples");
    }
    Ok(())
}
