//! radioflow's side: the rewritten `.grc` read by radioflow's GRC loader, built (not timed),
//! and run on one scheduler, timed from start to the end of processing, with the items each
//! sink of the rewrite read.

use super::transform::Sink;
use radioflow_runtime::{RunError, Scheduler};
use std::path::Path;
use std::time::{Duration, Instant};

/// One run of `yaml` (`origin` names it in errors): its seconds and the items each of `sinks`
/// read.
///
/// # Errors
/// The loader refuses the file, the graph fails, or it does not end within `limit` (it is
/// then stopped).
pub fn run(
    yaml: &str,
    origin: &Path,
    sinks: &[Sink],
    scheduler: &dyn Scheduler,
    limit: Duration,
) -> Result<(f64, Vec<u64>), String> {
    let mut built = radioflow_graphfile::describe_grc(yaml, origin)
        .and_then(|d| d.build())
        .map_err(|e| e.to_string())?;
    let ids = sinks
        .iter()
        .map(|s| {
            built
                .id(&s.name)
                .ok_or_else(|| format!("the rewrite's sink '{}' is not in the graph", s.name))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let fg = &mut built.flowgraph;
    // `bench --control` serves the live view of this run too.
    let observer = crate::observe::observer();
    let t0 = Instant::now();
    fg.start(scheduler).map_err(|e| e.to_string())?;
    if let Some(o) = &observer {
        o.started(fg);
    }
    let waited = fg.wait_timeout(limit);
    let seconds = t0.elapsed().as_secs_f64();
    if let Some(o) = &observer {
        o.finished();
    }
    match waited {
        Ok(()) => {}
        Err(RunError::Unresponsive { .. }) => {
            fg.stop();
            let _ = fg.wait();
            return Err(format!(
                "did not end within {} s (stopped)",
                limit.as_secs_f64()
            ));
        }
        Err(e) => return Err(e.to_string()),
    }
    let items = ids
        .iter()
        .map(|id| fg.stats(*id).map_or(0, |s| s.items_consumed))
        .collect();
    Ok((seconds, items))
}
