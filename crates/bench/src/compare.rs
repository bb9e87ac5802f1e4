//! `bench buf`, `bench msg` and `bench opti` (and `bench` alone): each experiment on the chosen
//! radioflow schedulers and peers, alternated run by run; with a sweep, the cost per block as
//! the slope of the median run time against the graph's size.

use super::{flags, plot, Contender, OnRun, Plotted, Progress, Skipped};
use crate::plot::{Chart, Series};
use crate::stats::{linear_fit, summarize, Summary};
use crate::{buf, msg, opti, BenchError, BufParams, Measurement, MsgParams, OptiParams, Peer};
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

    /// The title and x axis of a sweep's plot (after the seed's figures).
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
/// the seed's manual optimisation on thread-per-block; then each peer's configurations (a peer
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
    for (peer, bin) in super::built_peers(peers, skipped) {
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
                    line: &super::json_line(&m),
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

/// Draws a sweep like the seed's figures: median run time against the graph size, one line per
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
    super::create_dir(dir)?;
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
