//! The flags every experiment takes (`--scheduler`, `--runs`, `--json`, `--compare`, the `flow`
//! scheduler's options, `--quick`, `--out`, `--control`), and what they mean for a run.

use crate::measurement::BenchError;
use crate::peers::Peer;
use crate::values;
use clap::Args;
use radioflow_runtime::{FlowSettings, SchedulerSpec};
use std::path::PathBuf;

/// The flags every experiment takes.
#[derive(Args, Clone)]
pub(crate) struct Common {
    /// Scheduler(s) to measure, comma separated (specs such as `flow:workers=2,pin,tpb`), or
    /// `all`.
    #[arg(long, global = true, default_value = "all")]
    pub(crate) scheduler: String,
    /// Runs per scheduler (alternated between schedulers run by run).
    #[arg(long, global = true, default_value = "5", value_parser = values::small, allow_negative_numbers = true)]
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
    #[arg(long, global = true, value_parser = values::small, allow_negative_numbers = true)]
    workers: Option<usize>,
    /// flow: pin worker i to CPU i.
    #[arg(long, global = true)]
    pin: bool,
    /// flow: bytes a block writes per output per work call (default: an eighth of L2).
    #[arg(long, global = true, value_parser = values::bytes, allow_negative_numbers = true)]
    chunk_bytes: Option<usize>,
    /// flow: buffer bytes per connection (default: 2 chunks).
    #[arg(long, global = true, value_parser = values::bytes, allow_negative_numbers = true)]
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
    pub(crate) control: Option<std::net::SocketAddr>,
    /// The token every request to the control port must carry (generated and printed when
    /// the address is not loopback and none is given).
    #[arg(long, global = true, requires = "control", value_parser = crate::values::token)]
    pub(crate) token: Option<String>,
    /// A web origin besides the live view's own page that may use the control port, e.g.
    /// `http://dash.example:8080`; repeatable.
    #[arg(long, global = true, value_name = "ORIGIN", requires = "control")]
    pub(crate) allow_origin: Vec<String>,
}

impl Common {
    /// `spec` with the command line's scheduler flags applied (`--workers`, `--pin`, ... to
    /// `flow`, `--realtime` to `tpb`).
    fn with_flags(&self, mut spec: SchedulerSpec) -> SchedulerSpec {
        match &mut spec {
            SchedulerSpec::Flow(f) => {
                f.workers = self.workers.or(f.workers);
                f.chunk_bytes = self.chunk_bytes.or(f.chunk_bytes);
                f.buffer_bytes = self.buffer_bytes.or(f.buffer_bytes);
                f.pin |= self.pin;
                f.balance &= !self.no_balance;
                f.regions &= !self.no_regions;
                f.streaming_stores &= !self.no_streaming_stores;
            }
            SchedulerSpec::ThreadPerBlock { realtime } => *realtime |= self.realtime,
            SchedulerSpec::Single => {}
        }
        spec
    }

    /// The `flow` scheduler's settings from the command line.
    pub(crate) fn flow_settings(&self) -> FlowSettings {
        match self.with_flags(SchedulerSpec::default()) {
            SchedulerSpec::Flow(f) => f,
            _ => unreachable!("the default spec is flow"),
        }
    }

    /// The schedulers `--scheduler` names (specs such as `flow:workers=2,tpb`), with the flags.
    pub(crate) fn schedulers(&self) -> Result<Vec<SchedulerSpec>, BenchError> {
        Ok(SchedulerSpec::parse_list(&self.scheduler)?
            .into_iter()
            .map(|s| self.with_flags(s))
            .collect())
    }

    /// The peers `--compare` names; `known` lists the ones the experiment knows.
    pub(crate) fn peers(&self, known: &str) -> Result<Vec<Peer>, BenchError> {
        self.compared()
            .filter(|n| !n.is_empty())
            .map(|name| {
                Peer::from_name(name).ok_or_else(|| {
                    BenchError::Params(format!("unknown peer '{name}' (known: {known})"))
                })
            })
            .collect()
    }

    /// Whether `--compare` asks for GNU Radio, the only peer of `experiment` (`bench fm`).
    pub(crate) fn gnuradio_only(&self, experiment: &str) -> Result<bool, BenchError> {
        let mut gnuradio = false;
        for name in self.compared() {
            match name {
                "" => {}
                "gnuradio" | "gr" => gnuradio = true,
                other => {
                    return Err(BenchError::Params(format!(
                        "{experiment} compares with gnuradio only, not '{other}'"
                    )))
                }
            }
        }
        Ok(gnuradio)
    }

    /// The names `--compare` gives, trimmed (empty ones included).
    fn compared(&self) -> impl Iterator<Item = &str> {
        self.compare
            .iter()
            .flat_map(|s| s.split(','))
            .map(str::trim)
    }
}
