//! [`BlockTask`]: one block with everything it needs to run, stepped by a scheduler.
//!
//! All schedulers share this code: they only decide which thread steps which task and when a
//! thread sleeps. [`BlockTask::step`] handles messages, calls `work` between a snapshot and a
//! publication of the port positions, wakes neighbours, and decides end of stream.

use crate::activation::Activation;
use crate::atomics::{Arc, AtomicBool};
use crate::block::{Block, WorkStatus};
use crate::clock;
use crate::error::{BlockError, RunError};
use crate::message::Inbox;
use crate::parker::Parker;
use crate::port::Ports;
use crate::port_table::{After, Before, PortTable};
use crate::stats::{BlockCounters, Counters, ThreadStats, COUNTERS_COMPILED};
use crate::trace::{TraceConfig, TraceRing};
use crate::valgrind;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::{Acquire, Release};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Messages handled per step before `work` gets a turn.
const MESSAGES_PER_STEP: usize = 256;

/// Outcome of one [`BlockTask::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Something moved; step again.
    Progress,
    /// Nothing can move until a neighbour wakes the task.
    Idle,
    /// The block finished (or the run was stopped, or it failed); never step it again.
    Done,
}

/// A stream output, `(block, output)`, and its buffer.
pub(crate) type OutputBuffer = ((usize, usize), Arc<crate::buffer::StreamBuffer>);

/// State shared by all threads of one run: the stop flag, the first failure, and every block's
/// activation
/// (to wake everyone on stop).
#[derive(Debug, Default)]
pub struct RunControl {
    stop: AtomicBool,
    failure: Mutex<Option<RunError>>,
    activations: OnceLock<Vec<Arc<Activation>>>,
    /// Every block's inbox and its message-input count, for [`crate::MessagePoster`].
    inboxes: OnceLock<Vec<(Arc<Inbox>, usize)>>,
    /// Every stream output's buffer by `(block, output)`, for [`crate::BufferFill`].
    buffers: OnceLock<Vec<OutputBuffer>>,
    /// Blocks sleeping in `interruptible_sleep` wait here; a stop wakes them.
    sleepers: Mutex<()>,
    stopped: Condvar,
    /// The tasks of a launch that failed after they were made (a thread that could not be
    /// spawned), stopped, for the flowgraph to take its blocks back.
    given_back: Mutex<Vec<BlockTask>>,
}

impl RunControl {
    /// Asks every task to finish now and wakes every thread.
    pub fn request_stop(&self) {
        valgrind::untracked(&self.stop);
        valgrind::happens_before(&self.stop);
        self.stop.store(true, Release);
        for a in self.activations.get().into_iter().flatten() {
            a.notify();
        }
        // Under the sleepers' lock, so that a sleeper that checked the flag before the store
        // is already waiting when the notification comes.
        let _sleepers = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
        self.stopped.notify_all();
    }

    /// Sleeps `duration` unless a stop comes first; `true` if the whole duration passed.
    pub(crate) fn sleep(&self, duration: Duration) -> bool {
        let deadline = Instant::now() + duration;
        let mut guard = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if self.stop_requested() {
                return false;
            }
            let now = Instant::now();
            if now >= deadline {
                return true;
            }
            guard = match self.stopped.wait_timeout(guard, deadline - now) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
    }

    /// Whether a stop was requested (by the user or by a failure).
    pub fn stop_requested(&self) -> bool {
        let stop = self.stop.load(Acquire);
        if stop {
            valgrind::happens_after(&self.stop);
        }
        stop
    }

    /// Records `e` if it is the first failure, and stops the run.
    pub(crate) fn fail(&self, e: RunError) {
        {
            let mut f = self.failure.lock().unwrap_or_else(|p| p.into_inner());
            if f.is_none() {
                *f = Some(e);
            }
        }
        self.request_stop();
    }

    pub(crate) fn take_failure(&self) -> Option<RunError> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    /// Hands the stopped tasks of a failed launch back to the flowgraph.
    pub(crate) fn give_back(&self, tasks: Vec<BlockTask>) {
        self.given_back
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(tasks);
    }

    /// The tasks a failed launch handed back.
    pub(crate) fn take_given_back(&self) -> Vec<BlockTask> {
        std::mem::take(&mut *self.given_back.lock().unwrap_or_else(|p| p.into_inner()))
    }

    pub(crate) fn set_activations(&self, activations: Vec<Arc<Activation>>) {
        let _ = self.activations.set(activations);
    }

    pub(crate) fn set_buffers(&self, buffers: Vec<OutputBuffer>) {
        let _ = self.buffers.set(buffers);
    }

    /// `(items, capacity)` of the buffer of `block`'s stream output `output`.
    pub(crate) fn buffer_fill(&self, block: usize, output: usize) -> Option<(u64, u64)> {
        self.buffers
            .get()?
            .iter()
            .find(|(at, _)| *at == (block, output))
            .map(|(_, b)| b.fill())
    }

    pub(crate) fn set_inboxes(&self, inboxes: Vec<(Arc<Inbox>, usize)>) {
        let _ = self.inboxes.set(inboxes);
    }

    /// Posts `msg` to message input `port` of block `block` from outside the graph and wakes
    /// the block's thread; `false` if there is no such running block or input.
    pub(crate) fn post(&self, block: usize, port: usize, msg: radioflow_pmt::Pmt) -> bool {
        let (Some((inbox, inputs)), Some(activation)) = (
            self.inboxes.get().and_then(|v| v.get(block)),
            self.activations.get().and_then(|v| v.get(block)),
        ) else {
            return false;
        };
        if port >= *inputs || !inbox.post_external(port, msg) {
            return false;
        }
        activation.notify();
        true
    }
}

/// What a task records while it runs (see `stats.rs`, `trace.rs`).
#[derive(Debug)]
pub(crate) struct Instrument {
    /// The block's live counters, shared with the flowgraph.
    pub(crate) counters: std::sync::Arc<BlockCounters>,
    pub(crate) level: Counters,
    pub(crate) trace: Option<TraceConfig>,
}

/// A block ready to run: the block, its wake-up channel, its inbox, and its run-time flags.
pub struct BlockTask {
    pub(crate) index: usize,
    /// The chain the scheduler put the block in (`flow`; 0 elsewhere): a worker repeats a
    /// chain while it moves before going on to the next (`scheduler/worker.rs`).
    pub(crate) chain: usize,
    /// Position in the scheduler's execution order (a worker keeps its tasks sorted by it).
    pub(crate) rank: usize,
    /// Clock ticks in `step` while a `flow` worker measures its chain before cutting it
    /// (`scheduler/balance.rs`).
    pub(crate) cost: u64,
    /// Steps that moved something while `cost` was measured.
    pub(crate) cost_steps: u32,
    /// Items the block wrote while `cost` was measured.
    pub(crate) cost_items: u64,
    /// Items the last step wrote (all outputs).
    pub(crate) produced_last: u64,
    pub(crate) name: std::sync::Arc<str>,
    pub(crate) block: Box<dyn Block>,
    /// The task's handles on the block's stream endpoints.
    ports: PortTable,
    activation: Arc<Activation>,
    inbox: Arc<Inbox>,
    control: Arc<RunControl>,
    /// A pure message block (message inputs, no stream ports): it ends when every sender has
    /// finished and its inbox is empty (at once if no sender is connected).
    message_driven: bool,
    /// The block makes messages on its own clock ([`Block::is_message_source`]).
    message_source: bool,
    max_items: u64,
    /// Bytes each output may receive per work call (set by cache-aware schedulers).
    max_bytes: u64,
    finished: bool,
    /// The caps on the block's windows were lifted once already (`no_progress`).
    widened: bool,
    pub(crate) counters: std::sync::Arc<BlockCounters>,
    /// Record counts (compiled in and not switched off).
    counting: bool,
    /// Read the clock around `work` (time counters or a trace).
    timed: bool,
    /// Record the time in work into the counters.
    time_counters: bool,
    pub(crate) trace: Option<Box<TraceRing>>,
    /// Set on one task per scheduler thread when that thread ends.
    pub(crate) thread: Option<ThreadStats>,
}

impl std::fmt::Debug for BlockTask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockTask")
            .field("name", &self.name)
            .finish()
    }
}

impl BlockTask {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        index: usize,
        name: std::sync::Arc<str>,
        block: Box<dyn Block>,
        mut ports: PortTable,
        activation: Arc<Activation>,
        inbox: Arc<Inbox>,
        control: Arc<RunControl>,
        message_driven: bool,
        max_items: u64,
        instrument: Instrument,
    ) -> Self {
        ports.limit(max_items, u64::MAX);
        let time_counters = COUNTERS_COMPILED && instrument.level == Counters::Timed;
        let trace = instrument
            .trace
            .filter(|_| COUNTERS_COMPILED)
            .map(|c| Box::new(TraceRing::new(c)));
        let timed = time_counters || trace.is_some();
        if timed {
            clock::init();
        }
        let message_source = block.is_message_source();
        Self {
            index,
            chain: 0,
            rank: index,
            cost: 0,
            cost_steps: 0,
            cost_items: 0,
            produced_last: 0,
            name,
            block,
            ports,
            activation,
            inbox,
            control,
            message_driven,
            message_source,
            max_items,
            max_bytes: u64::MAX,
            finished: false,
            widened: false,
            counters: instrument.counters,
            counting: COUNTERS_COMPILED && instrument.level != Counters::Off,
            timed,
            time_counters,
            trace,
            thread: None,
        }
    }

    /// The block's instance name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The run this task belongs to.
    pub(crate) fn control(&self) -> &Arc<RunControl> {
        &self.control
    }

    /// The parker of the thread this task was assigned to.
    pub fn parker(&self) -> &Arc<Parker> {
        self.activation.parker()
    }

    /// Whether a neighbour (or the task's own progress) raised the task's ready flag since the
    /// last call; lowers it. Threads that step many tasks step only ready ones.
    pub fn take_ready(&self) -> bool {
        self.activation.take()
    }

    /// Raises the task's ready flag (from the thread that steps it).
    pub fn mark_ready(&self) {
        self.activation.raise();
    }

    /// The thread slot the task runs on (see `activation.rs`).
    pub(crate) fn slot(&self) -> usize {
        self.activation.slot()
    }

    /// Hands the task to the thread in `slot` (called by the thread that runs it, before it
    /// passes the task on).
    pub(crate) fn move_to(&self, slot: usize) {
        self.activation.move_to(slot);
    }

    /// Bytes of the widest item among the block's stream outputs (0 without any).
    pub(crate) fn output_item_bytes(&self) -> u64 {
        self.ports.output_item_bytes()
    }

    /// Keeps the items of every output in its ring from now on; returns whether some are still
    /// in a region (see [`PortTable::leave_regions`]).
    pub(crate) fn leave_regions(&mut self) -> bool {
        self.ports.leave_regions()
    }

    /// Caps what the block may write per output per work call at `bytes` (at least one item),
    /// so that a chunk stays in cache while it travels down a chain.
    pub fn limit_output_bytes(&mut self, bytes: usize) {
        self.max_bytes = self.max_bytes.min(bytes as u64);
        self.ports.limit(self.max_items, self.max_bytes);
    }

    /// Records the calling thread's statistics for this run in this task (call on one task per
    /// thread, when the thread ends); they travel back to the flowgraph with the task.
    pub fn record_thread(&mut self) {
        self.thread = Some(ThreadStats::of_current_thread());
    }

    /// Whether the task finished.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Runs the block once: pending messages, then one work call, then bookkeeping.
    pub fn step(&mut self) -> Step {
        if self.finished {
            return Step::Done;
        }
        self.counters.enter();
        let step = self.step_block();
        self.counters.leave();
        step
    }

    fn step_block(&mut self) -> Step {
        if self.control.stop_requested() {
            return self.stopped();
        }
        let mut handled = 0;
        if self.inbox.has_senders() {
            match self.handle_messages() {
                Ok(n) => handled = n,
                Err(e) => return self.fail(e),
            }
        }
        let before = self.ports.before();
        let worked = !before.starved && !before.blocked;
        let mut status = WorkStatus::Continue;
        let after;
        if worked {
            // With the counters compiled out (a constant false) the instrumentation goes.
            if COUNTERS_COMPILED && self.timed {
                match self.timed_work() {
                    Ok((s, a)) => (status, after) = (s, a),
                    Err(e) => return self.fail(e),
                }
            } else {
                let block = &mut self.block;
                match guard(&self.name, || block.work()) {
                    Ok(s) => status = s,
                    Err(e) => return self.fail(e),
                }
                after = self.ports.after();
                if COUNTERS_COMPILED && self.counting {
                    self.counters.record_work(after.consumed, after.produced);
                }
            }
        } else {
            // Commits anyway: a writer may hand back a region its empty buffer held.
            after = self.ports.after();
            if COUNTERS_COMPILED && self.counting {
                self.counters.record_idle(before.starved, before.blocked);
            }
        }
        if COUNTERS_COMPILED && self.counting && handled > 0 {
            self.counters.record_messages(handled);
        }
        // A message source's work waits for its own clock: each call is progress.
        let progress = handled > 0 || after.progress() || (worked && self.message_source);
        self.produced_last = after.produced;
        // Upstream end of stream: nobody reads what this block produces.
        if status == WorkStatus::Done || before.outputs_dead {
            self.finish();
            Step::Done
        } else if progress {
            Step::Progress
        } else {
            self.no_progress(&before, worked, status == WorkStatus::WaitMessage)
        }
    }

    /// After a step that moved nothing: the block finished (end of stream), may move with a
    /// larger window, can never move again (an error naming it and the input it cannot empty),
    /// or waits for a neighbour (or, `waits_message`, for a message that may still come).
    #[cold]
    fn no_progress(&mut self, before: &Before, worked: bool, waits_message: bool) -> Step {
        // A block that comes back from a long call after a stop is stopped, not stuck.
        if self.control.stop_requested() {
            return self.stopped();
        }
        if waits_message && self.messages_may_come() {
            return Step::Idle;
        }
        let ends = self.idle_ends(before);
        // A window held below the buffer by the scheduler's per-call cap (or a region) may be
        // what the block is waiting for: before judging it finished or stuck, let it try once
        // with everything its buffers can give.
        let stuck = if ends || !worked || self.block.is_blocking() || self.messages_may_come() {
            None
        } else {
            self.ports.stuck()
        };
        if (ends || stuck.is_some()) && !self.widened {
            self.widened = true;
            if self.ports.widen() {
                return Step::Progress;
            }
        }
        if ends {
            self.finish();
            return Step::Done;
        }
        match stuck {
            Some(s) => {
                let e = RunError::Stalled {
                    block: self.name.to_string(),
                    port: s.input.to_string(),
                    error: format!(
                        "its input '{}' holds {} items, as many as its buffer can, and work() \
                         consumed none with room on every output: the block needs a larger \
                         window than the buffer gives; declare it with \
                         StreamInput::with_min_items (or StreamOutput::with_min_items)",
                        s.input, s.items
                    ),
                };
                self.fail(e)
            }
            None => Step::Idle,
        }
    }

    /// Whether a message may still arrive (a connected sender has not finished, or one is
    /// queued).
    fn messages_may_come(&self) -> bool {
        self.inbox.has_senders() && !self.inbox.exhausted()
    }

    /// Whether a block that could not move this step has finished. Downstream end of stream,
    /// as GNU Radio decides it: the block is not waiting for output space, and its inputs will
    /// not give it anything new (all are final, or one it needs is final and empty). "Waiting
    /// for space" counts the snapshot before work too: space freed meanwhile does not mean
    /// the block had a chance to use it. A message-driven block ends when every sender
    /// finished and its inbox is empty.
    #[cold]
    fn idle_ends(&mut self, before: &Before) -> bool {
        (!before.output_full && !self.ports.output_full() && self.ports.inputs_over())
            || (self.message_driven && self.inbox.exhausted())
    }

    /// Handles up to [`MESSAGES_PER_STEP`] pending messages; returns how many.
    #[inline(never)]
    fn handle_messages(&mut self) -> Result<u64, RunError> {
        let mut handled = 0;
        for _ in 0..MESSAGES_PER_STEP {
            let Some((port, msg)) = self.inbox.pop() else {
                break;
            };
            handled += 1;
            let block = &mut self.block;
            guard(&self.name, || block.handle_message(port, msg))?;
        }
        Ok(handled)
    }

    /// One work call timed for the counters and the trace, and its publication.
    #[inline(never)]
    fn timed_work(&mut self) -> Result<(WorkStatus, After), RunError> {
        let t0 = clock::now();
        let block = &mut self.block;
        let status = guard(&self.name, || block.work())?;
        let t1 = clock::now();
        let after = self.ports.after();
        if self.counting {
            self.counters.record_work(after.consumed, after.produced);
            if self.time_counters {
                self.counters.record_time(t1.wrapping_sub(t0));
            }
        }
        if let Some(t) = &mut self.trace {
            t.record(t0, t1, after.produced);
        }
        Ok((status, after))
    }

    /// The run was asked to stop: finish now.
    #[cold]
    fn stopped(&mut self) -> Step {
        self.finish();
        Step::Done
    }

    #[cold]
    fn fail(&mut self, e: RunError) -> Step {
        self.control.fail(e);
        self.release();
        Step::Done
    }

    /// Normal end: the block's `stop` hook, then release the ports.
    fn finish(&mut self) {
        let block = &mut self.block;
        if let Err(e) = guard(&self.name, || block.stop()) {
            self.control.fail(e);
        }
        self.release();
    }

    /// Publishes the end of the block's streams and messages and wakes its neighbours.
    fn release(&mut self) {
        if !self.finished {
            self.finished = true;
            self.counters.finish();
            self.inbox.close();
            self.ports.finish();
            // A panicking port visitor must not take the scheduler thread down (the streams
            // are already finished above).
            let _ = catch_unwind(AssertUnwindSafe(|| self.block.ports(&mut Ports::detach())));
        }
    }
}

/// Runs block code, turning an error or a panic into a [`RunError`] naming the block.
pub(crate) fn guard<R>(
    name: &str,
    f: impl FnOnce() -> Result<R, BlockError>,
) -> Result<R, RunError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(RunError::BlockFailed {
            block: name.to_owned(),
            error: e.to_string(),
        }),
        Err(panic) => Err(RunError::BlockPanicked {
            block: name.to_owned(),
            message: panic_message(&panic),
        }),
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_owned()
    }
}
