//! `radioflow bench buf|msg|opti` (and `bench` alone): prints `radioflow_bench::suite::compare`.

use crate::bench::{
    flow_settings, peers, report_plots, schedulers, warn, write_results, Common, Ticker,
};
use anyhow::bail;
use radioflow_bench::limit::BufLimits;
use radioflow_bench::suite::compare::{self, Comparison, Setup};
use radioflow_bench::suite::{jsonl, Contender};
use radioflow_bench::{BufParams, Machine};

/// Measures every setup (each one's sweep with `--sweep`) and prints each one's table.
pub(crate) fn compare(base: Vec<Setup>, c: &Common) -> anyhow::Result<()> {
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let specs = schedulers(c)?;
    let peers = peers(c, "gnuradio, futuresdr")?;
    // The seed's manual optimisation of opti, on radioflow's thread-per-block scheduler.
    let tuned_tpb = c.scheduler == "all" || c.scheduler.split(',').any(|n| n.trim() == "tpb");
    let mut all_verified = true;
    let mut runs = Vec::new();
    let mut csv = String::from(compare::CSV_HEADER);
    for setup in base {
        let setup = if c.quick { setup.shrunk() } else { setup };
        let setups = setup.sizes(c.sweep, c.quick);
        let mut skipped = Vec::new();
        let experiment = setup.experiment();
        let ks = compare::contenders(
            experiment,
            &specs,
            tuned_tpb,
            &peers,
            c.realtime,
            &mut skipped,
        );
        warn(skipped);
        let mut ticker = Ticker::new(c, 4);
        let result = compare::measure(&setups, &ks, c.runs, &mut |p| ticker.show(p))?;
        all_verified &= result.verified();
        csv.push_str(&result.csv_rows());
        runs.extend(result.runs.iter().cloned());
        if let (true, Some(dir)) = (c.sweep, &c.out) {
            report_plots(compare::sweep_plot(dir, &setups, &ks, &result)?);
        }
        if c.json {
            continue;
        }
        ticker.end();
        print_table(&ks, &result);
        if c.sweep {
            print_slopes(&setup, &ks, &result);
        }
        if let (Setup::Buf(p), false) = (setup, c.sweep) {
            print_limits(&p, &ks, &result, c);
        }
    }
    if let Some(dir) = &c.out {
        write_results(dir, &jsonl(&runs), &csv)?;
    }
    if !all_verified {
        bail!("some runs lost items or messages");
    }
    Ok(())
}

fn print_table(ks: &[Contender<Setup>], result: &Comparison) {
    let base = ks.first().map(|k| k.label.as_str()).unwrap_or("?");
    println!(
        "{:<22} {:<26} {:>4} {:>10} {:>21} {:>9} {:>8}",
        "experiment",
        "runtime scheduler",
        "runs",
        "median s",
        "mean s (95% CI)",
        format!("/{base}"),
        "verified"
    );
    for r in &result.rows {
        let s = &r.summary;
        println!(
            "{:<22} {:<26} {:>4} {:>10.4} {:>10.4} ± {:<8.4} {:>9.2} {:>8}",
            r.setup,
            format!("{} {}", r.runtime, r.scheduler),
            s.n,
            s.median,
            s.mean,
            s.ci95,
            r.ratio,
            if r.verified { "yes" } else { "NO" }
        );
    }
}

fn print_slopes(setup: &Setup, ks: &[Contender<Setup>], result: &Comparison) {
    let unit = setup.size_unit();
    println!("cost per {unit} (slope of the median run time):");
    for (k, fit) in ks.iter().zip(result.slopes()) {
        if let Some((slope, intercept)) = fit {
            println!(
                "  {:<26} {:>10.3} ms per {unit}   (intercept {:.3} s)",
                k.name(),
                slope * 1e3,
                intercept
            );
        }
    }
}

/// `buf`'s physical limits (measured now) and the first contender's median against them.
fn print_limits(p: &BufParams, ks: &[Contender<Setup>], result: &Comparison, c: &Common) {
    let g = flow_settings(c).scheduler().geometry();
    let l = BufLimits::measure(p.pipes, p.stages, p.samples, &g);
    let cpus = l.cpus;
    println!(
        "physical limit: in-cache memcpy {:.1} GB/s per core (measured now); {} copies of {:e} f32 on {cpus} cores take at least {:.3e} s",
        l.bandwidth / 1e9, p.pipes * p.stages, p.samples as f64, l.floor_s
    );
    let against = |limit: f64, which: &str| {
        if let (Some(k), Some(median)) = (ks.first(), result.last_median(0)) {
            println!("  {}: {:.2}x {which}", k.name(), median / limit);
        }
    };
    against(l.floor_s, "the limit");
    println!(
        "  with all {cpus} cores copying at once: {:.1} GB/s per core, at least {:.3e} s",
        l.all_cores_bandwidth / 1e9,
        l.all_cores_floor_s
    );
    against(l.all_cores_floor_s, "that limit");
    println!(
        "layout limit: the same copies with no runtime, {} B chunks through {}, depth-first, on {} threads: {:.3e} s ({:.2}x the limit)",
        g.chunk_bytes, l.memory(), g.workers, l.layout_s, l.layout_s / l.floor_s
    );
    let flow = ks
        .iter()
        .position(|k| k.runtime == "radioflow" && k.label == "flow");
    if let Some(median) = flow.and_then(|i| result.last_median(i)) {
        println!(
            "  radioflow flow: {:.2}x the layout limit",
            median / l.layout_s
        );
    }
}
