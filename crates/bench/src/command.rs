//! `radioflow bench [EXPERIMENT]`: the arguments (each experiment's own come from its module,
//! the shared ones from [`Common`]) and which experiment's command runs.

use crate::buf::profiled::{self, Statistic};
use crate::buf::BufArgs;
use crate::common::Common;
use crate::compare::{self, Setup};
use crate::dvbs2::{fer, rx, tx};
use crate::framed::{pipeline, tasks};
use crate::measurement::BenchError;
use crate::msg::MsgArgs;
use crate::observe::{set_run_observer, RunObserver};
use crate::opti::OptiArgs;
use crate::{counters, fir, fm, grc, workload};
use clap::{Args, Subcommand};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// The arguments of `radioflow bench`: an experiment (none: a short demo of every stream and
/// message experiment on every scheduler) and the flags every experiment takes.
#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    experiment: Option<Experiment>,
    #[command(flatten)]
    common: Common,
}

#[derive(Subcommand)]
enum Experiment {
    /// Stream benchmark: null source -> head(N) -> P chains of S copy blocks -> null sinks.
    Buf(BufArgs),
    /// Message benchmark: a burst of 500-byte messages -> forwarder -> P chains of S forwarders.
    Msg(MsgArgs),
    /// Bloessl et al. 2019, Fig. 5: voluntary and involuntary context switches per thread
    /// during `buf` (`--compare gnuradio`: GNU Radio's block threads too).
    Resched(BufArgs),
    /// Bloessl et al. 2019, Fig. 6: log2 histogram of items produced per copy-block work call
    /// during `buf` (`--compare gnuradio`: GNU Radio's copy blocks too).
    Items(BufArgs),
    /// Bloessl et al. 2019, Fig. 8: independent branches (own source + head(N) + S copies +
    /// sink each).
    Opti(OptiArgs),
    /// Rondeau 2013: cost of the per-block counters (compiled out / off / on, affinity off /
    /// on) on null source -> head -> FIR(s) -> null sink; `--compare gnuradio` for its perf
    /// counters.
    Counters(counters::CountersArgs),
    /// Green et al.: delivered / required sample rate ("signal quality") against the work per
    /// packet, threads inside a block vs chained blocks, all cores vs one, single-threaded.
    Workload(workload::WorkloadArgs),
    /// One `counters` configuration (run by `bench counters` in a child process).
    #[command(hide = true)]
    CountersRun(counters::CountersRunArgs),
    /// Cassagne et al. 2023, Table 1 / Fig. 5: overhead of framed execution per task
    /// (MB1-MB4).
    Tasks(tasks::TasksArgs),
    /// Cassagne et al. 2023, Fig. 11: framed pipeline, copy vs copy-less adaptors, heavy stage
    /// duplicated.
    Pipeline(pipeline::PipelineArgs),
    /// Issue 19: the DVB-S2 transmitter, TS file to RRC-shaped samples, Mb/s of information
    /// (`--compare gnuradio`: gr-dtv on the same file, alternated).
    Dvbs2Tx(tx::Dvbs2TxArgs),
    /// Issue 20: the DVB-S2 receiver, noisy cf32 recording to TS, Mb/s of TS
    /// (`--compare gr-dvbs2rx --gr-dvbs2rx PREFIX`: gr-dvbs2rx on the same file, alternated).
    Dvbs2Rx(rx::Dvbs2RxArgs),
    /// Issue 20: FER and PER of the DVB-S2 receiver against Es/N0 around EN 302 307-1
    /// Table 13 (`--compare gr-dvbs2rx`: its PER on the same recordings; `--out` plots).
    Dvbs2Fer(fer::Dvbs2FerArgs),
    /// Issue 18: the mono FM receiver (file -> freq_xlating_fir /10 -> wfm_rcv /5 -> sink),
    /// in input Msps; `--compare gnuradio` for GNU Radio's own chain.
    Fm(fm::FmArgs),
    /// Issue 18: the FIR kernels alone (plain, and the FM receiver's decimating ones), ns per
    /// input sample; `--compare gnuradio` for GNU Radio's VOLK-based kernels.
    Fir(fir::FirArgs),
    /// Issue 34: every GNU Radio Companion flowgraph of a folder that runs headless in both
    /// runtimes, made finite by one rewrite both read; `--compare gnuradio` times the Python
    /// `grcc` writes for it beside radioflow, alternated, and compares their outputs
    /// (radioflow on one scheduler: the first `--scheduler` names, `flow` for `all`).
    Grc(grc::GrcArgs),
}

impl BenchArgs {
    /// Refuses the schedulers and peers the invocation cannot measure, before anything runs or
    /// prints.
    ///
    /// # Errors
    ///
    /// A `--scheduler` or `--compare` name that is unknown.
    pub fn check(&self) -> Result<(), BenchError> {
        self.common.schedulers()?;
        // gr-dvbs2rx is a peer of dvbs2-rx alone, checked there.
        if !matches!(
            self.experiment,
            Some(Experiment::Dvbs2Rx(_) | Experiment::Dvbs2Fer(_))
        ) {
            self.common.peers("gnuradio, futuresdr")?;
        }
        Ok(())
    }

    /// The folder the results go to (`--out`), if any.
    pub fn out(&self) -> Option<&Path> {
        self.common.out.as_deref()
    }

    /// Where to serve the live view of every run (`--control`), its token (`--token`) and the
    /// other web origins allowed to use it (`--allow-origin`).
    pub fn control(&self) -> Option<(SocketAddr, Option<String>, Vec<String>)> {
        self.common.control.map(|a| {
            (
                a,
                self.common.token.clone(),
                self.common.allow_origin.clone(),
            )
        })
    }
}

/// Runs the experiment `args` name (all of the demo without one), printing its table (or JSON
/// lines) and writing its results; `observer`, if any, is told about every experiment graph's
/// run from now on.
///
/// # Errors
///
/// Arguments the experiment cannot use, a run that failed, or runs that lost what they
/// carried.
pub fn run(args: BenchArgs, observer: Option<Arc<dyn RunObserver>>) -> Result<(), BenchError> {
    let mut c = args.common;
    if c.quick {
        c.runs = 1;
    }
    if observer.is_some() {
        set_run_observer(observer);
    }
    let setup = match args.experiment {
        Some(Experiment::Counters(a)) => return counters::bench(a, &c),
        Some(Experiment::Workload(a)) => return workload::bench(a, &c),
        Some(Experiment::CountersRun(a)) => return counters::bench_one(a, &c.scheduler),
        Some(Experiment::Tasks(a)) => return tasks::bench(a, &c),
        Some(Experiment::Pipeline(a)) => return pipeline::bench(a, &c),
        Some(Experiment::Dvbs2Tx(a)) => return tx::bench(a, &c),
        Some(Experiment::Dvbs2Rx(a)) => return rx::bench(a, &c),
        Some(Experiment::Dvbs2Fer(a)) => return fer::bench(a, &c),
        Some(Experiment::Fm(a)) => return fm::bench(a, &c),
        Some(Experiment::Fir(a)) => return fir::bench(a, &c),
        Some(Experiment::Grc(a)) => return grc::bench(a, &c),
        Some(Experiment::Resched(a)) => return profiled::bench(Statistic::Resched, a.into(), &c),
        Some(Experiment::Items(a)) => return profiled::bench(Statistic::Items, a.into(), &c),
        Some(Experiment::Buf(a)) => Setup::Buf(a.into()),
        Some(Experiment::Msg(a)) => Setup::Msg(a.into()),
        Some(Experiment::Opti(a)) => Setup::Opti(a.into()),
        None => return compare::bench(compare::demo(c.quick), &c),
    };
    compare::bench(vec![setup], &c)
}
