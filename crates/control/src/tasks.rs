//! The live view of a program that is not a [`Flowgraph`](radioflow_runtime::Flowgraph): its
//! tasks (threads, stages) with counters it keeps itself, served by [`serve_tasks`] with the
//! same page and API (no messages, parameters or probes: it has no message inputs or stream
//! ports).

use radioflow_runtime::BlockStats;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// Reads every task's counters (in the order of [`Tasks::names`]) into the slice given.
pub type ReadCounters = dyn Fn(&mut [BlockStats]) + Send + Sync;

/// A program's tasks, what flows between them, and how to read their counters and stop them.
#[derive(Clone)]
pub struct Tasks {
    /// The tasks' names, shown as blocks.
    pub names: Vec<String>,
    /// `(from, to, what)`: task `from` hands `what` (`"frames"`, say) to task `to`.
    pub edges: Vec<(usize, usize, String)>,
    /// Called on the control port's thread at every sample (every 100 ms); it must only
    /// read (relaxed loads of the program's own counters, say).
    pub read: Arc<ReadCounters>,
    /// Set by `POST /api/stop`; the program polls it. `None`: the program cannot be stopped
    /// from the page.
    pub stop: Option<Arc<AtomicBool>>,
}

impl fmt::Debug for Tasks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tasks")
            .field("names", &self.names)
            .field("edges", &self.edges)
            .finish_non_exhaustive()
    }
}

impl Tasks {
    /// The counters now, one per task.
    pub(crate) fn sample(&self) -> Vec<BlockStats> {
        let mut v = vec![BlockStats::default(); self.names.len()];
        (self.read)(&mut v);
        v
    }

    pub(crate) fn stop(&self) -> bool {
        match &self.stop {
            Some(flag) => {
                flag.store(true, Relaxed);
                true
            }
            None => false,
        }
    }
}
