//! The experiments of the source documents, runnable on radioflow with verified results.
//!
//! Each experiment builds its graph, times only the run (start to end of processing, as the
//! papers time `top_block::run()`), checks that every item or message arrived, and returns a
//! [`Measurement`]. [`stats`] summarises repeated runs (median, mean, 95% confidence interval).
//!
//! ```
//! use radioflow_bench::{buf, BufParams};
//! use radioflow_runtime::SingleThread;
//! let m = buf::run(&BufParams { pipes: 2, stages: 2, samples: 100_000 }, &SingleThread::new())?;
//! assert!(m.verified);
//! # Ok::<(), radioflow_bench::BenchError>(())
//! ```

mod experiments;
pub mod graphs;
pub mod limit;
mod machine;
mod measurement;
mod peers;
pub mod plot;
pub mod stats;

pub use experiments::{
    buf, counters, msg, opti, workload, BufParams, CountersParams, MsgParams, OptiParams,
    WorkloadParams,
};
pub use machine::Machine;
pub use measurement::{BenchError, Measurement};
pub use peers::Peer;
