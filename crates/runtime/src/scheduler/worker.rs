//! The two thread loops every scheduler is built from.

use crate::parker::Parker;
use crate::task::{BlockTask, Step};

/// Steps `tasks` (in the given order) on the calling thread until all are done. A pass steps
/// every ready task once (one whose neighbour moved, or which moved itself last time), so a
/// chunk produced by one block is consumed by the next in the same pass while it is still in
/// cache. After a pass that moved nothing the token is reset and *every* task is stepped once
/// more (a block may have changed state without moving a port, like a file source rewinding);
/// only if that moves nothing either does the thread sleep on `parker`.
pub(crate) fn run_tasks(mut tasks: Vec<BlockTask>, parker: &Parker) -> Vec<BlockTask> {
    let mut live = tasks.len();
    let mut checking = false;
    while live > 0 {
        if checking {
            parker.reset();
        }
        let mut progress = false;
        for t in tasks.iter_mut().filter(|t| !t.is_finished()) {
            if !t.take_ready() && !checking {
                continue;
            }
            match t.step() {
                Step::Progress => {
                    progress = true;
                    // It may be able to do more (it moved at most one chunk).
                    t.mark_ready();
                }
                Step::Idle => {}
                Step::Done => {
                    live -= 1;
                    progress = true;
                }
            }
        }
        if progress {
            checking = false;
        } else if checking {
            parker.park();
        } else {
            checking = true;
        }
    }
    if let Some(t) = tasks.first_mut() {
        t.record_thread();
    }
    tasks
}

/// Steps one task on the calling thread until it is done, sleeping on its parker when idle.
pub(crate) fn run_task(mut task: BlockTask) -> Vec<BlockTask> {
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
    vec![task]
}
