//! `radioflow bench ...`: the arguments, and what every experiment's printing shares. The
//! experiments themselves live in `radioflow_bench`.

/// The count parser the experiments' arguments share (at least 1; accepts 1e8).
pub(crate) use crate::values::count as parse_count;
use crate::{
    bench_compare, bench_dvbs2, bench_fir, bench_fm, bench_framed, bench_observe, bench_profile,
};
use anyhow::Context;
use clap::{Args, Subcommand};
use radioflow_bench::suite::profiled::Profile;
use radioflow_bench::suite::{self, compare::Setup, Plotted, Skipped};
use radioflow_bench::{BufParams, MsgParams, OptiParams, Peer};
use radioflow_runtime::{FlowSettings, SchedulerSpec};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    experiment: Option<Experiment>,
    #[command(flatten)]
    common: Common,
}

/// The flags every experiment takes.
#[derive(Args, Clone)]
pub(crate) struct Common {
    /// Scheduler(s) to measure, comma separated (specs such as `flow:workers=2,pin,tpb`), or
    /// `all`.
    #[arg(long, global = true, default_value = "all")]
    pub(crate) scheduler: String,
    /// Runs per scheduler (alternated between schedulers run by run).
    #[arg(long, global = true, default_value = "5", value_parser = crate::values::small, allow_negative_numbers = true)]
    pub(crate) runs: usize,
    /// Print one JSON object per measured run instead of a table.
    #[arg(long, global = true)]
    pub(crate) json: bool,
    /// Run scheduler threads at real-time priority (SCHED_FIFO 50) where permitted.
    #[arg(long, global = true)]
    pub(crate) realtime: bool,
    /// Peers to measure side by side, comma separated: gnuradio, futuresdr.
    #[arg(long, global = true)]
    pub(crate) compare: Vec<String>,
    /// flow: worker threads (default: one per CPU).
    #[arg(long, global = true, value_parser = crate::values::small, allow_negative_numbers = true)]
    workers: Option<usize>,
    /// flow: pin worker i to CPU i.
    #[arg(long, global = true)]
    pin: bool,
    /// flow: bytes a block writes per output per work call (default: an eighth of L2).
    #[arg(long, global = true, value_parser = crate::values::bytes, allow_negative_numbers = true)]
    chunk_bytes: Option<usize>,
    /// flow: buffer bytes per connection (default: 2 chunks).
    #[arg(long, global = true, value_parser = crate::values::bytes, allow_negative_numbers = true)]
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
    pub(crate) sweep: bool,
    /// Every experiment (or the one named) at a tiny size, one run each: proves they run and
    /// verify (used by the test suite).
    #[arg(long, global = true)]
    pub(crate) quick: bool,
    /// Also write the results to this folder: runs.jsonl (every run), summary.csv (per
    /// experiment and configuration), machine.json.
    #[arg(long, global = true)]
    pub(crate) out: Option<PathBuf>,
    /// Serve the live view (web page and JSON API) of each radioflow run on this address,
    /// e.g. 127.0.0.1:1337 (framed runs and peers are not flowgraphs and are not shown). It
    /// adds a thread that samples the counters every 100 ms: measure without it.
    #[arg(long, global = true, value_name = "ADDR")]
    control: Option<std::net::SocketAddr>,
    /// The token every request to the control port must carry (generated and printed when
    /// the address is not loopback and none is given).
    #[arg(long, global = true, requires = "control", value_parser = crate::control::token)]
    token: Option<String>,
    /// A web origin besides the live view's own page that may use the control port, e.g.
    /// http://dash.example:8080; repeatable.
    #[arg(long, global = true, value_name = "ORIGIN", requires = "control")]
    allow_origin: Vec<String>,
}

/// Size of the `buf` graph (also profiled by `resched` and `items`).
#[derive(Args, Clone, Copy)]
struct BufArgs {
    #[arg(long, default_value = "10", value_parser = crate::values::small, allow_negative_numbers = true)]
    pipes: usize,
    #[arg(long, default_value = "10", value_parser = crate::values::small, allow_negative_numbers = true)]
    stages: usize,
    /// Samples through the head block (accepts 1e8).
    #[arg(long, default_value = "1e8", value_parser = crate::values::count, allow_negative_numbers = true)]
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

/// Size of the `msg` graph.
#[derive(Args, Clone, Copy)]
struct MsgArgs {
    #[arg(long, default_value = "10", value_parser = crate::values::small, allow_negative_numbers = true)]
    pipes: usize,
    #[arg(long, default_value = "10", value_parser = crate::values::small, allow_negative_numbers = true)]
    stages: usize,
    /// Messages in the burst (accepts 1e3; at most 1e7, built in memory before the run).
    #[arg(long, default_value = "1000", value_parser = crate::values::messages, allow_negative_numbers = true)]
    burst: u64,
}

/// Size of the `opti` graph.
#[derive(Args, Clone, Copy)]
struct OptiArgs {
    #[arg(long, default_value = "4", value_parser = crate::values::small, allow_negative_numbers = true)]
    pipes: usize,
    #[arg(long, default_value = "10", value_parser = crate::values::small, allow_negative_numbers = true)]
    stages: usize,
    /// Samples per branch (accepts 1e8).
    #[arg(long, default_value = "1e8", value_parser = crate::values::count, allow_negative_numbers = true)]
    samples: u64,
}

#[derive(Subcommand)]
enum Experiment {
    /// Stream benchmark: null source -> head(N) -> P chains of S copy blocks -> null sinks.
    Buf(BufArgs),
    /// Message benchmark: a burst of 500-byte messages -> forwarder -> P chains of S forwarders.
    Msg(MsgArgs),
    /// Seed Fig. 5: voluntary and involuntary context switches per thread during `buf`
    /// (`--compare gnuradio`: GNU Radio's block threads too).
    Resched(BufArgs),
    /// Seed Fig. 6: log2 histogram of items produced per copy-block work call during `buf`
    /// (`--compare gnuradio`: GNU Radio's copy blocks too).
    Items(BufArgs),
    /// Seed Fig. 8: independent branches (own source + head(N) + S copies + sink each).
    Opti(OptiArgs),
    /// Seed 004: cost of the per-block counters (compiled out / off / on, affinity off / on) on
    /// null source -> head -> FIR(s) -> null sink; `--compare gnuradio` for its perf counters.
    Counters(bench_observe::CountersArgs),
    /// Seed 002: delivered / required sample rate ("signal quality") against the work per
    /// packet, threads inside a block vs chained blocks, all cores vs one, single-threaded.
    Workload(bench_observe::WorkloadArgs),
    /// One `counters` configuration (run by `bench counters` in a child process).
    #[command(hide = true)]
    CountersRun(bench_observe::CountersRunArgs),
    /// Seed 003 Table 1 / Fig. 5: overhead of framed execution per task (MB1-MB4).
    Tasks(bench_framed::TasksArgs),
    /// Seed 003 Fig. 11: framed pipeline, copy vs copy-less adaptors, heavy stage duplicated.
    Pipeline(bench_framed::PipelineArgs),
    /// Issue 19: the DVB-S2 transmitter, TS file to RRC-shaped samples, Mb/s of information
    /// (`--compare gnuradio`: gr-dtv on the same file, alternated).
    Dvbs2Tx(bench_dvbs2::Dvbs2TxArgs),
    /// Issue 20: the DVB-S2 receiver, noisy cf32 recording to TS, Mb/s of TS
    /// (`--compare gr-dvbs2rx --gr-dvbs2rx PREFIX`: gr-dvbs2rx on the same file, alternated).
    Dvbs2Rx(bench_dvbs2::Dvbs2RxArgs),
    /// Issue 20: FER and PER of the DVB-S2 receiver against Es/N0 around EN 302 307-1
    /// Table 13 (`--compare gr-dvbs2rx`: its PER on the same recordings; `--out` plots).
    Dvbs2Fer(bench_dvbs2::Dvbs2FerArgs),
    /// Issue 18: the mono FM receiver (file -> freq_xlating_fir /10 -> wfm_rcv /5 -> sink),
    /// in input Msps; `--compare gnuradio` for GNU Radio's own chain.
    Fm(bench_fm::FmArgs),
    /// Issue 18: the FIR kernels alone (plain, and the FM receiver's decimating ones), ns per
    /// input sample; `--compare gnuradio` for GNU Radio's VOLK-based kernels.
    Fir(bench_fir::FirArgs),
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
pub(crate) fn flow_settings(c: &Common) -> FlowSettings {
    match with_flags(SchedulerSpec::default(), c) {
        SchedulerSpec::Flow(f) => f,
        _ => unreachable!("the default spec is flow"),
    }
}

/// The schedulers `--scheduler` names (specs such as `flow:workers=2,tpb`), with the flags.
pub(crate) fn schedulers(c: &Common) -> anyhow::Result<Vec<SchedulerSpec>> {
    Ok(SchedulerSpec::parse_list(&c.scheduler)?
        .into_iter()
        .map(|s| with_flags(s, c))
        .collect())
}

/// The peers `--compare` names; `known` lists the ones the experiment knows.
pub(crate) fn peers(c: &Common, known: &str) -> anyhow::Result<Vec<Peer>> {
    let names = c.compare.iter().flat_map(|s| s.split(',')).map(str::trim);
    names
        .filter(|n| !n.is_empty())
        .map(|name| {
            Peer::from_name(name).with_context(|| format!("unknown peer '{name}' (known: {known})"))
        })
        .collect()
}

/// Says which peers are left out, and why.
pub(crate) fn warn(skipped: Vec<Skipped>) {
    for Skipped(why) in skipped {
        eprintln!("radioflow: {why}");
    }
}

/// Shows the runs as they finish: each one's JSON line on stdout with `--json`, else
/// `[done/total] what` on stderr (for more than `min_total` runs).
pub(crate) struct Ticker {
    json: bool,
    min_total: usize,
    shown: bool,
}

impl Ticker {
    pub(crate) fn new(c: &Common, min_total: usize) -> Self {
        Ticker {
            json: c.json,
            min_total,
            shown: false,
        }
    }

    pub(crate) fn show(&mut self, p: &suite::Progress<'_>) {
        if self.json {
            println!("{}", p.line);
        } else if p.total > self.min_total {
            eprint!("\r[{}/{}] {}          ", p.done, p.total, p.what);
            self.shown = true;
        }
    }

    /// Ends the progress line.
    pub(crate) fn end(&mut self) {
        if std::mem::take(&mut self.shown) {
            eprintln!();
        }
    }
}

/// Writes runs.jsonl, summary.csv and machine.json into `dir`, and says so.
pub(crate) fn write_results(dir: &Path, jsonl: &str, csv: &str) -> anyhow::Result<()> {
    suite::write_results(dir, jsonl, csv)?;
    eprintln!("results written to {}", dir.display());
    Ok(())
}

/// Says where each plot went, or why it did not.
pub(crate) fn report_plots(plots: impl IntoIterator<Item = Plotted>) {
    for (stem, r) in plots {
        match r {
            Ok(w) => eprintln!("plot: {} and {}", w.svg.display(), w.png.display()),
            Err(e) => eprintln!("radioflow: no plot {}: {e}", stem.display()),
        }
    }
}

/// `bench` alone: every stream and message experiment at a size that takes seconds (the
/// README's demo), or a tiny one with `--quick`.
fn demo(quick: bool) -> Vec<Setup> {
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

pub(crate) fn main(args: BenchArgs) -> anyhow::Result<()> {
    let mut c = args.common;
    // Everything that can be refused is refused before anything runs or prints.
    schedulers(&c)?;
    // gr-dvbs2rx is a peer of dvbs2-rx alone, checked there.
    if !matches!(
        args.experiment,
        Some(Experiment::Dvbs2Rx(_) | Experiment::Dvbs2Fer(_))
    ) {
        peers(&c, "gnuradio, futuresdr")?;
    }
    if let Some(dir) = &c.out {
        crate::values::writable_dir(dir, "--out")?;
    }
    if c.quick {
        c.runs = 1;
    }
    if let Some(addr) = c.control {
        radioflow_bench::observe::set_run_observer(Some(std::sync::Arc::new(
            crate::control::ServeEachRun::new(addr, c.token.clone(), c.allow_origin.clone()),
        )));
    }
    let setup = match args.experiment {
        Some(Experiment::Counters(a)) => return bench_observe::counters(a, &c),
        Some(Experiment::Workload(a)) => return bench_observe::workload(a, &c),
        Some(Experiment::CountersRun(a)) => return bench_observe::counters_run(a, &c.scheduler),
        Some(Experiment::Tasks(a)) => return bench_framed::tasks(a, &c),
        Some(Experiment::Pipeline(a)) => return bench_framed::pipeline(a, &c),
        Some(Experiment::Dvbs2Tx(a)) => return bench_dvbs2::dvbs2_tx(a, &c),
        Some(Experiment::Dvbs2Rx(a)) => return bench_dvbs2::dvbs2_rx(a, &c),
        Some(Experiment::Dvbs2Fer(a)) => return bench_dvbs2::dvbs2_fer(a, &c),
        Some(Experiment::Fm(a)) => return bench_fm::fm(a, &c),
        Some(Experiment::Fir(a)) => return bench_fir::fir(a, &c),
        Some(Experiment::Resched(a)) => {
            return bench_profile::profile(Profile::Resched, a.into(), &c)
        }
        Some(Experiment::Items(a)) => return bench_profile::profile(Profile::Items, a.into(), &c),
        Some(Experiment::Buf(a)) => Setup::Buf(a.into()),
        Some(Experiment::Msg(a)) => Setup::Msg(MsgParams {
            pipes: a.pipes,
            stages: a.stages,
            burst: a.burst as usize,
        }),
        Some(Experiment::Opti(a)) => Setup::Opti(OptiParams {
            pipes: a.pipes,
            stages: a.stages,
            samples: a.samples,
        }),
        None => return bench_compare::compare(demo(c.quick), &c),
    };
    bench_compare::compare(vec![setup], &c)
}
