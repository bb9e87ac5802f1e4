//! The two thread loops every scheduler is built from.

use super::balance::Seat;
use crate::clock;
use crate::current_run;
use crate::parker::Parker;
use crate::task::{BlockTask, Step};

/// Passes over one chain, while they move anything, before a worker goes on to the next chain.
/// `buf` 10x10 and 20x20 under `flow` ran 17-19% faster with 16 to 256 passes than with one
/// (one chain's buffers in the caches at a time instead of all the worker's chains);
/// 64 moves at most 64 chunks per block before the other chains get their turn.
const CHAIN_PASSES: u32 = 64;

/// Steps `tasks` (in the given order) on the calling thread until all are done. A pass over a
/// chain (consecutive tasks with the same `chain`) steps every ready task of it once (one whose
/// neighbour moved, or which moved itself last time), so a chunk produced by one block is
/// consumed by the next in the same pass while it is still in cache; the worker repeats passes
/// over a chain while they move anything (up to [`CHAIN_PASSES`]) before it goes on to the
/// next chain. After a round over all chains that moved nothing the token is reset and *every*
/// task is stepped once more (a block may have changed state without moving a port, like a
/// file source rewinding); only if that moves nothing either does the thread sleep on
/// `parker`.
pub(crate) fn run_tasks(tasks: Vec<BlockTask>, parker: &Parker) -> Vec<BlockTask> {
    run_worker(tasks, parker, None)
}

/// As [`run_tasks`], as one of a team of workers (`balance.rs`) when `seat` is given: the
/// worker also takes tasks handed to it and hands chains to idle workers, and when its own
/// tasks are done it waits for more until the whole team is done.
pub(crate) fn run_worker(
    mut tasks: Vec<BlockTask>,
    parker: &Parker,
    mut seat: Option<Seat>,
) -> Vec<BlockTask> {
    // A worker that starts without a block (one a chain may be cut for) enters the run when
    // its first blocks arrive.
    let mut entered = false;
    if let Some(t) = tasks.first() {
        current_run::enter(t.control());
        entered = true;
    }
    let mut live = tasks.iter().filter(|t| !t.is_finished()).count();
    let mut checking = false;
    loop {
        if let Some(s) = seat.as_mut()
            && s.receive(&mut tasks) > 0
        {
            if !entered {
                current_run::enter(tasks[0].control());
                entered = true;
            }
            live = tasks.iter().filter(|t| !t.is_finished()).count();
            checking = false;
        }
        if live == 0 {
            let Some(s) = seat.as_ref() else { break };
            if s.all_done() {
                break;
            }
            // Out of work while others still run: ask for a chain, sleep until one arrives
            // or the team is done.
            s.set_hungry();
            parker.reset();
            if !s.has_incoming() && !s.all_done() {
                parker.park();
            }
            continue;
        }
        if checking {
            parker.reset();
        }
        let mut progress = false;
        // Timing steps only while the worker measures its chain for a cut (`cut.rs`).
        let timing = seat.as_ref().is_some_and(Seat::measuring);
        let mut start = 0;
        while start < tasks.len() {
            let chain = tasks[start].chain;
            let end = tasks[start..]
                .iter()
                .position(|t| t.chain != chain)
                .map_or(tasks.len(), |n| start + n);
            for _ in 0..CHAIN_PASSES {
                let mut moved = false;
                for t in tasks[start..end].iter_mut().filter(|t| !t.is_finished()) {
                    if !t.take_ready() && !checking {
                        continue;
                    }
                    let t0 = if timing { clock::now() } else { 0 };
                    let step = t.step();
                    if timing {
                        t.cost += clock::now().wrapping_sub(t0);
                        t.cost_steps += u32::from(step == Step::Progress);
                        t.cost_items += t.produced_last;
                    }
                    match step {
                        Step::Progress => {
                            moved = true;
                            // It may be able to do more (it moved at most one chunk).
                            t.mark_ready();
                        }
                        Step::Idle => {}
                        Step::Done => {
                            live -= 1;
                            moved = true;
                            if let Some(s) = seat.as_ref() {
                                s.task_done();
                            }
                        }
                    }
                }
                progress |= moved;
                if !moved || checking {
                    break;
                }
            }
            start = end;
        }
        if let Some(s) = seat.as_mut() {
            live -= s.maybe_give(&mut tasks);
        }
        if progress {
            checking = false;
        } else if checking {
            // Tasks handed over after the `receive` above: their giver's wake-up may have been
            // cleared by this pass's reset, so look (after the reset) before sleeping.
            if !seat.as_ref().is_some_and(Seat::has_incoming) {
                parker.park();
            }
        } else {
            checking = true;
        }
    }
    if let Some(t) = tasks.first_mut() {
        t.record_thread();
    }
    current_run::leave();
    tasks
}

/// Steps one task on the calling thread until it is done, sleeping on its parker when idle.
pub(crate) fn run_task(mut task: BlockTask) -> Vec<BlockTask> {
    current_run::enter(task.control());
    let parker = task.parker().clone();
    loop {
        match task.step() {
            Step::Progress => continue,
            Step::Done => break,
            Step::Idle => {
                // Reset, look once more, and sleep only if that look found nothing.
                parker.reset();
                match task.step() {
                    Step::Progress => {}
                    Step::Done => break,
                    Step::Idle => parker.park(),
                }
            }
        }
    }
    task.record_thread();
    current_run::leave();
    vec![task]
}
