//! Schedulers: which thread steps which [`BlockTask`] and when a thread sleeps.
//!
//! Every scheduler passes the same conformance suite (`tests/conformance.rs`). To add one,
//! implement [`Scheduler`] in a file of this folder and add a line to that suite.

mod balance;
mod cut;
mod flow;
mod placement;
mod single;
mod spec;
mod thread;
mod tpb;
mod worker;

pub use flow::{l1d_bytes, l2_bytes, max_workers, FlowGeometry, FlowScheduler};
pub use single::SingleThread;
pub use spec::{FlowSettings, SchedulerSpec, SchedulerSpecError, SCHEDULER_NAMES};
pub(crate) use thread::fail_thread_spawns_after;
pub use thread::{pin_current_thread, RealtimePolicy};
pub use tpb::ThreadPerBlock;

use crate::error::RunError;
use crate::task::BlockTask;
use crate::wiring::ReadyGraph;
use std::thread::JoinHandle;

/// Runs the blocks of a [`ReadyGraph`].
pub trait Scheduler: Send + Sync {
    /// Short name (`tpb`, `single`, ...), used in errors and reports.
    fn name(&self) -> &str;

    /// Checks the scheduler's settings before any block of a graph starts (default: nothing
    /// to check).
    ///
    /// # Errors
    /// A setting the scheduler cannot run with, named with its limit.
    fn check(&self) -> Result<(), RunError> {
        Ok(())
    }

    /// Chooses a parker per block, turns the graph into tasks and starts threads that step
    /// them until every task is done. Each thread returns its tasks when it ends.
    ///
    /// # Errors
    /// Buffers that cannot be allocated, or threads that cannot be spawned (the run is then
    /// stopped).
    fn launch(&self, graph: ReadyGraph) -> Result<Vec<JoinHandle<Vec<BlockTask>>>, RunError>;
}

/// The scheduler [`Flowgraph::run`](crate::Flowgraph::run) uses: [`FlowScheduler`].
pub fn default_scheduler() -> Box<dyn Scheduler> {
    Box::new(FlowScheduler::new())
}

/// A scheduler by name with its default settings (`flow`, `tpb` or `single`), or from a full
/// spec (`flow:workers=2`, see [`SchedulerSpec`]); `None` if it does not parse.
pub fn scheduler_by_name(name: &str) -> Option<Box<dyn Scheduler>> {
    name.parse::<SchedulerSpec>().ok().map(|s| s.build())
}
