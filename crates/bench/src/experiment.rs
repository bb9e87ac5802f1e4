//! What the experiments' graphs share: shape checks, connections, sink counts and the timed run
//! (which tells the [run observer](crate::observe) about it).

use crate::measurement::BenchError;
use radioflow_runtime::{Flowgraph, RunError, Scheduler};
use std::time::Instant;

/// Refuses a graph without pipes or stages.
pub(crate) fn check_shape(experiment: &str, pipes: usize, stages: usize) -> Result<(), BenchError> {
    if pipes == 0 || stages == 0 {
        return Err(BenchError::Params(format!(
            "{experiment} needs at least one pipe and one stage"
        )));
    }
    Ok(())
}

/// Connects two stream ports of an experiment's graph, which is well-formed by construction.
pub(crate) fn connect(
    fg: &mut Flowgraph,
    a: radioflow_runtime::BlockId,
    b: radioflow_runtime::BlockId,
) {
    fg.connect(a, b)
        .unwrap_or_else(|e| unreachable!("experiment graphs are well-formed: {e}"));
}

/// Every null sink in `sinks` received exactly `n` items.
pub(crate) fn sinks_received(fg: &Flowgraph, sinks: &[radioflow_runtime::BlockId], n: u64) -> bool {
    sinks.iter().all(|&s| {
        fg.block::<radioflow_blocks::NullSink<f32>>(s)
            .is_some_and(|k| k.items() == n)
    })
}

/// Runs `fg` on `scheduler` and returns the seconds from start to the end of processing.
pub(crate) fn timed_run(
    experiment: &'static str,
    fg: &mut Flowgraph,
    scheduler: &dyn Scheduler,
) -> Result<f64, BenchError> {
    let observer = crate::observe::observer();
    let run = |fg: &mut Flowgraph| -> Result<f64, RunError> {
        let t0 = Instant::now();
        fg.start(scheduler)?;
        if let Some(o) = &observer {
            o.started(fg);
        }
        let waited = fg.wait();
        let seconds = t0.elapsed().as_secs_f64();
        if let Some(o) = &observer {
            o.finished();
        }
        waited.map(|()| seconds)
    };
    run(fg).map_err(|source| BenchError::Run { experiment, source })
}
