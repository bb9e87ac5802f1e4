//! `fm` (issue 18): the mono FM receiver chain of GNU Radio's examples, on a recording read
//! from a file, on radioflow's schedulers and, with `--compare gnuradio`, GNU Radio's own chain
//! (`peers/gnuradio/fm_bench.py`), alternated run by run; throughput in input Msps.
//! [`run`](run()) is one run, [`measure`] the invocation.

mod run;
mod suite;

pub use run::{audio_taps, build, channel_taps, recording, run, FmParams, OFFSET, RATE};
pub use suite::{contenders, csv_rows, measure, FmRow, CSV_HEADER};

use crate::common::Common;
use crate::contender::warn;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::progress::Ticker;
use crate::results::{jsonl, save};
use crate::values;
use clap::Args;
use std::path::PathBuf;

/// Size of the `fm` run.
#[derive(Args, Clone)]
pub(crate) struct FmArgs {
    /// Input samples through the receiver (accepts 1e8).
    #[arg(long, default_value = "1e8", value_parser = values::count)]
    samples: u64,
    /// Folder for the one-second recording read over and over (19.2 MB, made once).
    #[arg(long, default_value_os_t = std::env::temp_dir())]
    data: PathBuf,
}

/// `radioflow bench fm`: every contender, alternated run by run.
pub(crate) fn bench(a: FmArgs, c: &Common) -> Result<(), BenchError> {
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let mut skipped = Vec::new();
    let gnuradio = c.gnuradio_only("bench fm")?;
    let samples = if c.quick {
        a.samples.min(2_000_000)
    } else {
        a.samples
    };
    let p = FmParams {
        samples,
        input: recording(&a.data)?,
    };
    let ks = contenders(&c.schedulers()?, gnuradio, &mut skipped);
    warn(skipped);
    let mut ticker = Ticker::new(c, 1);
    let (rows, runs) = measure(&p, &ks, c.runs, &mut |p| ticker.show(p))?;
    ticker.end();
    if let Some(dir) = &c.out {
        save(
            dir,
            &jsonl(&runs),
            &(CSV_HEADER.to_owned() + &csv_rows(&p, &rows)),
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
        return Err(BenchError::Unverified(
            "some runs lost audio samples".into(),
        ));
    }
    Ok(())
}
