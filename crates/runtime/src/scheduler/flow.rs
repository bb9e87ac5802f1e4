//! `flow`: one worker per core; chains of blocks stay on one worker and run depth-first in
//! cache-sized chunks (the "scheduler emulation" of Bloessl et al. 2019, generalised to any
//! graph).

use super::balance::{Seat, Team};
use super::crossing::Crossing;
use super::placement::{place, Placement};
use super::thread::{pin_current_thread, spawn_all, thread_name, ThreadJob};
use super::worker::{run_task, run_worker};
use super::Scheduler;
use crate::atomics::Arc;
use crate::error::RunError;
use crate::parker::Parker;
use crate::task::BlockTask;
use crate::wiring::ReadyGraph;
use std::thread::JoinHandle;

/// Buffer bytes of the connections of a block that runs on a thread of its own.
const DEDICATED_BUFFER_BYTES: usize = 256 * 1024;

/// Buffer bytes of a connection between blocks on two different workers (see `launch`).
const CROSSING_BUFFER_BYTES: usize = 1024 * 1024;

/// Worker threads `flow` accepts per CPU (see [`max_workers`]).
const WORKERS_PER_CPU: usize = 16;

/// The most worker threads a `flow` scheduler accepts on this machine: 16 per CPU available
/// to the process. A worker per CPU is the design; a few more can help blocks that wait, but
/// thousands only cost memory and start-up time (100,000 took 23 s to spawn before the system
/// refused one).
pub fn max_workers() -> usize {
    WORKERS_PER_CPU * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Why a worker count is refused, naming the option and the limit; `None` if accepted.
pub(crate) fn workers_refused(workers: usize) -> Option<String> {
    let max = max_workers();
    (workers > max).then(|| {
        format!(
            "workers={workers} is more than this machine's limit of {max} worker threads \
             ({WORKERS_PER_CPU} per CPU)"
        )
    })
}

/// Worker-per-core scheduler.
///
/// Blocks are cut into chains (linked one-to-one) and chains are spread over the workers so each
/// gets the same number of blocks. A worker steps its blocks in execution order, one chunk per
/// block per pass, so a chunk written by a block is read by the next while still in L1/L2; it
/// sleeps when a pass moves nothing. Blocks whose work may block (file I/O, throttle) get a
/// thread of their own so they never stall a worker. A worker that runs out of blocks while
/// another still has several chains takes one of them over (see [`balance`](Self::balance)).
#[derive(Clone, Debug)]
pub struct FlowScheduler {
    workers: usize,
    pin: bool,
    chunk_bytes: usize,
    buffer_bytes: Option<usize>,
    balance: bool,
    cut: bool,
    regions: bool,
    streaming_stores: bool,
    stress: Option<u32>,
}

impl Default for FlowScheduler {
    fn default() -> Self {
        Self::new()
    }
}

impl FlowScheduler {
    /// One worker per available CPU, unpinned, chunks of an eighth of the L2 cache (at least
    /// 3/8 of L1d) in buffers of two chunks, the connections of a chain borrowing two
    /// chunk-sized regions.
    pub fn new() -> Self {
        Self {
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            pin: false,
            // With regions a chain's chunks live in two regions whatever its length, so its
            // working set is about three chunks (the two regions and the chunk it reads from
            // another chain): an eighth of L2 keeps that within 3/8 of L2, the rest left to
            // the blocks' own state. Larger chunks mean fewer steps for the same bytes. Against
            // 3/8 of L1d (which kept a step's two chunks in L1): `buf` 10x10 25%, 20x20 24%,
            // 2x2 40%, `opti` S=10 19% faster, a 20-FIR chain unchanged (docs/notes/benchmarks-history.md,
            // "What moved `buf`", item 3). Two chunks per buffer are all a depth-first pass needs
            // where a connection cannot borrow a region.
            chunk_bytes: (l2_bytes() / 8).max(l1d_bytes() * 3 / 8).max(1024),
            buffer_bytes: None,
            balance: true,
            cut: true,
            regions: true,
            streaming_stores: true,
            stress: None,
        }
    }

    /// Whether a worker that has run out of blocks takes a chain over from a worker that has
    /// two or more left (default `true`). Off, the placement made at start holds to the end.
    pub fn balance(mut self, on: bool) -> Self {
        self.balance = on;
        self
    }

    /// Whether a worker left with a single chain cuts it in two for a worker that has nothing
    /// to do, when the blocks' measured costs say it pays (default `true`; needs
    /// [`balance`](Self::balance)). Off, a chain stays on one worker (see `scheduler/cut.rs`).
    pub fn cut(mut self, on: bool) -> Self {
        self.cut = on;
        self
    }

    /// Whether the connections inside a chain borrow the chain's two chunk-sized regions while
    /// they are empty, so that a chunk stays in L1 down the chain (default `true`; off, every
    /// connection uses its own ring only).
    pub fn regions(mut self, on: bool) -> Self {
        self.regions = on;
        self
    }

    /// Whether the outputs read on another worker are marked so (default `true`): blocks that
    /// copy into them ([`copy_work`](crate::copy_work)) then write with non-temporal stores
    /// instead of waiting for the other worker's core to give each line up.
    pub fn streaming_stores(mut self, on: bool) -> Self {
        self.streaming_stores = on;
        self
    }

    /// Testing aid: every `passes` passes each worker hands a chain to the next worker whether
    /// or not it asked, so that tests cross the hand-over path constantly.
    #[doc(hidden)]
    pub fn balance_stress(mut self, passes: u32) -> Self {
        self.stress = Some(passes.max(1));
        self
    }

    /// Number of worker threads (at least 1). More than [`max_workers`] is refused when a
    /// graph starts, before any block does.
    pub fn workers(mut self, n: usize) -> Self {
        self.workers = n.max(1);
        self
    }

    /// Pins worker `i` to CPU `i` (modulo the CPU count).
    pub fn pin(mut self, pin: bool) -> Self {
        self.pin = pin;
        self
    }

    /// Bytes a block may write per output per work call.
    pub fn chunk_bytes(mut self, bytes: usize) -> Self {
        self.chunk_bytes = bytes.max(1);
        self
    }

    /// Buffer size for connections without their own size (default: two chunks).
    pub fn buffer_bytes(mut self, bytes: usize) -> Self {
        self.buffer_bytes = Some(bytes);
        self
    }

    /// The sizes this scheduler will use (for models of its memory traffic).
    pub fn geometry(&self) -> FlowGeometry {
        let buffer_bytes = self.buffer_bytes.unwrap_or(2 * self.chunk_bytes);
        FlowGeometry {
            workers: self.workers,
            chunk_bytes: self.chunk_bytes,
            buffer_bytes,
            crossing_buffer_bytes: buffer_bytes.max(CROSSING_BUFFER_BYTES),
            regions: self.regions,
        }
    }
}

/// The sizes of a [`FlowScheduler`] run, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowGeometry {
    /// Worker threads.
    pub workers: usize,
    /// What a block may write per output per work call.
    pub chunk_bytes: usize,
    /// The buffer of a connection inside a worker.
    pub buffer_bytes: usize,
    /// The buffer of a connection between two workers.
    pub crossing_buffer_bytes: usize,
    /// The connections inside a chain borrow two regions of a chunk (when a chunk fits their
    /// ring).
    pub regions: bool,
}

/// Size of the L1 data cache of CPU 0 (from Linux sysfs), 32 KiB if unknown.
pub fn l1d_bytes() -> usize {
    cache_bytes("1", "Data").unwrap_or(32 * 1024)
}

/// Size of the L2 cache of CPU 0 (from Linux sysfs), 512 KiB if unknown.
pub fn l2_bytes() -> usize {
    cache_bytes("2", "Unified").unwrap_or(512 * 1024)
}

/// Size of CPU 0's cache of this level and type, as Linux describes it in sysfs.
fn cache_bytes(level: &str, kind: &str) -> Option<usize> {
    // Miri runs isolated from the file system.
    let probe = if cfg!(miri) { 0 } else { 8 };
    for i in 0..probe {
        let base = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let read = |f: &str| std::fs::read_to_string(format!("{base}/{f}")).unwrap_or_default();
        if read("level").trim() == level && read("type").trim() == kind {
            let size = read("size");
            let size = size.trim();
            let (digits, unit) = match size.strip_suffix('K') {
                Some(k) => (k, 1024),
                None => match size.strip_suffix('M') {
                    Some(m) => (m, 1024 * 1024),
                    None => (size, 1),
                },
            };
            return digits.parse::<usize>().ok().map(|n| n * unit);
        }
    }
    None
}

impl Scheduler for FlowScheduler {
    fn name(&self) -> &str {
        "flow"
    }

    fn check(&self) -> Result<(), RunError> {
        match workers_refused(self.workers) {
            Some(error) => Err(RunError::Scheduler {
                scheduler: "flow".into(),
                error,
            }),
            None => Ok(()),
        }
    }

    fn launch(&self, mut graph: ReadyGraph) -> Result<Vec<JoinHandle<Vec<BlockTask>>>, RunError> {
        let order = graph.topology().execution_order();
        let plan = place(graph.topology(), &order, self.workers);
        let placement = plan.placement;
        let mut chain_of = vec![usize::MAX; order.len()];
        let mut link_of = vec![0; order.len()];
        for (c, chain) in plan.chains.iter().enumerate() {
            for (i, &b) in chain.iter().enumerate() {
                chain_of[b] = c;
                link_of[b] = i;
            }
        }
        let control = graph.control().clone();
        let worker_parkers: Vec<Arc<Parker>> =
            (0..self.workers).map(|_| Arc::new(Parker::new())).collect();
        let parkers = placement
            .iter()
            .map(|p| match p {
                Placement::Worker(w) => worker_parkers[*w].clone(),
                Placement::Dedicated => Arc::new(Parker::new()),
            })
            .collect();
        let geometry = self.geometry();
        let default_bytes = geometry.buffer_bytes;
        graph.set_default_buffer_size(default_bytes);
        // A block on a thread of its own hands data across threads on every call: larger
        // buffers around it let both sides run longer between wake-ups (a Python block under
        // `flow` went from 5.1 to ~1 ns per item with 256 KiB).
        graph.set_buffer_size_where(default_bytes.max(DEDICATED_BUFFER_BYTES), |w, r| {
            placement[w] == Placement::Dedicated || placement[r] == Placement::Dedicated
        });
        // A connection between two workers couples them: with a few chunks of slack the
        // writer's worker sleeps whenever the reader's worker is behind, and the two wake
        // each other chunk by chunk (`buf` 2x2 took 3-4x longer with 32 KiB than with 1 MiB;
        // the larger size only fills when the reader falls behind, so a stream that keeps up
        // gains no latency).
        let crossing = |w: usize, r: usize| {
            matches!(
                (placement[w], placement[r]),
                (Placement::Worker(a), Placement::Worker(b)) if a != b
            )
        };
        graph.set_buffer_size_where(geometry.crossing_buffer_bytes, crossing);
        // Rewriting a line the other worker's core has read waits for that core to give it
        // up: the head of `buf` 10x10 took 14-15 us per 64 KiB chunk so, 2.2 us on one worker
        // (`copy.rs`). Outputs read on another worker are marked so that copies into them
        // stream. (A hint that a chain handed over between workers leaves stale: time only.
        // Blocks on threads of their own are not marked: the kernel may run them anywhere.)
        if self.streaming_stores {
            graph.mark_read_elsewhere(crossing);
        }
        // Connections inside a chain borrow one of the chain's two regions of a chunk while
        // they are empty, alternating along the chain, so that a chunk goes down the chain
        // between two areas that stay in L1 (`buffer/region.rs`; a chain runs on one worker
        // at a time and moves whole). Blocks on threads of their own are in no chain.
        if self.regions {
            graph.share_regions(self.chunk_bytes, |w, r| {
                let same_chain = chain_of[w] != usize::MAX && chain_of[w] == chain_of[r];
                same_chain.then(|| 2 * chain_of[w] + link_of[w] % 2)
            });
        }
        // Workers that start without a block join the team when a chain could be cut for them
        // (`cut.rs`): they start hungry.
        let mut idle: Vec<usize> = (0..self.workers)
            .filter(|&w| !placement.contains(&Placement::Worker(w)))
            .collect();
        let cuttable = plan.chains.iter().any(|c| c.len() >= 2);
        if !(self.balance && self.cut && cuttable) {
            idle.clear();
        }
        // A cut is measured with the clock (calibrated here rather than on a worker's thread)
        // and judged by what crossing cores costs on this machine (measured once per process,
        // on a thread of its own: `crossing.rs`).
        let cutting = self.balance && self.cut && cuttable && self.workers > 1;
        if cutting {
            crate::clock::init();
            Crossing::start_measuring();
        }
        let idle_parkers: Vec<Arc<Parker>> =
            idle.iter().map(|&w| worker_parkers[w].clone()).collect();
        let (tasks, idle_slots) = graph.into_tasks_with_idle(parkers, &idle_parkers)?;
        let mut slots: Vec<Option<BlockTask>> = tasks.into_iter().map(Some).collect();
        let mut per_worker: Vec<Vec<BlockTask>> = (0..self.workers).map(|_| Vec::new()).collect();
        let mut dedicated = Vec::new();
        for (rank, &b) in order.iter().enumerate() {
            let mut task = slots[b].take().expect("each block once in the order");
            task.chain = chain_of[b];
            task.rank = rank;
            match placement[b] {
                Placement::Worker(w) => {
                    task.limit_output_bytes(self.chunk_bytes);
                    per_worker[w].push(task);
                }
                // A thread of its own has no chain to keep in cache: its calls are as large as
                // the buffers allow, so that a blocking block (I/O, a Python block holding the
                // interpreter) pays its per-call cost and thread hand-offs as rarely as possible.
                Placement::Dedicated => dedicated.push(task),
            }
        }
        // The team: workers that have tasks, with the thread slot their tasks were given.
        let (mut team_parkers, mut team_slots, mut team_tasks) = (Vec::new(), Vec::new(), 0);
        let mut members = Vec::new();
        for (w, (tasks, parker)) in per_worker.into_iter().zip(worker_parkers).enumerate() {
            let slot = match tasks.first() {
                Some(first) => first.slot(),
                None => match idle.iter().position(|&i| i == w) {
                    Some(k) => idle_slots[k],
                    None => continue,
                },
            };
            team_slots.push(slot);
            team_parkers.push(parker);
            team_tasks += tasks.iter().filter(|t| !t.is_finished()).count();
            members.push((w, tasks));
        }
        let team = (self.balance && members.len() > 1).then(|| {
            Team::new(
                team_parkers.clone(),
                team_slots,
                team_tasks,
                plan.chains.len(),
                self.stress,
                cutting,
            )
        });
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut jobs: Vec<ThreadJob> = Vec::new();
        for (seat, ((w, tasks), parker)) in members.into_iter().zip(team_parkers).enumerate() {
            let pin = self.pin.then_some(w % cpus);
            let seat = team.as_ref().map(|t| Seat::new(t.clone(), seat));
            jobs.push(ThreadJob {
                name: format!("rf-flow-{w}"),
                tasks,
                run: Box::new(move |tasks| {
                    if let Some(cpu) = pin
                        && let Err(e) = pin_current_thread(&[cpu])
                    {
                        tracing::warn!("cannot pin flow worker {w} to CPU {cpu}: {e}");
                    }
                    run_worker(tasks, &parker, seat)
                }),
            });
        }
        for task in dedicated {
            jobs.push(ThreadJob {
                name: thread_name("rf-", task.name()),
                tasks: vec![task],
                run: Box::new(|tasks| tasks.into_iter().flat_map(run_task).collect()),
            });
        }
        spawn_all("flow", &control, jobs)
    }
}
