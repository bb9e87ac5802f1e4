//! One timed, verified run of an experiment.

use serde::{Deserialize, Serialize};

/// The result of one run, printed as one JSON line with `--json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measurement {
    /// Experiment id (`buf`, `msg`, ...).
    pub experiment: String,
    /// Which runtime ran it (`radioflow`, `gnuradio`, `futuresdr`).
    pub runtime: String,
    /// Scheduler name.
    pub scheduler: String,
    /// The experiment's parameters.
    pub params: serde_json::Value,
    /// Wall-clock time of the run (start to end of processing).
    pub seconds: f64,
    /// Every item/message arrived.
    pub verified: bool,
    /// What was checked, e.g. "10 sinks x 100000000 items".
    pub detail: String,
    /// Experiment-specific results (context switches, items-per-call histograms, ...).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub extra: serde_json::Value,
}

/// Why an experiment could not produce a measurement.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The graph failed to build or run.
    #[error("{experiment}: {source}")]
    Run {
        /// Experiment id.
        experiment: &'static str,
        /// The runtime's error.
        source: radioflow_runtime::RunError,
    },
    /// A parameter or an argument cannot be used (out of range, unknown name, malformed list).
    #[error("{0}")]
    Params(String),
    /// `--scheduler` names a scheduler that does not parse.
    #[error(transparent)]
    Scheduler(#[from] radioflow_runtime::SchedulerSpecError),
    /// Runs finished but lost or corrupted what they carried (the message says what).
    #[error("{0}")]
    Unverified(String),
    /// The running `radioflow` binary, which runs configurations in child processes, cannot be
    /// found.
    #[error("cannot find the radioflow binary")]
    Exe(#[source] std::io::Error),
    /// A file or folder could not be read or created.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A peer could not be built or run.
    #[error("{0}")]
    Peer(String),
    /// A framed-execution graph (`tasks`, `pipeline`) failed to build.
    #[error(transparent)]
    FramedBuild(#[from] radioflow_framed::BuildError),
    /// A framed-execution graph failed to run.
    #[error(transparent)]
    FramedExec(#[from] radioflow_framed::ExecError),
    /// A results file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}
