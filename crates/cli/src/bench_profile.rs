//! `radioflow bench resched` and `radioflow bench items`: prints
//! `radioflow_bench::suite::profiled`.

use crate::bench::{peers, report_plots, warn, write_results, Common, Ticker};
use anyhow::bail;
use radioflow_bench::suite::jsonl;
use radioflow_bench::suite::profiled::{self, Profile, Profiled};
use radioflow_bench::{BufParams, Machine, Measurement};

/// Runs `kind` on every contender, alternated run by run, and reports it.
pub(crate) fn profile(kind: Profile, p: BufParams, c: &Common) -> anyhow::Result<()> {
    let p = if c.quick {
        BufParams {
            samples: p.samples.min(100_000),
            ..p
        }
    } else {
        p
    };
    let mut skipped = Vec::new();
    let ks = profiled::contenders(kind, &peers(c, "gnuradio, futuresdr")?, &mut skipped);
    warn(skipped);
    let mut ticker = Ticker::new(c, 4);
    let prof = profiled::measure(kind, &p, &ks, c.runs, &mut |x| ticker.show(x))?;
    ticker.end();
    for (k, refused) in ks.iter().zip(&prof.refused) {
        if let Some(status) = refused {
            eprintln!(
                "radioflow: {} {}: the machine refused real-time priority ({status}); it ran at \
                 normal priority",
                k.runtime, k.label
            );
        }
    }
    if !c.json {
        match kind {
            Profile::Resched => print_resched(&prof),
            Profile::Items => print_items(&prof),
        }
    }
    if let Some(dir) = &c.out {
        let all: Vec<Measurement> = prof.runs.iter().flatten().cloned().collect();
        write_results(dir, &jsonl(&all), &prof.csv())?;
        report_plots(prof.plots(dir));
    }
    if let Some(i) = prof.first_unverified() {
        bail!(
            "{} {}: items were lost or not all accounted for",
            ks[i].runtime,
            ks[i].label
        );
    }
    Ok(())
}

/// The context-switch table.
fn print_resched(prof: &Profiled) {
    let p = &prof.params;
    println!("machine: {}", Machine::detect());
    println!(
        "buf {}x{} {:e}, {} runs per runtime and scheduler (medians); context switches of \
         all the runtime's threads, read from the kernel per thread",
        p.pipes,
        p.stages,
        p.samples as f64,
        prof.runs.first().map_or(0, Vec::len)
    );
    println!(
        "{:<10} {:<17} {:>7} {:>9} {:>12} {:>12} {:>11} {:>11} {:>8}",
        "runtime",
        "scheduler",
        "threads",
        "seconds",
        "voluntary",
        "involuntary",
        "vol/thread",
        "inv/thread",
        "verified"
    );
    for (i, r) in prof.resched_rows().iter().enumerate() {
        println!(
            "{:<10} {:<17} {:>7} {:>9.3} {:>12.0} {:>12.0} {:>11.1} {:>11.2} {:>8}",
            prof.runtimes[i],
            prof.labels[i],
            r.threads,
            r.seconds,
            r.voluntary,
            r.involuntary,
            r.voluntary / r.threads,
            r.involuntary / r.threads,
            if r.verified { "yes" } else { "NO" }
        );
    }
    if prof.runtimes.iter().any(|r| r == "gnuradio") {
        println!(
            "gnuradio: one thread per block; all of them summed from getrusage(RUSAGE_SELF) \
             around top_block::run() less the main and earlier threads; each copy block's \
             thread read by getrusage(RUSAGE_THREAD) in its stop(), which GNU Radio 3.10 calls \
             on that thread as it ends (per thread in --json: copy_threads)"
        );
    }
}

/// The items-per-call table.
fn print_items(prof: &Profiled) {
    let p = &prof.params;
    println!("machine: {}", Machine::detect());
    println!(
        "buf {}x{} {:e}: copy-block work calls by items produced (log2 bins, share of \
         calls, bins under 1% left out; first run)",
        p.pipes, p.stages, p.samples as f64
    );
    println!(
        "{:<10} {:<17} {:>10} {:>10} {:>9}  histogram",
        "runtime", "scheduler", "calls", "items/call", "verified"
    );
    for (i, r) in prof.items_rows().iter().enumerate() {
        let bins: Vec<String> = r
            .main_bins()
            .iter()
            .map(|(b, pct)| format!("2^{b}: {pct:.0}%"))
            .collect();
        println!(
            "{:<10} {:<17} {:>10} {:>10.0} {:>9}  {}",
            prof.runtimes[i],
            prof.labels[i],
            r.calls,
            r.per_call(),
            if r.verified { "yes" } else { "NO" },
            bins.join("  ")
        );
    }
}
