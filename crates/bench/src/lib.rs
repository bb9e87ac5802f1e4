//! The experiments of the source documents (named in `docs/references.md`), runnable on
//! radioflow with verified results, and the `radioflow bench` command that measures them.
//!
//! Each experiment builds its graph, times only the run (start to end of processing, as the
//! papers time `top_block::run()`), checks that every item or message arrived, and returns a
//! [`Measurement`]. [`stats`] summarises repeated runs (median, mean, 95% confidence interval).
//!
//! One module per experiment holds its run, its suite entry (what one invocation measures:
//! radioflow's schedulers and the [`Peer`]s alternated run by run, summaries, sweeps, result
//! files) and its command-line arguments:
//! - [`buf`], [`msg`], [`opti`] (Bloessl et al. 2019), compared side by side by [`compare`];
//!   [`buf::profiled`]: `resched` and `items`, the `buf` graph profiled.
//! - [`counters`] (Rondeau 2013), [`workload`] (Green et al.).
//! - [`framed`]: Cassagne et al. 2023 on framed execution (`bench tasks`, `bench pipeline`).
//! - [`fm`], [`fir`]: the FM receiver's chain and its FIR kernels; [`dvbs2`]: the DVB-S2
//!   transmitter and receiver.
//! - [`grc`]: GNU Radio Companion flowgraphs of a folder, made finite, beside GNU Radio.
//!
//! Shared pieces: [`contender`] (what is measured, peers built on first use), [`progress`],
//! [`results`] (runs.jsonl, summary.csv, machine.json, plots), [`limit`] (the physical limits a
//! run is compared with), [`plot`], [`values`] (the arguments' numeric values), [`observe`] (a
//! hook on every experiment graph's run: the live view of `bench --control`).
//!
//! [`BenchArgs`] are the arguments of `radioflow bench` (the binary flattens them into its
//! own); [`BenchArgs::check`] refuses what cannot run, [`run`] runs and prints.
//!
//! ```
//! use radioflow_bench::{buf, BufParams};
//! use radioflow_runtime::SingleThread;
//! let m = buf::run(&BufParams { pipes: 2, stages: 2, samples: 100_000 }, &SingleThread::new())?;
//! assert!(m.verified);
//! # Ok::<(), radioflow_bench::BenchError>(())
//! ```

pub mod buf;
mod command;
mod common;
pub mod compare;
pub mod contender;
pub mod counters;
pub mod dvbs2;
mod experiment;
pub mod fir;
pub mod fm;
pub mod framed;
pub mod grc;
pub mod limit;
mod machine;
mod measurement;
pub mod msg;
pub mod observe;
pub mod opti;
mod peers;
pub mod plot;
pub mod progress;
pub mod results;
pub mod stats;
pub mod values;
pub mod workload;

pub use buf::BufParams;
pub use command::{run, BenchArgs};
pub use counters::CountersParams;
pub use fm::FmParams;
pub use machine::Machine;
pub use measurement::{BenchError, Measurement};
pub use msg::MsgParams;
pub use opti::OptiParams;
pub use peers::Peer;
pub use workload::WorkloadParams;
