//! `radioflow bench fir`: prints `radioflow_bench::suite::fir`.

use crate::bench::{parse_count, Common};
use anyhow::bail;
use clap::Args;
use radioflow_bench::suite::fir::{measure, CASES};
use radioflow_bench::Machine;

/// Size of the `fir` run.
#[derive(Args, Clone)]
pub(crate) struct FirArgs {
    /// Input samples per run and filter (accepts 2e7).
    #[arg(long, default_value = "2e7", value_parser = parse_count)]
    samples: u64,
}

pub(crate) fn fir(a: FirArgs, c: &Common) -> anyhow::Result<()> {
    let mut gnuradio = false;
    for name in c.compare.iter().flat_map(|s| s.split(',')).map(str::trim) {
        match name {
            "" => {}
            "gnuradio" | "gr" => gnuradio = true,
            other => bail!("bench fir compares with gnuradio only, not '{other}'"),
        }
    }
    let (samples, runs) = if c.quick {
        (a.samples.min(200_000), 1)
    } else {
        (a.samples, c.runs)
    };
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let rows = measure(&CASES, samples, runs, gnuradio, &mut |what| {
        if !c.json {
            eprint!("\r{what}          ");
        }
    })?;
    if !c.json {
        eprintln!();
        println!("FIR kernels alone, ns per input sample (median of {runs}; cache-resident input)");
        println!(
            "{:<20} {:>12} {:>12} {:>12} {:>9}",
            "filter", "radioflow", "gnuradio", "/gnuradio", "verified"
        );
    }
    for r in &rows {
        let theirs = r.gnuradio.as_ref().map(|s| s.median);
        if c.json {
            println!(
                "{}",
                serde_json::json!({
                    "experiment": "fir", "filter": r.case.name(), "samples": samples,
                    "radioflow_ns_per_sample": r.radioflow.median,
                    "gnuradio_ns_per_sample": theirs, "verified": r.verified,
                })
            );
        } else {
            println!(
                "{:<20} {:>12.3} {:>12} {:>12} {:>9}",
                r.case.name(),
                r.radioflow.median,
                theirs.map_or("-".into(), |t| format!("{t:.3}")),
                theirs.map_or("-".into(), |t| format!("{:.2}x", t / r.radioflow.median)),
                match r.verified {
                    Some(true) => "yes",
                    Some(false) => "NO",
                    None => "-",
                }
            );
        }
    }
    if rows.iter().any(|r| r.verified == Some(false)) {
        bail!("radioflow's and GNU Radio's filters disagree on some outputs");
    }
    Ok(())
}
