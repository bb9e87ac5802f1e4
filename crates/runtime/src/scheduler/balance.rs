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
//! Cost per pass while nobody is hungry: one relaxed load. Workers leave when every task of
//! the team has finished (a shared count; the last finisher wakes everyone).

use crate::parker::Parker;
use crate::sync::{fence, Arc, AtomicBool, AtomicUsize};
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
}

impl Team {
    /// A team of workers with these parkers and thread slots, running `tasks` unfinished tasks
    /// in all (chains as given by each task's `chain`).
    pub(crate) fn new(
        parkers: Vec<Arc<Parker>>,
        slots: Vec<usize>,
        tasks: usize,
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

    /// At the end of a pass: if another worker is hungry (or in stress mode, every few passes)
    /// and this one has two or more unfinished chains, hands one over. Returns how many
    /// unfinished tasks left.
    pub(crate) fn maybe_give(&mut self, tasks: &mut Vec<BlockTask>) -> usize {
        self.passes = self.passes.wrapping_add(1);
        let stress_turn = self
            .team
            .stress
            .is_some_and(|every| self.passes.is_multiple_of(every.max(1)));
        if !stress_turn && self.team.hungry_count.load(Relaxed) == 0 {
            return 0;
        }
        // The chain to give: the last unfinished one in execution order, if another is left.
        let mut alive = tasks.iter().rev().filter(|t| !t.is_finished());
        let Some(last) = alive.next() else {
            return 0;
        };
        let chain = last.chain;
        if !alive.any(|t| t.chain != chain) {
            return 0;
        }
        let Some(to) = self.claim_receiver(stress_turn) else {
            return 0;
        };
        let slot = self.team.slots[to];
        let mut given = 0;
        for t in tasks.extract_if(.., |t| !t.is_finished() && t.chain == chain) {
            t.move_to(slot);
            valgrind::happens_before(&self.team.inbox[to]);
            self.team.inbox[to].push(t);
            given += 1;
        }
        self.team.incoming[to].store(true, Release);
        self.team.parkers[to].notify();
        given
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
