//! What a probe costs the graph it watches: `tone -> head -> gain -> sink`, run with and
//! without a probe on `head.out` (default config: 1024 samples every 50 ms), alternated run by
//! run; prints each configuration's median throughput, the difference, and the probe block's
//! share of all time in work (timed counters).
//!
//! The probe sits after `head`, not on `tone.out`: a probe is a reader like any other, and a
//! live reader keeps its writer running (the upstream rule), so a probe on an endless source's
//! output would keep the source, and the run, going after `head` finished.
//!
//! `cargo run --release -p radioflow-control --example probe_cost [SAMPLES] [RUNS] [SCHEDULER]`
//! (SCHEDULER as the command line's `--scheduler`: `flow` by default, `tpb`, `single`, ...).

use radioflow_blocks::{Head, MultiplyConst, NullSink, SignalSource, Waveform};
use radioflow_control::{add_probe, ProbeConfig};
use radioflow_runtime::prelude::*;
use radioflow_runtime::{BlockId, Counters, Flowgraph, SchedulerSpec};
use std::time::Instant;

fn run(samples: u64, probe: bool, scheduler: &SchedulerSpec) -> (f64, f64) {
    let mut fg = Flowgraph::new();
    let tone = fg.add_named(
        "tone",
        SignalSource::<Complex32>::new(Waveform::Sine, 1e3, 48e3, 1.0, Complex32::default()),
    );
    let head = fg.add_named("head", Head::<Complex32>::new(samples));
    let gain = fg.add(MultiplyConst::new(Complex32::new(0.5, 0.0)));
    let sink = fg.add(NullSink::<Complex32>::new());
    fg.connect(tone, head).unwrap();
    fg.connect(head, gain).unwrap();
    fg.connect(gain, sink).unwrap();
    let probe = probe.then(|| add_probe(&mut fg, "head.out", ProbeConfig::default()).unwrap());
    fg.set_counters(Counters::Timed);
    let t0 = Instant::now();
    fg.start(scheduler.build().as_ref()).unwrap();
    fg.wait().unwrap();
    let rate = samples as f64 / t0.elapsed().as_secs_f64();
    let total: u64 = (0..fg.len())
        .filter_map(|i| fg.stats(BlockId::from_index(i)).map(|s| s.work_ns))
        .sum();
    let share = probe.map_or(0.0, |p| {
        fg.stats(p.block).map_or(0.0, |s| s.work_ns as f64) / total as f64
    });
    (rate, share)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let samples: u64 = args
        .next()
        .and_then(|s| s.parse::<f64>().ok())
        .map_or(100_000_000, |v| v as u64);
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(7);
    let spec: SchedulerSpec = args
        .next()
        .unwrap_or_else(|| "flow".into())
        .parse()
        .expect("a scheduler spec: flow, tpb, single, flow:workers=1, ...");
    let (mut without, mut with, mut shares) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        without.push(run(samples, false, &spec).0);
        let (rate, share) = run(samples, true, &spec);
        with.push(rate);
        shares.push(share);
    }
    let (a, b) = (median(without), median(with));
    println!("{samples} samples, {runs} runs each, alternated, scheduler {spec}");
    println!("without probe: {:.1} Msamples/s (median)", a / 1e6);
    println!("with probe:    {:.1} Msamples/s (median)", b / 1e6);
    println!("throughput change: {:+.2} %", 100.0 * (b - a) / a);
    println!(
        "probe's share of all time in work: {:.3} % (median)",
        100.0 * median(shares)
    );
}
