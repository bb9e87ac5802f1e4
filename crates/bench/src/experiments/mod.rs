//! One file per experiment of `shared/BENCHMARKS.md`.

pub mod buf;
pub mod msg;
pub mod opti;

pub use buf::BufParams;
pub use msg::MsgParams;
pub use opti::OptiParams;

use crate::measurement::BenchError;
use radioflow_runtime::{Flowgraph, RunError, Scheduler};
use std::time::Instant;

/// Runs `fg` on `scheduler` and returns the seconds from start to the end of processing.
fn timed_run(
    experiment: &'static str,
    fg: &mut Flowgraph,
    scheduler: &dyn Scheduler,
) -> Result<f64, BenchError> {
    let run = |fg: &mut Flowgraph| -> Result<f64, RunError> {
        let t0 = Instant::now();
        fg.start(scheduler)?;
        fg.wait()?;
        Ok(t0.elapsed().as_secs_f64())
    };
    run(fg).map_err(|source| BenchError::Run { experiment, source })
}
