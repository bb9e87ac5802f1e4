//! `bench buf`, `bench msg` and `bench opti` (and `bench` alone): each experiment on the chosen
//! radioflow schedulers and peers, alternated run by run; with a sweep, the cost per block as
//! the slope of the median run time against the graph's size; for `buf`, the physical limits.

use crate::buf::{self, BufParams};
use crate::common::Common;
use crate::contender::{built_peers, flags, warn, Contender, Skipped};
use crate::limit::BufLimits;
use crate::machine::Machine;
use crate::measurement::{BenchError, Measurement};
use crate::msg::{self, MsgParams};
use crate::opti::{self, OptiParams};
use crate::peers::Peer;
use crate::plot::{Chart, Series};
use crate::progress::{OnRun, Progress, Ticker};
use crate::results::{create_dir, json_line, jsonl, plot, report_plots, save, Plotted};
use crate::stats::{linear_fit, summarize, Summary};
use radioflow_runtime::SchedulerSpec;
use std::path::Path;
use std::sync::Arc;

/// Sizes of a sweep: P = S (buf, msg) or S (opti).
pub const SWEEP: [usize; 6] = [1, 2, 5, 10, 15, 20];

/// One experiment with its parameters.
#[derive(Clone, Copy, Debug)]
pub enum Setup {
    /// Stream benchmark.
    Buf(BufParams),
    /// Message benchmark.
    Msg(MsgParams),
    /// Independent branches.
    Opti(OptiParams),
}

impl Setup {
    /// `buf 10x10 1e8`, ...
    pub fn label(&self) -> String {
        match self {
            Setup::Buf(p) => format!("buf {}x{} {:e}", p.pipes, p.stages, p.samples as f64),
            Setup::Msg(p) => format!("msg {}x{} burst {}", p.pipes, p.stages, p.burst),
            Setup::Opti(p) => format!("opti {}x{} {:e}", p.pipes, p.stages, p.samples as f64),
        }
    }

    /// `buf`, `msg` or `opti`.
    pub fn experiment(&self) -> &'static str {
        match self {
            Setup::Buf(_) => "buf",
            Setup::Msg(_) => "msg",
            Setup::Opti(_) => "opti",
        }
    }

    /// Blocks whose cost the sweep's slope measures (P x S, or S for opti).
    pub fn size(&self) -> usize {
        match self {
            Setup::Buf(p) => p.pipes * p.stages,
            Setup::Msg(p) => p.pipes * p.stages,
            Setup::Opti(p) => p.stages,
        }
    }

    /// What the sweep's slope is per: `stage` (opti) or `block (P x S)`.
    pub fn size_unit(&self) -> &'static str {
        match self {
            Setup::Opti(_) => "stage",
            _ => "block (P x S)",
        }
    }

    /// The same experiment with at most 1e5 samples or 100 messages (`--quick`).
    pub fn shrunk(&self) -> Setup {
        match *self {
            Setup::Buf(p) => Setup::Buf(BufParams {
                samples: p.samples.min(100_000),
                ..p
            }),
            Setup::Msg(p) => Setup::Msg(MsgParams {
                burst: p.burst.min(100),
                ..p
            }),
            Setup::Opti(p) => Setup::Opti(OptiParams {
                samples: p.samples.min(100_000),
                ..p
            }),
        }
    }

    /// The same experiment with P = S = n (buf, msg) or S = n (opti).
    pub fn resized(&self, n: usize) -> Setup {
        match *self {
            Setup::Buf(p) => Setup::Buf(BufParams {
                pipes: n,
                stages: n,
                ..p
            }),
            Setup::Msg(p) => Setup::Msg(MsgParams {
                pipes: n,
                stages: n,
                ..p
            }),
            Setup::Opti(p) => Setup::Opti(OptiParams { stages: n, ..p }),
        }
    }

    /// The setups one invocation measures: this one, or with `sweep` one per size of
    /// [`SWEEP`] (its first three with `quick`).
    pub fn sizes(&self, sweep: bool, quick: bool) -> Vec<Setup> {
        if !sweep {
            return vec![*self];
        }
        let sizes: &[usize] = if quick { &SWEEP[..3] } else { &SWEEP };
        sizes.iter().map(|&n| self.resized(n)).collect()
    }

    /// One run on radioflow.
    ///
    /// # Errors
    ///
    /// The graph failed to build or run.
    pub fn run(&self, s: &dyn radioflow_runtime::Scheduler) -> Result<Measurement, BenchError> {
        match self {
            Setup::Buf(p) => buf::run(p, s),
            Setup::Msg(p) => msg::run(p, s),
            Setup::Opti(p) => opti::run(p, s),
        }
    }

    /// The experiment's arguments for a peer program.
    fn peer_args(&self) -> Vec<String> {
        match self {
            Setup::Buf(p) => flags(&[
                ("pipes", p.pipes.to_string()),
                ("stages", p.stages.to_string()),
                ("samples", p.samples.to_string()),
            ]),
            Setup::Msg(p) => flags(&[
                ("pipes", p.pipes.to_string()),
                ("stages", p.stages.to_string()),
                ("burst", p.burst.to_string()),
            ]),
            Setup::Opti(p) => flags(&[
                ("pipes", p.pipes.to_string()),
                ("stages", p.stages.to_string()),
                ("samples", p.samples.to_string()),
            ]),
        }
    }

    /// The title and x axis of a sweep's plot (after the paper's figures).
    fn sweep_axes(&self) -> (String, &'static str) {
        match self {
            Setup::Buf(p) => (
                format!(
                    "buf (seed Fig. 3): P pipes x S stages, P = S, {:e} samples",
                    p.samples as f64
                ),
                "blocks P x S",
            ),
            Setup::Msg(p) => (
                format!(
                    "msg (seed Fig. 2): P pipes x S stages, P = S, burst {}",
                    p.burst
                ),
                "blocks P x S",
            ),
            Setup::Opti(p) => (
                format!(
                    "opti (seed Fig. 8): {} pipes x S copies, {:e} samples each",
                    p.pipes, p.samples as f64
                ),
                "stages S",
            ),
        }
    }
}

/// The contenders of `experiment`: every scheduler of `schedulers`; for opti with `tuned_tpb`
/// the paper's manual optimisation on thread-per-block; then each peer's configurations (a peer
/// that cannot be built is left out, saying why in `skipped`).
pub fn contenders(
    experiment: &str,
    schedulers: &[SchedulerSpec],
    tuned_tpb: bool,
    peers: &[Peer],
    realtime: bool,
    skipped: &mut Vec<Skipped>,
) -> Vec<Contender<Setup>> {
    let mut out = Vec::new();
    for spec in schedulers {
        let s: Arc<dyn radioflow_runtime::Scheduler> = spec.build().into();
        out.push(Contender {
            label: s.name().to_owned(),
            runtime: "radioflow".into(),
            run: Box::new(move |setup: &Setup| setup.run(s.as_ref())),
        });
    }
    if experiment == "opti" && tuned_tpb {
        let l1_items = radioflow_runtime::l1d_bytes() / 4;
        out.push(Contender {
            label: "tpb tuned".into(),
            runtime: "radioflow".into(),
            run: Box::new(move |setup| match setup {
                Setup::Opti(p) => {
                    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
                    opti::run_limited(p, &opti::tuned_tpb(p, cpus), Some(l1_items))
                }
                _ => unreachable!("tpb tuned is an opti configuration"),
            }),
        });
    }
    for (peer, bin) in built_peers(peers, skipped) {
        for (label, extra) in peer.configurations(experiment, realtime) {
            let bin = bin.clone();
            out.push(Contender {
                label,
                runtime: peer.name().into(),
                run: Box::new(move |setup| {
                    let mut args = setup.peer_args();
                    args.extend(extra.iter().cloned());
                    peer.run(&bin, setup.experiment(), &args)
                }),
            });
        }
    }
    out
}

/// One setup on one contender.
#[derive(Clone, Debug)]
pub struct Row {
    /// The setup's label.
    pub setup: String,
    /// The contender's runtime.
    pub runtime: String,
    /// The contender's scheduler or configuration.
    pub scheduler: String,
    /// Run times (s).
    pub summary: Summary,
    /// Median over the first contender's median (> 1: the first one is faster).
    pub ratio: f64,
    /// Every run delivered every item or message.
    pub verified: bool,
}

/// The runs of some setups on every contender.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// One per setup and contender, setup by setup.
    pub rows: Vec<Row>,
    /// Per contender, (setup size, median run time) per setup.
    pub medians: Vec<Vec<(f64, f64)>>,
    /// Every run, in the order they ran.
    pub runs: Vec<Measurement>,
}

/// summary.csv's header.
pub const CSV_HEADER: &str =
    "experiment,runtime,scheduler,runs,median_s,mean_s,ci95_s,min_s,max_s,ratio_to_first,verified\n";

impl Comparison {
    /// Every run verified.
    pub fn verified(&self) -> bool {
        self.rows.iter().all(|r| r.verified)
    }

    /// Contender `i`'s median on the last setup.
    pub fn last_median(&self, i: usize) -> Option<f64> {
        self.medians.get(i)?.last().map(|&(_, m)| m)
    }

    /// Per contender, the slope and intercept of its median run time against the setups'
    /// sizes (none where fewer than two sizes ran).
    pub fn slopes(&self) -> Vec<Option<(f64, f64)>> {
        self.medians.iter().map(|pts| linear_fit(pts)).collect()
    }

    /// summary.csv's rows.
    pub fn csv_rows(&self) -> String {
        self.rows
            .iter()
            .map(|r| {
                let sm = &r.summary;
                format!(
                    "{},{},{},{},{},{},{},{},{},{},{}\n",
                    r.setup,
                    r.runtime,
                    r.scheduler,
                    sm.n,
                    sm.median,
                    sm.mean,
                    sm.ci95,
                    sm.min,
                    sm.max,
                    r.ratio,
                    r.verified
                )
            })
            .collect()
    }
}

/// Runs every setup `runs` times on every contender, alternating contenders run by run.
///
/// # Errors
///
/// A run failed (a graph error or a peer that failed).
pub fn measure(
    setups: &[Setup],
    contenders: &[Contender<Setup>],
    runs: usize,
    on_run: OnRun<'_>,
) -> Result<Comparison, BenchError> {
    let mut c = Comparison {
        rows: Vec::new(),
        medians: vec![Vec::new(); contenders.len()],
        runs: Vec::new(),
    };
    let total = setups.len() * runs * contenders.len();
    for setup in setups {
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); contenders.len()];
        let mut verified = vec![true; contenders.len()];
        for _ in 0..runs {
            for (i, k) in contenders.iter().enumerate() {
                let m = (k.run)(setup)?;
                on_run(&Progress {
                    done: c.runs.len() + 1,
                    total,
                    what: format!("{} {}", setup.label(), k.name()),
                    line: &json_line(&m),
                });
                verified[i] &= m.verified;
                times[i].push(m.seconds);
                c.runs.push(m);
            }
        }
        let summaries: Vec<Summary> = times
            .iter()
            .map(|t| summarize(t).expect("runs >= 1"))
            .collect();
        for (i, k) in contenders.iter().enumerate() {
            c.medians[i].push((setup.size() as f64, summaries[i].median));
            c.rows.push(Row {
                setup: setup.label(),
                runtime: k.runtime.clone(),
                scheduler: k.label.clone(),
                summary: summaries[i],
                ratio: summaries[i].median / summaries[0].median,
                verified: verified[i],
            });
        }
    }
    Ok(c)
}

/// Draws a sweep like the paper's figures: median run time against the graph size, one line per
/// contender, as `<dir>/<experiment>-sweep.{svg,png}`.
///
/// # Errors
///
/// `dir` cannot be created.
pub fn sweep_plot(
    dir: &Path,
    setups: &[Setup],
    contenders: &[Contender<Setup>],
    c: &Comparison,
) -> Result<Option<Plotted>, BenchError> {
    let Some(first) = setups.first() else {
        return Ok(None);
    };
    create_dir(dir)?;
    let series: Vec<Series> = contenders
        .iter()
        .zip(&c.medians)
        .map(|(k, pts)| Series {
            label: k.name(),
            points: pts.clone(),
        })
        .collect();
    let (title, x_label) = first.sweep_axes();
    let chart = Chart {
        title: &title,
        x_label,
        y_label: "median run time (s)",
        log_x: false,
        series: &series,
    };
    let stem = dir.join(format!("{}-sweep", first.experiment()));
    Ok(Some(plot(stem, &chart)))
}

/// `bench` alone: every stream and message experiment at a size that takes seconds (the
/// README's demo), or a tiny one with `--quick`.
pub(crate) fn demo(quick: bool) -> Vec<Setup> {
    if quick {
        let buf = BufParams {
            pipes: 3,
            stages: 3,
            samples: 100_000,
        };
        let msg = MsgParams {
            pipes: 3,
            stages: 3,
            burst: 100,
        };
        let opti = OptiParams {
            pipes: 4,
            stages: 3,
            samples: 100_000,
        };
        return vec![Setup::Buf(buf), Setup::Msg(msg), Setup::Opti(opti)];
    }
    let buf = BufParams {
        pipes: 10,
        stages: 10,
        samples: 10_000_000,
    };
    let msg = MsgParams {
        pipes: 10,
        stages: 10,
        burst: 1000,
    };
    vec![Setup::Buf(buf), Setup::Msg(msg)]
}

/// Measures every setup (each one's sweep with `--sweep`) and prints each one's table.
pub(crate) fn bench(base: Vec<Setup>, c: &Common) -> Result<(), BenchError> {
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let specs = c.schedulers()?;
    let peers = c.peers("gnuradio, futuresdr")?;
    // The paper's manual optimisation of opti, on radioflow's thread-per-block scheduler.
    let tuned_tpb = c.scheduler == "all" || c.scheduler.split(',').any(|n| n.trim() == "tpb");
    let mut all_verified = true;
    let mut runs = Vec::new();
    let mut csv = String::from(CSV_HEADER);
    for setup in base {
        let setup = if c.quick { setup.shrunk() } else { setup };
        let setups = setup.sizes(c.sweep, c.quick);
        let mut skipped = Vec::new();
        let experiment = setup.experiment();
        let ks = contenders(
            experiment,
            &specs,
            tuned_tpb,
            &peers,
            c.realtime,
            &mut skipped,
        );
        warn(skipped);
        let mut ticker = Ticker::new(c, 4);
        let result = measure(&setups, &ks, c.runs, &mut |p| ticker.show(p))?;
        all_verified &= result.verified();
        csv.push_str(&result.csv_rows());
        runs.extend(result.runs.iter().cloned());
        if let (true, Some(dir)) = (c.sweep, &c.out) {
            report_plots(sweep_plot(dir, &setups, &ks, &result)?);
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
        save(dir, &jsonl(&runs), &csv)?;
    }
    if !all_verified {
        return Err(BenchError::Unverified(
            "some runs lost items or messages".into(),
        ));
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
    let g = c.flow_settings().scheduler().geometry();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn quick_buf() -> Setup {
        Setup::Buf(BufParams {
            pipes: 10,
            stages: 10,
            samples: 100_000_000,
        })
        .shrunk()
    }

    #[test]
    fn a_sweep_resizes_the_setup_and_its_slope_is_the_cost_per_block() {
        let sizes: Vec<usize> = quick_buf()
            .sizes(true, true)
            .iter()
            .map(Setup::size)
            .collect();
        assert_eq!(sizes, [1, 4, 25]);
        let opti = Setup::Opti(OptiParams {
            pipes: 4,
            stages: 10,
            samples: 1000,
        });
        let sizes: Vec<usize> = opti.sizes(true, false).iter().map(Setup::size).collect();
        assert_eq!(sizes, SWEEP);
        assert_eq!(quick_buf().sizes(false, true).len(), 1);
        // A contender whose run time grows 2 ms per block from 1 ms.
        let c = Comparison {
            rows: Vec::new(),
            medians: vec![[1.0, 4.0, 25.0].map(|x| (x, 0.001 + 0.002 * x)).to_vec()],
            runs: Vec::new(),
        };
        let (slope, intercept) = c.slopes()[0].unwrap();
        assert!((slope - 0.002).abs() < 1e-12 && (intercept - 0.001).abs() < 1e-12);
        assert!((c.last_median(0).unwrap() - 0.051).abs() < 1e-12);
    }

    #[test]
    fn a_comparison_runs_every_setup_on_every_contender_and_verifies() {
        let setups = [
            quick_buf().resized(2),
            Setup::Msg(MsgParams {
                pipes: 2,
                stages: 2,
                burst: 10,
            }),
        ];
        let specs = SchedulerSpec::parse_list("single,flow:workers=1").unwrap();
        let ks = contenders("buf", &specs, true, &[], false, &mut Vec::new());
        assert_eq!(ks.len(), 2, "no tuned tpb outside opti");
        let mut seen = Vec::new();
        let c = measure(&setups, &ks, 2, &mut |p| seen.push((p.done, p.total))).unwrap();
        assert_eq!(seen, (1..=8).map(|d| (d, 8)).collect::<Vec<_>>());
        assert_eq!(c.runs.len(), 8);
        assert_eq!(c.rows.len(), 4);
        assert!(c.verified());
        assert_eq!(c.rows[0].ratio, 1.0);
        assert_eq!(c.csv_rows().lines().count(), 4);
        assert_eq!(
            c.medians[1].iter().map(|p| p.0).collect::<Vec<_>>(),
            [4.0, 4.0]
        );
    }
}
