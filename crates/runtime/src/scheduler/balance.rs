//! Balancing `flow` workers while they run: a worker that has run out of work says so, and a
//! worker with more than one chain left hands it one of them.
//!
//! The static placement (`placement.rs`) spreads chains by block count, which cannot split
//! three equal pipes over two cores, and knows nothing of block costs. So when a worker has
//! finished all its blocks it raises its *hungry* flag and sleeps; at the end of its next pass,
//! a worker that still has two or more unfinished chains claims the flag and gives away the
//! chain that comes last in execution order: it moves the chain's tasks to the hungry worker's
//! thread slot (`Activation::move_to`), pushes them into that worker's inbox and wakes it. The
//! receiver steps every task it receives, so a wake-up that went to the old thread is not lost.
//! A worker never gives away its last unfinished chain, and a chain moves whole, so the blocks
//! that pass data one-to-one stay on one core.
//!
//! A worker with a single chain left cuts it in two instead, when measured costs say it pays,
//! and gives the tail (`cut.rs`); a team therefore also seats workers that start without a
//! block, hungry from the start. The cutter then compares the chain's throughput after the cut
//! with before; a cut that did not pay is undone: the cutter posts a *recall* to the worker
//! that took the tail, which hands the tail's tasks back at the end of its next pass, numbered
//! as the cutter's chain again, and the chain runs on one worker.
//!
//! Cost per pass while nobody is hungry: two relaxed loads (the hungry count, this worker's
//! recall), and a clock read while a cut is checked. Workers leave when every task of
//! the team has finished (a shared count; the last finisher wakes everyone).

use super::crossing::Crossing;
use super::cut::{
    best_cut, keeps, retry_passes, DRAIN_PASSES, MEASURE_PASSES, RETRY_PASSES, SETTLE_NS, WINDOW_NS,
};
use crate::atomics::{fence, Arc, AtomicBool, AtomicUsize};
use crate::clock;
use crate::parker::Parker;
use crate::task::BlockTask;
use crate::valgrind;
use crossbeam_queue::SegQueue;
use crossbeam_utils::CachePadded;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release, SeqCst};

/// The workers of one `flow` run.
#[derive(Debug)]
pub(crate) struct Team {
    /// Per worker: its parker and its thread slot.
    parkers: Vec<Arc<Parker>>,
    slots: Vec<usize>,
    inbox: Vec<SegQueue<BlockTask>>,
    incoming: Vec<CachePadded<AtomicBool>>,
    hungry: Vec<CachePadded<AtomicBool>>,
    hungry_count: CachePadded<AtomicUsize>,
    /// Unfinished tasks of all workers (including tasks on their way between workers).
    live: CachePadded<AtomicUsize>,
    /// Testing: give a chain to the next worker every this many passes, hungry or not.
    stress: Option<u32>,
    /// The next chain number free for the tail of a cut chain.
    next_chain: AtomicUsize,
    /// Whether a worker's last chain may be cut for a hungry worker (`cut.rs`).
    cut: bool,
    /// Per worker: a chain another worker asks back (a cut undone).
    recall: Vec<CachePadded<Recall>>,
}

/// A request to a worker to hand chain `chain - 1` back to worker `to`, numbered `as_chain`
/// (`chain` 0: none; [`RECALL_BUSY`]: being written by the worker that asks).
#[derive(Debug)]
struct Recall {
    chain: AtomicUsize,
    to: AtomicUsize,
    as_chain: AtomicUsize,
}

/// [`Recall::chain`] while a worker fills in the request.
const RECALL_BUSY: usize = usize::MAX;

impl Team {
    /// A team of workers with these parkers and thread slots, running `tasks` unfinished tasks
    /// in all (chains as given by each task's `chain`, all below `chains`); a worker's last
    /// chain is cut for a hungry one when `cut`.
    pub(crate) fn new(
        parkers: Vec<Arc<Parker>>,
        slots: Vec<usize>,
        tasks: usize,
        chains: usize,
        stress: Option<u32>,
        cut: bool,
    ) -> Arc<Self> {
        let n = parkers.len();
        let flag = || CachePadded::new(AtomicBool::new(false));
        let team = Arc::new(Self {
            parkers,
            slots,
            inbox: (0..n).map(|_| SegQueue::new()).collect(),
            incoming: (0..n).map(|_| flag()).collect(),
            hungry: (0..n).map(|_| flag()).collect(),
            hungry_count: CachePadded::new(AtomicUsize::new(0)),
            live: CachePadded::new(AtomicUsize::new(tasks)),
            stress,
            next_chain: AtomicUsize::new(chains),
            cut,
            recall: (0..n)
                .map(|_| {
                    CachePadded::new(Recall {
                        chain: AtomicUsize::new(0),
                        to: AtomicUsize::new(0),
                        as_chain: AtomicUsize::new(0),
                    })
                })
                .collect(),
        });
        for f in team.incoming.iter().chain(&team.hungry) {
            valgrind::untracked(&**f);
        }
        for r in &team.recall {
            valgrind::untracked(&**r);
        }
        valgrind::untracked(&*team.hungry_count);
        valgrind::untracked(&*team.live);
        team
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        // The last worker to leave frees the queues that the others wrote: the order comes
        // from `Arc`'s reference count, which the race detectors cannot see.
        valgrind::happens_after(&*self);
    }
}

/// One worker's place in its team.
#[derive(Debug)]
pub(crate) struct Seat {
    team: Arc<Team>,
    worker: usize,
    passes: u32,
    cut: Cutting,
    /// Cuts of this worker undone so far (`cut.rs`, [`retry_passes`]).
    undos: u32,
    /// Stress cuts made so far (every other one is undone).
    stress_cuts: u32,
}

/// Where a worker is in cutting its last chain (`cut.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cutting {
    /// Not cutting.
    Idle,
    /// Measuring chain `chain`: waiting since clock tick `since` for the chain to settle
    /// ([`SETTLE_NS`]), then (`settled`) timing its steps since `since`; `passes` more to go
    /// (at least).
    Measuring {
        chain: usize,
        passes: u32,
        since: u64,
        settled: bool,
    },
    /// Chain `chain` is cut before its block of rank `from` as soon as no region of it holds
    /// items; `passes` more to wait.
    Draining {
        chain: usize,
        from: usize,
        passes: u32,
        before: Before,
    },
    /// Chain `chain` was cut, its tail (now chain `tail`) given to worker `to` at tick `since`;
    /// once `settled`, the items of the chain's first block are counted from `since` on.
    Verifying {
        chain: usize,
        tail: usize,
        to: usize,
        before: Before,
        since: u64,
        settled: bool,
    },
    /// Chain `chain` was measured: a cut would not pay (measured again after `passes` more).
    Declined { chain: usize, passes: u32 },
}

/// The chain's throughput before a cut, to compare with after.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Before {
    /// Rank of the chain's first block, whose items are counted.
    first: usize,
    /// Items it wrote per second (NaN for a stress cut, which is not measured).
    rate: f64,
    /// Nanoseconds it was measured over.
    window_ns: f64,
}

impl Before {
    /// A stress cut's: nothing measured.
    const STRESS: Before = Before {
        first: usize::MAX,
        rate: f64::NAN,
        window_ns: 0.0,
    };
}

impl Drop for Seat {
    fn drop(&mut self) {
        // Everything this worker did to the team happens before the team is freed.
        valgrind::happens_before(&*self.team);
    }
}

impl Seat {
    pub(crate) fn new(team: Arc<Team>, worker: usize) -> Self {
        Self {
            team,
            worker,
            passes: 0,
            cut: Cutting::Idle,
            undos: 0,
            stress_cuts: 0,
        }
    }

    /// Whether this worker times its steps now (measuring its chain for a cut, or checking a
    /// cut made).
    pub(crate) fn measuring(&self) -> bool {
        match self.cut {
            Cutting::Measuring { settled, .. } => settled,
            Cutting::Verifying {
                settled, before, ..
            } => settled && !before.rate.is_nan(),
            _ => false,
        }
    }

    /// Takes the tasks handed to this worker into `tasks` (kept in execution order), ready to
    /// be stepped; returns how many arrived.
    pub(crate) fn receive(&mut self, tasks: &mut Vec<BlockTask>) -> usize {
        let me = self.worker;
        if !self.team.incoming[me].load(Relaxed) || !self.team.incoming[me].swap(false, Acquire) {
            return 0;
        }
        let mut n = 0;
        while let Some(t) = self.team.inbox[me].pop() {
            valgrind::happens_after(&self.team.inbox[me]);
            t.mark_ready();
            tasks.push(t);
            n += 1;
        }
        // Pairs with the fences of `Activation::move_to` and `notify`: items published by a
        // notifier that woke the old thread are visible here.
        fence(SeqCst);
        if n > 0 {
            tasks.sort_unstable_by_key(|t| t.rank);
        }
        n
    }

    /// Whether tasks are waiting in this worker's inbox.
    pub(crate) fn has_incoming(&self) -> bool {
        self.team.incoming[self.worker].load(Acquire)
    }

    /// Records that one of this worker's tasks finished; the last one of the team wakes every
    /// worker so that they can leave.
    pub(crate) fn task_done(&self) {
        if self.team.live.fetch_sub(1, AcqRel) == 1 {
            for p in &self.team.parkers {
                p.notify();
            }
        }
    }

    /// Whether every task of the team has finished.
    pub(crate) fn all_done(&self) -> bool {
        self.team.live.load(Acquire) == 0
    }

    /// Says that this worker has nothing left to run (once until it receives work).
    pub(crate) fn set_hungry(&self) {
        let me = self.worker;
        if !self.team.hungry[me].load(Relaxed) && !self.team.hungry[me].swap(true, AcqRel) {
            self.team.hungry_count.fetch_add(1, AcqRel);
        }
    }

    /// At the end of a pass: hands back a chain another worker recalls, goes on checking a
    /// cut made; then, if another worker is hungry (or in stress mode, every few passes) and
    /// this one has two or more unfinished chains, hands one over; with one chain left, goes
    /// on cutting it (`cut.rs`). Returns how many unfinished tasks left.
    pub(crate) fn maybe_give(&mut self, tasks: &mut Vec<BlockTask>) -> usize {
        self.passes = self.passes.wrapping_add(1);
        let stress_turn = self
            .team
            .stress
            .is_some_and(|every| self.passes.is_multiple_of(every.max(1)));
        let mut given = 0;
        if self.team.recall[self.worker].chain.load(Relaxed) != 0 {
            given += self.hand_back(tasks);
        }
        if matches!(self.cut, Cutting::Verifying { .. }) {
            self.verify_step(tasks, stress_turn);
        }
        if !stress_turn && self.team.hungry_count.load(Relaxed) == 0 {
            if matches!(self.cut, Cutting::Measuring { .. }) {
                self.cut = Cutting::Idle;
            }
            return given;
        }
        // The chain to give: the last unfinished one in execution order, if another is left.
        let mut alive = tasks.iter().rev().filter(|t| !t.is_finished());
        let Some(last) = alive.next() else {
            return given;
        };
        let chain = last.chain;
        if !alive.any(|t| t.chain != chain) {
            if !self.team.cut {
                return given;
            }
            return given + self.cut_step(tasks, chain, stress_turn);
        }
        let Some(to) = self.claim_receiver(stress_turn) else {
            return given;
        };
        given + self.give(tasks, to, |t| t.chain == chain, None)
    }

    /// Hands the chain another worker recalled back to it (a cut it undid), numbered as its
    /// chain again; returns how many tasks left.
    #[cold]
    fn hand_back(&mut self, tasks: &mut Vec<BlockTask>) -> usize {
        let recall = &self.team.recall[self.worker];
        let code = recall.chain.load(Acquire);
        if code == 0 || code == RECALL_BUSY {
            return 0;
        }
        // Read before the request is cleared: nobody writes them while it stands.
        let (to, as_chain) = (recall.to.load(Relaxed), recall.as_chain.load(Relaxed));
        recall.chain.store(0, Release);
        let tail = code - 1;
        match self.cut {
            Cutting::Measuring { chain, .. }
            | Cutting::Draining { chain, .. }
            | Cutting::Verifying { chain, .. }
            | Cutting::Declined { chain, .. }
                if chain == tail =>
            {
                self.cut = Cutting::Idle;
            }
            _ => {}
        }
        let n = self.give(tasks, to, |t| t.chain == tail, Some(as_chain));
        tracing::debug!(
            "flow: worker {} handed {n} blocks back to worker {to}",
            self.worker
        );
        n
    }

    /// One pass of checking a cut this worker made: once it has settled, counts the items of
    /// the chain's first block over a window as long as the one before the cut, then keeps
    /// the cut or undoes it (`cut.rs`, [`keeps`]). A stress cut is undone every other time,
    /// on the next stress turn.
    fn verify_step(&mut self, tasks: &mut [BlockTask], stress_turn: bool) {
        let Cutting::Verifying {
            chain,
            tail,
            to,
            before,
            since,
            settled,
        } = self.cut
        else {
            return;
        };
        if before.rate.is_nan() {
            if stress_turn {
                if self.stress_cuts % 2 == 1 {
                    self.undo(chain, tail, to);
                } else {
                    self.cut = Cutting::Idle;
                }
            }
            return;
        }
        let Some(first) = tasks
            .iter_mut()
            .find(|t| t.chain == chain && t.rank == before.first && !t.is_finished())
        else {
            tracing::debug!(
                "flow: keeping a cut unchecked: the chain's first block finished before the check"
            );
            self.cut = Cutting::Idle;
            return;
        };
        let now = clock::now();
        let elapsed = clock::to_ns(now.wrapping_sub(since));
        if !settled {
            if elapsed >= SETTLE_NS {
                first.cost_items = 0;
                self.cut = Cutting::Verifying {
                    chain,
                    tail,
                    to,
                    before,
                    since: now,
                    settled: true,
                };
            }
            return;
        }
        if elapsed < before.window_ns {
            return;
        }
        let after = first.cost_items as f64 / elapsed * 1e9;
        let change = (after / before.rate - 1.0) * 100.0;
        if keeps(before.rate, after) {
            tracing::debug!(
                "flow: keeping the cut of the chain from '{}': {:.1} M items/s after it against \
                 {:.1} M before ({change:+.1}%, over {:.1} and {:.1} ms)",
                first.name(),
                after / 1e6,
                before.rate / 1e6,
                elapsed / 1e6,
                before.window_ns / 1e6
            );
            self.cut = Cutting::Idle;
            return;
        }
        // The message is put together only when it is printed.
        let name = tracing::enabled!(tracing::Level::DEBUG).then(|| first.name().to_owned());
        self.undo(chain, tail, to);
        let Some(name) = name else {
            return;
        };
        let again = match self.cut {
            Cutting::Declined { passes, .. } if passes != u32::MAX => {
                format!("measured again in {passes} passes")
            }
            _ => "not cut again in this run".to_owned(),
        };
        tracing::debug!(
            "flow: undoing the cut of the chain from '{name}': {:.1} M items/s after it against \
             {:.1} M before ({change:+.1}%, a cut must gain {:.0}%; over {:.1} and {:.1} ms); \
             {again}",
            after / 1e6,
            before.rate / 1e6,
            super::cut::KEEP_MARGIN * 100.0,
            elapsed / 1e6,
            before.window_ns / 1e6
        );
    }

    /// Asks worker `to` for chain `tail` back, as chain `chain`, and waits before cutting
    /// again ([`retry_passes`]). If `to` has a request standing already, the cut is kept.
    #[cold]
    fn undo(&mut self, chain: usize, tail: usize, to: usize) {
        let recall = &self.team.recall[to];
        if recall
            .chain
            .compare_exchange(0, RECALL_BUSY, Acquire, Relaxed)
            .is_err()
        {
            self.cut = Cutting::Idle;
            return;
        }
        recall.to.store(self.worker, Relaxed);
        recall.as_chain.store(chain, Relaxed);
        recall.chain.store(tail + 1, Release);
        self.team.parkers[to].notify();
        self.undos += 1;
        self.cut = Cutting::Declined {
            chain,
            // u32::MAX passes: never again in practice.
            passes: retry_passes(self.undos).unwrap_or(u32::MAX),
        };
    }

    /// Moves the unfinished tasks that `which` selects to worker `to` (as chain `renumber`
    /// when given) and wakes it; returns how many.
    fn give(
        &self,
        tasks: &mut Vec<BlockTask>,
        to: usize,
        which: impl Fn(&BlockTask) -> bool,
        renumber: Option<usize>,
    ) -> usize {
        let slot = self.team.slots[to];
        let mut given = 0;
        for mut t in tasks.extract_if(.., |t| !t.is_finished() && which(t)) {
            if let Some(c) = renumber {
                t.chain = c;
            }
            t.move_to(slot);
            valgrind::happens_before(&self.team.inbox[to]);
            self.team.inbox[to].push(t);
            given += 1;
        }
        self.team.incoming[to].store(true, Release);
        self.team.parkers[to].notify();
        given
    }

    /// One pass of cutting `chain`, the last one this worker has: starts measuring it, decides
    /// where to cut once measured, and gives the tail away once its regions are empty. In a
    /// stress turn every chain of two or more blocks is cut, in its middle, unmeasured.
    /// Returns how many unfinished tasks left.
    fn cut_step(&mut self, tasks: &mut Vec<BlockTask>, chain: usize, stress_turn: bool) -> usize {
        let in_chain = |t: &&BlockTask| !t.is_finished() && t.chain == chain;
        let alive = tasks.iter().filter(in_chain).count();
        if alive < 2 {
            return 0;
        }
        match self.cut {
            // A cut made is being checked: nothing more until it is kept or undone.
            Cutting::Verifying { .. } => return 0,
            _ if stress_turn => {
                if !matches!(self.cut, Cutting::Draining { chain: c, .. } if c == chain) {
                    let from = tasks.iter().filter(in_chain).nth(alive / 2).map(|t| t.rank);
                    self.start_draining(chain, from.unwrap_or(usize::MAX), Before::STRESS);
                }
            }
            Cutting::Declined { chain: c, passes } if c == chain && passes > 0 => {
                self.cut = Cutting::Declined {
                    chain,
                    passes: passes - 1,
                };
            }
            Cutting::Measuring {
                chain: c,
                passes,
                since,
                settled,
            } if c == chain => {
                let now = clock::now();
                let elapsed = clock::to_ns(now.wrapping_sub(since));
                if !settled {
                    if elapsed >= SETTLE_NS {
                        self.start_measuring(tasks, chain, true);
                    }
                } else if passes > 1 || elapsed < WINDOW_NS {
                    self.cut = Cutting::Measuring {
                        chain,
                        passes: passes.saturating_sub(1).max(1),
                        since,
                        settled,
                    };
                } else if let Some(crossing) = Crossing::get() {
                    self.decide(tasks, chain, since, &crossing);
                } else {
                    // The machine's costs are not known yet: a new window once they are.
                    self.start_measuring(tasks, chain, true);
                }
            }
            Cutting::Draining {
                chain: c,
                from,
                passes,
                before,
            } if c == chain => {
                self.cut = Cutting::Draining {
                    chain,
                    from,
                    passes: passes.saturating_sub(1),
                    before,
                };
            }
            _ => {
                self.start_measuring(tasks, chain, false);
                return 0;
            }
        }
        let Cutting::Draining {
            chain,
            from,
            passes,
            before,
        } = self.cut
        else {
            return 0;
        };
        // Every block of the chain (finished ones too: their last items may still be in a
        // region) keeps its items in its rings from now on; the cut waits until none is left
        // in a region, so that no region is ever used from two threads.
        let mut held = false;
        for t in tasks.iter_mut().filter(|t| t.chain == chain) {
            held |= t.leave_regions();
        }
        if held {
            if passes == 0 {
                self.decline(chain);
            }
            return 0;
        }
        let Some(to) = self.claim_receiver(stress_turn) else {
            return 0;
        };
        let tail = self.team.next_chain.fetch_add(1, Relaxed);
        let given = self.give(
            tasks,
            to,
            |t| t.chain == chain && t.rank >= from,
            Some(tail),
        );
        if before.rate.is_nan() {
            self.stress_cuts = self.stress_cuts.wrapping_add(1);
        }
        self.cut = Cutting::Verifying {
            chain,
            tail,
            to,
            before,
            since: clock::now(),
            settled: false,
        };
        given
    }

    /// Decides, chain `chain` measured since tick `since`, whether and where to cut it
    /// (`cut.rs`).
    #[cold]
    fn decide(&mut self, tasks: &[BlockTask], chain: usize, since: u64, crossing: &Crossing) {
        let in_chain = |t: &&BlockTask| !t.is_finished() && t.chain == chain;
        // Per chunk, each block's time (its measured ticks over its steps that moved) and the
        // bytes it writes.
        let per_chunk = tasks.iter().filter(in_chain).map(|t| {
            let steps = f64::from(t.cost_steps.max(1));
            let bytes = (t.cost_items * t.output_item_bytes()) as f64;
            (clock::to_ns(t.cost) / steps, bytes / steps)
        });
        let Some(first) = tasks.iter().find(in_chain) else {
            return;
        };
        let window_ns = clock::to_ns(clock::now().wrapping_sub(since));
        let before = Before {
            first: first.rank,
            rate: first.cost_items as f64 / window_ns.max(1.0) * 1e9,
            window_ns: window_ns.max(WINDOW_NS),
        };
        if tracing::enabled!(tracing::Level::DEBUG) {
            let blocks: Vec<String> = tasks
                .iter()
                .filter(in_chain)
                .zip(per_chunk.clone())
                .map(|(t, (ns, bytes))| format!("{} {:.1} us {:.0} B", t.name(), ns / 1e3, bytes))
                .collect();
            tracing::debug!(
                "flow: measured per chunk over {:.1} ms ({:.1} M items/s through '{}'): {}",
                window_ns / 1e6,
                before.rate / 1e6,
                first.name(),
                blocks.join(", ")
            );
        }
        match best_cut(per_chunk, crossing) {
            Some(cut) if cut.pays(crossing) => {
                let at = tasks.iter().filter(in_chain).nth(cut.at);
                tracing::debug!(
                    "flow: cutting a chain before block '{}' for an idle worker (per chunk: \
                     head {:.1} us, tail {:.1} us with the crossing of this machine's {:.3} \
                     ns/B read, {:.3} ns/B write; {:.1} of {:.1} us saved, more than an eighth \
                     and than a {:.1} us wake-up; {:.0} bytes written)",
                    at.map_or("?", |t| t.name()),
                    cut.head / 1e3,
                    cut.tail / 1e3,
                    crossing.read_ns_per_byte,
                    crossing.write_ns_per_byte,
                    cut.gain / 1e3,
                    cut.total / 1e3,
                    crossing.wake_ns / 1e3,
                    cut.bytes
                );
                let from = at.map_or(usize::MAX, |t| t.rank);
                self.start_draining(chain, from, before);
            }
            other => {
                if let Some(cut) = other {
                    tracing::debug!(
                        "flow: not cutting a chain (per chunk at the best place: head {:.1} us, \
                         tail {:.1} us, {:.1} of {:.1} us saved, {:.0} bytes written; a cut \
                         must save an eighth and more than a {:.1} us wake-up, and the chain \
                         spend at least {} ns per byte; measured again in {RETRY_PASSES} passes)",
                        cut.head / 1e3,
                        cut.tail / 1e3,
                        cut.gain / 1e3,
                        cut.total / 1e3,
                        cut.bytes,
                        crossing.wake_ns / 1e3,
                        super::cut::MIN_NS_PER_BYTE,
                    );
                }
                self.decline(chain);
            }
        }
    }

    /// Starts measuring `chain`: a window that counts (`settled`), or the wait before it.
    fn start_measuring(&mut self, tasks: &mut [BlockTask], chain: usize, settled: bool) {
        for t in tasks.iter_mut().filter(|t| t.chain == chain) {
            t.cost = 0;
            t.cost_steps = 0;
            t.cost_items = 0;
        }
        self.cut = Cutting::Measuring {
            chain,
            passes: MEASURE_PASSES,
            since: clock::now(),
            settled,
        };
    }

    fn decline(&mut self, chain: usize) {
        self.cut = Cutting::Declined {
            chain,
            passes: RETRY_PASSES,
        };
    }

    fn start_draining(&mut self, chain: usize, from: usize, before: Before) {
        self.cut = Cutting::Draining {
            chain,
            from,
            passes: DRAIN_PASSES,
            before,
        };
    }

    /// A hungry worker whose flag this call took, or in a stress turn the next worker.
    fn claim_receiver(&self, stress_turn: bool) -> Option<usize> {
        let team = &self.team;
        let n = team.parkers.len();
        for k in 1..n {
            let w = (self.worker + k) % n;
            if team.hungry[w].load(Relaxed)
                && team.hungry[w]
                    .compare_exchange(true, false, AcqRel, Relaxed)
                    .is_ok()
            {
                team.hungry_count.fetch_sub(1, AcqRel);
                return Some(w);
            }
        }
        (stress_turn && n > 1).then(|| (self.worker + 1) % n)
    }
}
