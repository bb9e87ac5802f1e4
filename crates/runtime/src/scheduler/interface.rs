//! [`Scheduler`]: what every scheduler implements.

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
