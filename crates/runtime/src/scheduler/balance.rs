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
//! block, hungry from the start.
//!
//! Cost per pass while nobody is hungry: one relaxed load. Workers leave when every task of
//! the team has finished (a shared count; the last finisher wakes everyone).

use super::cut::{best_cut, DRAIN_PASSES, MEASURE_PASSES, RETRY_PASSES};
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
}

impl Team {
    /// A team of workers with these parkers and thread slots, running `tasks` unfinished tasks
    /// in all (chains as given by each task's `chain`, all below `chains`).
    pub(crate) fn new(
        parkers: Vec<Arc<Parker>>,
        slots: Vec<usize>,
        tasks: usize,
        chains: usize,
        stress: Option<u32>,
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
        });
        for f in team.incoming.iter().chain(&team.hungry) {
            valgrind::untracked(&**f);
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
}

/// Where a worker is in cutting its last chain (`cut.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cutting {
    /// Not cutting.
    Idle,
    /// Timing the steps of chain `chain`; `passes` more to go.
    Measuring { chain: usize, passes: u32 },
    /// Chain `chain` is cut before its block of rank `from` as soon as no region of it holds
    /// items; `passes` more to wait.
    Draining {
        chain: usize,
        from: usize,
        passes: u32,
    },
    /// Chain `chain` was measured: a cut would not pay (measured again after `passes` more).
    Declined { chain: usize, passes: u32 },
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
        }
    }

    /// Whether this worker times its steps now (measuring its chain for a cut).
    pub(crate) fn measuring(&self) -> bool {
        matches!(self.cut, Cutting::Measuring { .. })
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

    /// At the end of a pass: if another worker is hungry (or in stress mode, every few passes)
    /// and this one has two or more unfinished chains, hands one over; with one chain left, goes
    /// on cutting it (`cut.rs`). Returns how many unfinished tasks left.
    pub(crate) fn maybe_give(&mut self, tasks: &mut Vec<BlockTask>) -> usize {
        self.passes = self.passes.wrapping_add(1);
        let stress_turn = self
            .team
            .stress
            .is_some_and(|every| self.passes.is_multiple_of(every.max(1)));
        if !stress_turn && self.team.hungry_count.load(Relaxed) == 0 {
            if self.measuring() {
                self.cut = Cutting::Idle;
            }
            return 0;
        }
        // The chain to give: the last unfinished one in execution order, if another is left.
        let mut alive = tasks.iter().rev().filter(|t| !t.is_finished());
        let Some(last) = alive.next() else {
            return 0;
        };
        let chain = last.chain;
        if !alive.any(|t| t.chain != chain) {
            return self.cut_step(tasks, chain, stress_turn);
        }
        let Some(to) = self.claim_receiver(stress_turn) else {
            return 0;
        };
        self.give(tasks, to, |t| t.chain == chain, None)
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
            _ if stress_turn => {
                if !matches!(self.cut, Cutting::Draining { chain: c, .. } if c == chain) {
                    let from = tasks.iter().filter(in_chain).nth(alive / 2).map(|t| t.rank);
                    self.start_draining(chain, from.unwrap_or(usize::MAX));
                }
            }
            Cutting::Declined { chain: c, passes } if c == chain && passes > 0 => {
                self.cut = Cutting::Declined {
                    chain,
                    passes: passes - 1,
                };
            }
            Cutting::Measuring { chain: c, passes } if c == chain && passes > 1 => {
                self.cut = Cutting::Measuring {
                    chain,
                    passes: passes - 1,
                };
            }
            Cutting::Measuring { chain: c, .. } if c == chain => {
                // Per chunk, each block's time (its measured ticks over its steps that moved)
                // and the bytes it writes.
                let per_chunk = tasks.iter().filter(in_chain).map(|t| {
                    let steps = f64::from(t.cost_steps.max(1));
                    let bytes = (t.cost_items * t.output_item_bytes()) as f64;
                    (clock::to_ns(t.cost) / steps, bytes / steps)
                });
                if tracing::enabled!(tracing::Level::DEBUG) {
                    let blocks: Vec<String> = tasks
                        .iter()
                        .filter(in_chain)
                        .zip(per_chunk.clone())
                        .map(|(t, (ns, bytes))| {
                            format!("{} {:.1} us {:.0} B", t.name(), ns / 1e3, bytes)
                        })
                        .collect();
                    tracing::debug!("flow: measured per chunk: {}", blocks.join(", "));
                }
                match best_cut(per_chunk) {
                    Some(cut) if cut.pays() => {
                        let first = tasks.iter().filter(in_chain).nth(cut.at);
                        tracing::debug!(
                            "flow: cutting a chain before block '{}' for an idle worker \
                             (per chunk: {:.1} of {:.1} us saved, {:.0} bytes written)",
                            first.map_or("?", |t| t.name()),
                            cut.gain / 1e3,
                            cut.total / 1e3,
                            cut.bytes
                        );
                        let from = first.map(|t| t.rank);
                        self.start_draining(chain, from.unwrap_or(usize::MAX));
                    }
                    other => {
                        if let Some(cut) = other {
                            tracing::debug!(
                                "flow: not cutting a chain (per chunk: {:.1} of {:.1} us \
                                 saved, {:.0} bytes written)",
                                cut.gain / 1e3,
                                cut.total / 1e3,
                                cut.bytes
                            );
                        }
                        self.decline(chain);
                    }
                }
            }
            Cutting::Draining {
                chain: c,
                from,
                passes,
            } if c == chain => {
                self.cut = Cutting::Draining {
                    chain,
                    from,
                    passes: passes.saturating_sub(1),
                };
            }
            _ => {
                for t in tasks.iter_mut().filter(|t| t.chain == chain) {
                    t.cost = 0;
                    t.cost_steps = 0;
                    t.cost_items = 0;
                }
                self.cut = Cutting::Measuring {
                    chain,
                    passes: MEASURE_PASSES,
                };
                return 0;
            }
        }
        let Cutting::Draining {
            chain,
            from,
            passes,
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
        self.cut = Cutting::Idle;
        let tail = self.team.next_chain.fetch_add(1, Relaxed);
        self.give(
            tasks,
            to,
            |t| t.chain == chain && t.rank >= from,
            Some(tail),
        )
    }

    fn decline(&mut self, chain: usize) {
        self.cut = Cutting::Declined {
            chain,
            passes: RETRY_PASSES,
        };
    }

    fn start_draining(&mut self, chain: usize, from: usize) {
        self.cut = Cutting::Draining {
            chain,
            from,
            passes: DRAIN_PASSES,
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
