//! `radioflow bench ...`

use crate::bench_profile::{profile, Profile};
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use radioflow_bench::limit::{
    buf_floor_seconds, chain_layout_seconds, memcpy_bandwidth, memcpy_bandwidth_all_cores,
};
use radioflow_bench::plot::{line_chart, Chart, Series};
use radioflow_bench::stats::{linear_fit, summarize};
use radioflow_bench::{
    buf, msg, opti, BufParams, Machine, Measurement, MsgParams, OptiParams, Peer,
};
use radioflow_runtime::{FlowSettings, Scheduler, SchedulerSpec};

/// Bytes of each of the two buffers the in-cache memcpy limit copies between (they stay in L1).
const MEMCPY_CHUNK_BYTES: usize = 8192;

#[derive(Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    experiment: Option<Experiment>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Clone)]
struct Common {
    /// Scheduler(s) to measure, comma separated (specs such as `flow:workers=2,pin,tpb`), or
    /// `all`.
    #[arg(long, global = true, default_value = "all")]
    scheduler: String,
    /// Runs per scheduler (alternated between schedulers run by run).
    #[arg(long, global = true, default_value_t = 5)]
    runs: usize,
    /// Print one JSON object per measured run instead of a table.
    #[arg(long, global = true)]
    json: bool,
    /// Run scheduler threads at real-time priority (SCHED_FIFO 50) where permitted.
    #[arg(long, global = true)]
    realtime: bool,
    /// Peers to measure side by side, comma separated: gnuradio, futuresdr.
    #[arg(long, global = true)]
    compare: Vec<String>,
    /// flow: worker threads (default: one per CPU).
    #[arg(long, global = true)]
    workers: Option<usize>,
    /// flow: pin worker i to CPU i.
    #[arg(long, global = true)]
    pin: bool,
    /// flow: bytes a block writes per output per work call (default: an eighth of L2).
    #[arg(long, global = true)]
    chunk_bytes: Option<usize>,
    /// flow: buffer bytes per connection (default: 2 chunks).
    #[arg(long, global = true)]
    buffer_bytes: Option<usize>,
    /// flow: keep the placement made at start (no chain hand-over to idle workers).
    #[arg(long, global = true)]
    no_balance: bool,
    /// flow: every connection in its own ring only (no chunk-sized regions borrowed down a
    /// chain).
    #[arg(long, global = true)]
    no_regions: bool,
    /// flow: copies into a connection read on another worker use ordinary stores (not
    /// non-temporal ones).
    #[arg(long, global = true)]
    no_streaming_stores: bool,
    /// Sweep the size: P = S in 1, 2, 5, 10, 15, 20 (buf, msg) or S in the same list (opti),
    /// and report the cost per block as a regression slope.
    #[arg(long, global = true)]
    sweep: bool,
    /// Every experiment (or the one named) at a tiny size, one run each: proves they run and
    /// verify (used by the test suite).
    #[arg(long, global = true)]
    quick: bool,
    /// Also write the results to this folder: runs.jsonl (every run), summary.csv (per
    /// experiment and configuration), machine.json.
    #[arg(long, global = true)]
    out: Option<std::path::PathBuf>,
}

/// Size of the `buf` graph (also profiled by `resched` and `items`).
#[derive(Args, Clone, Copy)]
struct BufArgs {
    #[arg(long, default_value_t = 10)]
    pipes: usize,
    #[arg(long, default_value_t = 10)]
    stages: usize,
    /// Samples through the head block (accepts 1e8).
    #[arg(long, default_value = "1e8", value_parser = parse_count)]
    samples: u64,
}

impl From<BufArgs> for BufParams {
    fn from(a: BufArgs) -> Self {
        BufParams {
            pipes: a.pipes,
            stages: a.stages,
            samples: a.samples,
        }
    }
}

#[derive(Subcommand)]
enum Experiment {
    /// Stream benchmark: null source -> head(N) -> P chains of S copy blocks -> null sinks.
    Buf(BufArgs),
    /// Message benchmark: a burst of 500-byte messages -> forwarder -> P chains of S forwarders.
    Msg {
        #[arg(long, default_value_t = 10)]
        pipes: usize,
        #[arg(long, default_value_t = 10)]
        stages: usize,
        /// Messages in the burst (accepts 1e3).
        #[arg(long, default_value = "1000", value_parser = parse_count)]
        burst: u64,
    },
    /// Seed Fig. 5: voluntary and involuntary context switches per thread during `buf`
    /// (`--compare gnuradio`: GNU Radio's block threads too).
    Resched(BufArgs),
    /// Seed Fig. 6: log2 histogram of items produced per copy-block work call during `buf`
    /// (`--compare gnuradio`: GNU Radio's copy blocks too).
    Items(BufArgs),
    /// Seed Fig. 8: independent branches (own source + head(N) + S copies + sink each).
    Opti {
        #[arg(long, default_value_t = 4)]
        pipes: usize,
        #[arg(long, default_value_t = 10)]
        stages: usize,
        /// Samples per branch (accepts 1e8).
        #[arg(long, default_value = "1e8", value_parser = parse_count)]
        samples: u64,
    },
    /// Seed 004: cost of the per-block counters (compiled out / off / on, affinity off / on) on
    /// null source -> head -> FIR(s) -> null sink; `--compare gnuradio` for its perf counters.
    Counters(crate::bench_observe::CountersArgs),
    /// Seed 002: delivered / required sample rate ("signal quality") against the work per
    /// packet, threads inside a block vs chained blocks, all cores vs one, single-threaded.
    Workload(crate::bench_observe::WorkloadArgs),
    /// One `counters` configuration (run by `bench counters` in a child process).
    #[command(hide = true)]
    CountersRun(crate::bench_observe::CountersRunArgs),
    /// Seed 003 Table 1 / Fig. 5: overhead of framed execution per task (MB1-MB4).
    Tasks(crate::bench_framed::TasksArgs),
    /// Seed 003 Fig. 11: framed pipeline, copy vs copy-less adaptors, heavy stage duplicated.
    Pipeline(crate::bench_framed::PipelineArgs),
}

pub(crate) fn parse_count(s: &str) -> Result<u64, String> {
    let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if !(v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= u64::MAX as f64) {
        return Err(format!("'{s}' is not a whole non-negative count"));
    }
    Ok(v as u64)
}

/// `spec` with the command line's scheduler flags applied (`--workers`, `--pin`, ... to
/// `flow`, `--realtime` to `tpb`).
fn with_flags(mut spec: SchedulerSpec, c: &Common) -> SchedulerSpec {
    match &mut spec {
        SchedulerSpec::Flow(f) => {
            f.workers = c.workers.or(f.workers);
            f.chunk_bytes = c.chunk_bytes.or(f.chunk_bytes);
            f.buffer_bytes = c.buffer_bytes.or(f.buffer_bytes);
            f.pin |= c.pin;
            f.balance &= !c.no_balance;
            f.regions &= !c.no_regions;
            f.streaming_stores &= !c.no_streaming_stores;
        }
        SchedulerSpec::ThreadPerBlock { realtime } => *realtime |= c.realtime,
        SchedulerSpec::Single => {}
    }
    spec
}

/// The `flow` scheduler's settings from the command line.
fn flow_settings(c: &Common) -> FlowSettings {
    match with_flags(SchedulerSpec::default(), c) {
        SchedulerSpec::Flow(f) => f,
        _ => unreachable!("the default spec is flow"),
    }
}

/// The schedulers `--scheduler` names (specs such as `flow:workers=2,tpb`), with the flags.
fn schedulers(c: &Common) -> anyhow::Result<Vec<Box<dyn Scheduler>>> {
    Ok(SchedulerSpec::parse_list(&c.scheduler)?
        .into_iter()
        .map(|s| with_flags(s, c).build())
        .collect())
}

/// One experiment with its parameters.
#[derive(Clone, Copy)]
enum Setup {
    Buf(BufParams),
    Msg(MsgParams),
    Opti(OptiParams),
}

impl Setup {
    fn label(&self) -> String {
        match self {
            Setup::Buf(p) => format!("buf {}x{} {:e}", p.pipes, p.stages, p.samples as f64),
            Setup::Msg(p) => format!("msg {}x{} burst {}", p.pipes, p.stages, p.burst),
            Setup::Opti(p) => format!("opti {}x{} {:e}", p.pipes, p.stages, p.samples as f64),
        }
    }

    fn experiment(&self) -> &'static str {
        match self {
            Setup::Buf(_) => "buf",
            Setup::Msg(_) => "msg",
            Setup::Opti(_) => "opti",
        }
    }

    /// Blocks whose cost the sweep's slope measures (P x S, or S for opti).
    fn size(&self) -> usize {
        match self {
            Setup::Buf(p) => p.pipes * p.stages,
            Setup::Msg(p) => p.pipes * p.stages,
            Setup::Opti(p) => p.stages,
        }
    }

    /// The same experiment with at most 1e5 samples or 100 messages.
    fn shrunk(&self) -> Setup {
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
    fn resized(&self, n: usize) -> Setup {
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

    fn run(&self, s: &dyn Scheduler) -> anyhow::Result<Measurement> {
        Ok(match self {
            Setup::Buf(p) => buf::run(p, s)?,
            Setup::Msg(p) => msg::run(p, s)?,
            Setup::Opti(p) => opti::run(p, s)?,
        })
    }

    /// The experiment name and arguments for a peer program.
    fn peer_args(&self) -> (&'static str, Vec<String>) {
        let flags = |pairs: &[(&str, String)]| -> Vec<String> {
            pairs
                .iter()
                .flat_map(|(k, v)| [format!("--{k}"), v.clone()])
                .collect()
        };
        let args = match self {
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
        };
        (self.experiment(), args)
    }
}

/// Runs one measured run of a setup.
type RunFn = Box<dyn Fn(&Setup) -> anyhow::Result<Measurement>>;

/// Something measured in a run: a radioflow scheduler or a peer configuration.
struct Contender {
    label: String,
    runtime: String,
    run: RunFn,
}

fn contenders(c: &Common, experiment: &str) -> anyhow::Result<Vec<Contender>> {
    let mut out = Vec::new();
    for s in schedulers(c)? {
        let label = s.name().to_owned();
        let s: std::sync::Arc<dyn Scheduler> = s.into();
        out.push(Contender {
            label,
            runtime: "radioflow".into(),
            run: Box::new(move |setup| setup.run(s.as_ref())),
        });
    }
    let wants_tpb = c.scheduler == "all" || c.scheduler.split(',').any(|n| n.trim() == "tpb");
    if experiment == "opti" && wants_tpb {
        // The seed's manual optimisation, on radioflow's thread-per-block scheduler.
        let l1_items = radioflow_runtime::l1d_bytes() / 4;
        out.push(Contender {
            label: "tpb tuned".into(),
            runtime: "radioflow".into(),
            run: Box::new(move |setup| match setup {
                Setup::Opti(p) => {
                    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
                    Ok(opti::run_limited(
                        p,
                        &opti::tuned_tpb(p, cpus),
                        Some(l1_items),
                    )?)
                }
                _ => unreachable!("tpb tuned is an opti configuration"),
            }),
        });
    }
    for name in c.compare.iter().flat_map(|s| s.split(',')).map(str::trim) {
        let peer = Peer::from_name(name)
            .with_context(|| format!("unknown peer '{name}' (known: gnuradio, futuresdr)"))?;
        let bin = match peer.ensure_built() {
            Ok(b) => b,
            Err(e) => {
                eprintln!("radioflow: {e}; comparing without it");
                continue;
            }
        };
        for (label, extra) in peer.configurations(experiment, c.realtime) {
            let bin = bin.clone();
            out.push(Contender {
                label,
                runtime: peer.name().into(),
                run: Box::new(move |setup| {
                    let (exp, mut args) = setup.peer_args();
                    args.extend(extra.iter().cloned());
                    Ok(peer.run(&bin, exp, &args)?)
                }),
            });
        }
    }
    Ok(out)
}

/// Sizes of a sweep (`--sweep`).
const SWEEP: [usize; 6] = [1, 2, 5, 10, 15, 20];

pub(crate) fn main(args: BenchArgs) -> anyhow::Result<()> {
    let mut c = args.common;
    if c.runs == 0 {
        bail!("--runs must be at least 1");
    }
    if c.quick {
        c.runs = 1;
    }
    let observe = || crate::bench_observe::Opts {
        runs: c.runs,
        json: c.json,
        quick: c.quick,
        compare: c.compare.clone(),
        scheduler: c.scheduler.clone(),
        out: c.out.clone(),
    };
    let base: Vec<Setup> = match args.experiment {
        Some(Experiment::Counters(a)) => return crate::bench_observe::counters_main(a, observe()),
        Some(Experiment::Workload(a)) => return crate::bench_observe::workload_main(a, observe()),
        Some(Experiment::CountersRun(a)) => {
            return crate::bench_observe::counters_run(a, &c.scheduler)
        }
        Some(Experiment::Tasks(a)) => {
            return crate::bench_framed::tasks(a, c.runs, c.json, c.quick)
        }
        Some(Experiment::Pipeline(a)) => {
            return crate::bench_framed::pipeline(a, c.runs, c.json, c.quick)
        }
        Some(Experiment::Resched(a)) => return profile(Profile::Resched, a.into(), &observe()),
        Some(Experiment::Items(a)) => return profile(Profile::Items, a.into(), &observe()),
        Some(Experiment::Buf(a)) => vec![Setup::Buf(a.into())],
        Some(Experiment::Msg {
            pipes,
            stages,
            burst,
        }) => {
            vec![Setup::Msg(MsgParams {
                pipes,
                stages,
                burst: burst as usize,
            })]
        }
        Some(Experiment::Opti {
            pipes,
            stages,
            samples,
        }) => {
            vec![Setup::Opti(OptiParams {
                pipes,
                stages,
                samples,
            })]
        }
        None if c.quick => vec![
            Setup::Buf(BufParams {
                pipes: 3,
                stages: 3,
                samples: 100_000,
            }),
            Setup::Msg(MsgParams {
                pipes: 3,
                stages: 3,
                burst: 100,
            }),
            Setup::Opti(OptiParams {
                pipes: 4,
                stages: 3,
                samples: 100_000,
            }),
        ],
        // The README's demo: every experiment at a size that takes seconds.
        None => vec![
            Setup::Buf(BufParams {
                pipes: 10,
                stages: 10,
                samples: 10_000_000,
            }),
            Setup::Msg(MsgParams {
                pipes: 10,
                stages: 10,
                burst: 1000,
            }),
        ],
    };
    if !c.json {
        println!("machine: {}", Machine::detect());
    }
    let mut all_verified = true;
    let mut all_runs: Vec<Measurement> = Vec::new();
    let mut csv = String::from(
        "experiment,runtime,scheduler,runs,median_s,mean_s,ci95_s,min_s,max_s,ratio_to_first,verified\n",
    );
    for setup in base {
        let setup = if c.quick { setup.shrunk() } else { setup };
        let setups: Vec<Setup> = if c.sweep {
            let sizes: &[usize] = if c.quick { &SWEEP[..3] } else { &SWEEP };
            sizes.iter().map(|&n| setup.resized(n)).collect()
        } else {
            vec![setup]
        };
        let contenders = contenders(&c, setup.experiment())?;
        let mut medians: Vec<Vec<(f64, f64)>> = vec![Vec::new(); contenders.len()];
        let mut table = Vec::new();
        let total = setups.len() * c.runs * contenders.len();
        let mut done = 0;
        for setup in &setups {
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); contenders.len()];
            let mut verified = vec![true; contenders.len()];
            // Alternate contenders run by run, so drift on a shared machine hits all alike.
            for _ in 0..c.runs {
                for (i, k) in contenders.iter().enumerate() {
                    let m = (k.run)(setup)?;
                    all_runs.push(m.clone());
                    done += 1;
                    if c.json {
                        println!("{}", serde_json::to_string(&m)?);
                    } else if total > 4 {
                        eprint!(
                            "\r[{done}/{total}] {} {} {}      ",
                            setup.label(),
                            k.runtime,
                            k.label
                        );
                    }
                    verified[i] &= m.verified;
                    times[i].push(m.seconds);
                }
            }
            let summaries: Vec<_> = times
                .iter()
                .map(|t| summarize(t).expect("runs >= 1"))
                .collect();
            for (i, k) in contenders.iter().enumerate() {
                all_verified &= verified[i];
                medians[i].push((setup.size() as f64, summaries[i].median));
                // Ratio against the first radioflow scheduler: > 1 means radioflow is faster.
                let ratio = summaries[i].median / summaries[0].median;
                let sm = &summaries[i];
                csv.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{},{}\n",
                    setup.label(),
                    k.runtime,
                    k.label,
                    sm.n,
                    sm.median,
                    sm.mean,
                    sm.ci95,
                    sm.min,
                    sm.max,
                    ratio,
                    verified[i]
                ));
                table.push((
                    setup.label(),
                    format!("{} {}", k.runtime, k.label),
                    summaries[i],
                    ratio,
                    verified[i],
                ));
            }
        }
        if let (true, Some(dir)) = (c.sweep, &c.out) {
            sweep_plot(dir, &setups, &contenders, &medians)?;
        }
        if c.json {
            continue;
        }
        if total > 4 {
            eprintln!();
        }
        let base = contenders.first().map(|k| k.label.as_str()).unwrap_or("?");
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
        for (label, who, s, ratio, ok) in table {
            println!(
                "{:<22} {:<26} {:>4} {:>10.4} {:>10.4} ± {:<8.4} {:>9.2} {:>8}",
                label,
                who,
                s.n,
                s.median,
                s.mean,
                s.ci95,
                ratio,
                if ok { "yes" } else { "NO" }
            );
        }
        if c.sweep {
            let unit = if setup.experiment() == "opti" {
                "stage"
            } else {
                "block (P x S)"
            };
            println!("cost per {unit} (slope of the median run time):");
            for (k, pts) in contenders.iter().zip(&medians) {
                if let Some((slope, intercept)) = linear_fit(pts) {
                    println!(
                        "  {:<26} {:>10.3} ms per {unit}   (intercept {:.3} s)",
                        format!("{} {}", k.runtime, k.label),
                        slope * 1e3,
                        intercept
                    );
                }
            }
        }
        if let (Setup::Buf(p), false) = (setup, c.sweep) {
            let bw = memcpy_bandwidth(MEMCPY_CHUNK_BYTES);
            let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
            let floor = buf_floor_seconds(p.pipes, p.stages, p.samples, bw, cpus);
            println!(
                "physical limit: in-cache memcpy {:.1} GB/s per core (measured now); {} copies of {:e} f32 on {cpus} cores take at least {:.3e} s",
                bw / 1e9, p.pipes * p.stages, p.samples as f64, floor
            );
            // The first contender's median against a limit.
            let against = |limit: f64, which: &str| {
                if let Some((k, &(_, median))) = contenders.first().zip(medians[0].last()) {
                    println!(
                        "  {} {}: {:.2}x {which}",
                        k.runtime,
                        k.label,
                        median / limit
                    );
                }
            };
            against(floor, "the limit");
            // One core copying alone runs faster than each of several copying at once (turbo,
            // shared L3 and memory paths): the bandwidth with every core busy is the one a run
            // can reach.
            let all = memcpy_bandwidth_all_cores(MEMCPY_CHUNK_BYTES, cpus);
            let all_floor = buf_floor_seconds(p.pipes, p.stages, p.samples, all, cpus);
            println!(
                "  with all {cpus} cores copying at once: {:.1} GB/s per core, at least {:.3e} s",
                all / 1e9,
                all_floor
            );
            against(all_floor, "that limit");
            // What the buffer layout alone costs: the same copies with no runtime, through the
            // memory `flow` uses (two regions per chain, or a ring per connection).
            let g = flow_settings(&c).scheduler().geometry();
            let layout = chain_layout_seconds(p.pipes, p.stages, p.samples, &g);
            let memory = if g.regions && g.chunk_bytes <= g.buffer_bytes {
                "two regions per pipe".to_owned()
            } else {
                format!("a {} B ring per connection", g.buffer_bytes)
            };
            println!(
                "layout limit: the same copies with no runtime, {} B chunks through {memory}, depth-first, on {} threads: {layout:.3e} s ({:.2}x the limit)",
                g.chunk_bytes, g.workers, layout / floor
            );
            let flow = contenders
                .iter()
                .position(|k| k.runtime == "radioflow" && k.label == "flow");
            if let Some(&(_, median)) = flow.and_then(|i| medians[i].last()) {
                println!("  radioflow flow: {:.2}x the layout limit", median / layout);
            }
        }
    }
    if let Some(dir) = &c.out {
        write_results(dir, &all_runs, &csv)?;
    }
    if !all_verified {
        bail!("some runs lost items or messages");
    }
    Ok(())
}

/// Draws a sweep like the seed's figures: median run time against the graph size, one line per
/// runtime and scheduler, as `<dir>/<experiment>-sweep.{svg,png}`.
fn sweep_plot(
    dir: &std::path::Path,
    setups: &[Setup],
    contenders: &[Contender],
    medians: &[Vec<(f64, f64)>],
) -> anyhow::Result<()> {
    let Some(first) = setups.first() else {
        return Ok(());
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let experiment = first.experiment();
    let series: Vec<Series> = contenders
        .iter()
        .zip(medians)
        .map(|(k, pts)| Series {
            label: format!("{} {}", k.runtime, k.label),
            points: pts.clone(),
        })
        .collect();
    let (title, x_label) = match first {
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
    };
    let chart = Chart {
        title: &title,
        x_label,
        y_label: "median run time (s)",
        log_x: false,
        series: &series,
    };
    match line_chart(&dir.join(format!("{experiment}-sweep")), &chart) {
        Ok(w) => eprintln!("plot: {} and {}", w.svg.display(), w.png.display()),
        Err(e) => eprintln!("no plot for {experiment}: {e}"),
    }
    Ok(())
}

/// Writes runs.jsonl, summary.csv and machine.json into `dir` (created if missing).
pub(crate) fn write_results(
    dir: &std::path::Path,
    runs: &[Measurement],
    csv: &str,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut jsonl = String::new();
    for m in runs {
        jsonl.push_str(&serde_json::to_string(m)?);
        jsonl.push('\n');
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    write("runs.jsonl", &jsonl)?;
    write("summary.csv", csv)?;
    write(
        "machine.json",
        &serde_json::to_string_pretty(&Machine::detect())?,
    )?;
    eprintln!("results written to {}", dir.display());
    Ok(())
}
