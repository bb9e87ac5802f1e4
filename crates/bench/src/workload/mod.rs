//! `workload` (Green et al., Fig. 5-13): a source that must deliver `rate` samples per second
//! -> processor block(s) doing a chosen kind and amount of work per packet -> a rate probe; the
//! "signal quality" (delivered / required samples) against the work per packet, threads inside
//! a block vs chained blocks, all cores vs one, single-threaded. [`run`](run()) is one
//! configuration, [`measure`] the invocation.

mod run;
mod suite;

pub use run::{run, Arrangement, Kind, Processor, WorkloadParams, PACKET};
pub use suite::{measure, KindResult, WorkloadStudy, WorkloadStudyParams, CSV_HEADER};

use crate::common::Common;
use crate::machine::Machine;
use crate::measurement::BenchError;
use crate::progress::Ticker;
use crate::results::{report_plots, save};
use crate::values;
use clap::Args;

#[derive(Args, Clone)]
pub(crate) struct WorkloadArgs {
    /// Required samples per second of the source.
    #[arg(long, default_value = "1e6", value_parser = values::positive, allow_negative_numbers = true)]
    rate: f64,
    /// Seconds of samples per run.
    #[arg(long, default_value = "1", value_parser = values::seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Kinds of work, comma separated: fdiv, intaddsub, reverse-temp, reverse-xor, alloc,
    /// empty, recursion.
    #[arg(long, default_value = "fdiv")]
    kinds: String,
    /// Units of work per packet of 1024 samples, comma separated (accepts 1e5).
    #[arg(long, default_value = "1e3,1e4,1e5,3e5,1e6,3e6")]
    units: String,
    /// Threads inside a block / blocks in a chain for the parallel arrangements (default: CPUs).
    #[arg(long, value_parser = values::small, allow_negative_numbers = true)]
    parallel: Option<usize>,
}

/// The study the arguments ask for.
fn study_params(a: &WorkloadArgs, quick: bool) -> Result<WorkloadStudyParams, BenchError> {
    let kinds: Vec<Kind> = a
        .kinds
        .split(',')
        .map(|k| {
            Kind::from_name(k.trim()).ok_or_else(|| {
                let names: Vec<&str> = Kind::ALL.iter().map(|(_, n)| *n).collect();
                BenchError::Params(format!("unknown kind '{k}' (known: {})", names.join(", ")))
            })
        })
        .collect::<Result<_, _>>()?;
    let units: Vec<usize> = a
        .units
        .split(',')
        .map(|u| {
            values::count(u.trim())
                .map(|v| v as usize)
                .map_err(BenchError::Params)
        })
        .collect::<Result<_, _>>()?;
    let n = a
        .parallel
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let p = WorkloadStudyParams {
        rate: a.rate,
        seconds: a.seconds,
        kinds,
        units,
        arrangements: Arrangement::seed_set(n).to_vec(),
    };
    Ok(if quick { p.quick() } else { p })
}

/// `radioflow bench workload`: every kind, size and arrangement, alternated run by run.
pub(crate) fn bench(a: WorkloadArgs, c: &Common) -> Result<(), BenchError> {
    let p = study_params(&a, c.quick)?;
    if !c.json {
        println!("machine: {}", Machine::detect());
        println!(
            "source {} samples/s for {} s; work per packet of {PACKET} samples; quality = \
             delivered / required samples (median of {} runs)",
            p.rate, p.seconds, c.runs
        );
    }
    let mut ticker = Ticker::new(c, 0);
    let result = measure(&p, c.runs, &mut |x| ticker.show(x))?;
    ticker.end();
    if !c.json {
        for k in &result.kinds {
            print_quality(&result, k);
        }
    }
    if let Some(dir) = &c.out {
        save(dir, &result.jsonl, &result.csv())?;
        report_plots(result.plots(dir));
    }
    if !result.verified() {
        return Err(BenchError::Unverified(
            "some delivered samples did not reach the probe".into(),
        ));
    }
    Ok(())
}

fn print_quality(result: &WorkloadStudy, k: &KindResult) {
    println!(
        "{}: signal quality by units of work per packet",
        k.kind.name()
    );
    print!("{:<26}", "arrangement");
    for u in &result.params.units {
        print!(" {:>9}", format!("{:e}", *u as f64));
    }
    println!();
    for (ar, q) in result.params.arrangements.iter().zip(&k.quality) {
        print!("{:<26}", ar.label());
        for s in q {
            print!(" {:>8.1}%", 100.0 * s.median);
        }
        println!();
    }
}
