//! `tpb`: one OS thread per block, the GNU Radio 3.x model.

use super::thread::{
    pin_current_thread, set_realtime, spawn_all, thread_name, RealtimePolicy, ThreadJob,
};
use super::worker::run_task;
use super::Scheduler;
use crate::atomics::Arc;
use crate::error::RunError;
use crate::parker::Parker;
use crate::task::BlockTask;
use crate::wiring::ReadyGraph;
use std::collections::HashMap;
use std::thread::JoinHandle;

/// One thread per block; the OS decides who runs. Optional CPU affinity per block (by
/// instance name) or for all blocks, and optional real-time priority.
#[derive(Clone, Debug, Default)]
pub struct ThreadPerBlock {
    affinity: HashMap<String, Vec<usize>>,
    default_affinity: Option<Vec<usize>>,
    realtime: Option<RealtimePolicy>,
}

impl ThreadPerBlock {
    /// Thread-per-block with no affinity, normal priority.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pins the thread of block `name` to `cores`.
    pub fn pin(mut self, name: impl Into<String>, cores: Vec<usize>) -> Self {
        self.affinity.insert(name.into(), cores);
        self
    }

    /// Pins every block without its own pinning to `cores`.
    pub fn pin_all(mut self, cores: Vec<usize>) -> Self {
        self.default_affinity = Some(cores);
        self
    }

    /// Runs every thread in a real-time class (warns once and continues if not permitted).
    pub fn realtime(mut self, policy: RealtimePolicy) -> Self {
        self.realtime = Some(policy);
        self
    }
}

impl Scheduler for ThreadPerBlock {
    /// `tpb`, or `tpb-rt` with real-time priority.
    fn name(&self) -> &str {
        if self.realtime.is_some() {
            "tpb-rt"
        } else {
            "tpb"
        }
    }

    fn launch(&self, graph: ReadyGraph) -> Result<Vec<JoinHandle<Vec<BlockTask>>>, RunError> {
        let n = graph.topology().len();
        let control = graph.control().clone();
        let parkers = (0..n).map(|_| Arc::new(Parker::new())).collect();
        let tasks = graph.into_tasks(parkers)?;
        let mut jobs: Vec<ThreadJob> = Vec::with_capacity(n);
        for task in tasks {
            let cores = self
                .affinity
                .get(task.name())
                .or(self.default_affinity.as_ref())
                .cloned();
            let realtime = self.realtime;
            let block = task.name().to_owned();
            jobs.push(ThreadJob {
                name: thread_name("rf-", &block),
                tasks: vec![task],
                run: Box::new(move |tasks| {
                    if let Some(c) = cores
                        && let Err(e) = pin_current_thread(&c)
                    {
                        tracing::warn!("cannot pin {block} to {c:?}: {e}");
                    }
                    if let Some(p) = realtime {
                        set_realtime(p);
                    }
                    tasks.into_iter().flat_map(run_task).collect()
                }),
            });
        }
        spawn_all(self.name(), &control, jobs)
    }
}
