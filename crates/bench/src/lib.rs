//! The experiments of the source documents, runnable on radioflow with verified results.
//!
//! Each experiment builds its graph, times only the run (start to end of processing, as the
//! papers time `top_block::run()`), checks that every item or message arrived, and returns a
//! [`Measurement`]. [`stats`] summarises repeated runs (median, mean, 95% confidence interval).
//!
//! - [`buf`], [`msg`], [`opti`], [`counters`], [`workload`], [`fm`]: one run of each
//!   experiment.
//! - [`suite`]: what one `radioflow bench <experiment>` invocation measures: radioflow's
//!   schedulers and the [`Peer`]s alternated run by run, summaries, sweeps, result files.
//! - [`framed`]: seed 003 on framed execution (`bench tasks`, `bench pipeline`).
//! - [`profile`] and [`graphs`]: `radioflow profile`, a graph run with time counters on.
//! - [`soak`]: `radioflow soak`, a graph kept running while memory and threads are sampled.
//! - [`limit`]: the physical limits a run is compared with; [`plot`]: the figures.
//! - [`observe`]: a hook on every graph the experiments run (the live view of `bench --control`).
//!
//! ```
//! use radioflow_bench::{buf, BufParams};
//! use radioflow_runtime::SingleThread;
//! let m = buf::run(&BufParams { pipes: 2, stages: 2, samples: 100_000 }, &SingleThread::new())?;
//! assert!(m.verified);
//! # Ok::<(), radioflow_bench::BenchError>(())
//! ```

pub mod dvbs2_rx;
pub mod dvbs2_tx;
mod experiments;
pub mod framed;
pub mod graphs;
pub mod limit;
mod machine;
mod measurement;
pub mod observe;
mod peers;
pub mod plot;
pub mod profile;
pub mod soak;
pub mod stats;
pub mod suite;

pub use experiments::{
    buf, counters, fm, msg, opti, workload, BufParams, CountersParams, FmParams, MsgParams,
    OptiParams, WorkloadParams,
};
pub use machine::Machine;
pub use measurement::{BenchError, Measurement};
pub use peers::Peer;
