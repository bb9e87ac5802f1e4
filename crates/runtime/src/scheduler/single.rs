//! `single`: every block on one thread, stepped in topological order.

use super::thread::{spawn_all, ThreadJob};
use super::worker::run_tasks;
use super::Scheduler;
use crate::atomics::Arc;
use crate::error::RunError;
use crate::parker::Parker;
use crate::task::BlockTask;
use crate::wiring::ReadyGraph;
use std::thread::JoinHandle;

/// Steps every block on one thread, writers before readers, so a chunk travels down a chain
/// in one pass. The thread sleeps when a whole pass moved nothing.
#[derive(Clone, Debug, Default)]
pub struct SingleThread {}

impl SingleThread {
    /// The single-thread scheduler.
    pub fn new() -> Self {
        Self {}
    }
}

impl Scheduler for SingleThread {
    fn name(&self) -> &str {
        "single"
    }

    fn launch(&self, graph: ReadyGraph) -> Result<Vec<JoinHandle<Vec<BlockTask>>>, RunError> {
        let order = graph.topology().execution_order();
        let parker = Arc::new(Parker::new());
        let n = graph.topology().len();
        let control = graph.control().clone();
        let mut tasks = graph.into_tasks(vec![parker.clone(); n])?;
        // Reorder once so the pass below walks a plain slice.
        let mut slots: Vec<Option<BlockTask>> = tasks.drain(..).map(Some).collect();
        let ordered: Vec<BlockTask> = order.iter().filter_map(|&i| slots[i].take()).collect();
        spawn_all(
            "single",
            &control,
            vec![ThreadJob {
                name: "rf-single".into(),
                tasks: ordered,
                run: Box::new(move |tasks| run_tasks(tasks, &parker)),
            }],
        )
    }
}
