//! The run the calling thread works for, so that blocks can wait in a way a stop interrupts.
//!
//! Scheduler threads enter their run when they start ([`enter`]); a block's `work` can then
//! sleep with [`interruptible_sleep`] (a throttle, a device or network poll) and return within
//! moments of `stop()`, Ctrl-C or interpreter exit, instead of finishing its sleep. The same
//! record lets [`Flowgraph::wait`](crate::Flowgraph::wait) refuse to be called from one of the
//! graph's own blocks.

use crate::atomics::Arc;
use crate::task::RunControl;
use std::cell::RefCell;
use std::time::Duration;

thread_local! {
    static CURRENT: RefCell<Option<Arc<RunControl>>> = const { RefCell::new(None) };
}

/// Records that the calling (scheduler) thread works for `control`'s run until it ends.
pub(crate) fn enter(control: &Arc<RunControl>) {
    CURRENT.with(|c| *c.borrow_mut() = Some(control.clone()));
}

/// Forgets the run (the scheduler thread is about to end).
pub(crate) fn leave() {
    CURRENT.with(|c| *c.borrow_mut() = None);
}

/// Whether the calling thread works for `control`'s run.
pub(crate) fn is(control: &Arc<RunControl>) -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(|r| Arc::ptr_eq(r, control)))
}

/// Sleeps for `duration`, or until the run of the calling block is asked to stop, whichever
/// comes first. Returns `true` if the whole duration passed, `false` if a stop cut it short
/// (the block should then return from `work` at once). Outside a scheduler thread it is a
/// plain sleep.
///
/// ```
/// use radioflow_runtime::interruptible_sleep;
/// use std::time::Duration;
/// // Not on a scheduler thread: nothing can interrupt it.
/// assert!(interruptible_sleep(Duration::from_millis(1)));
/// ```
pub fn interruptible_sleep(duration: Duration) -> bool {
    match CURRENT.with(|c| c.borrow().clone()) {
        Some(control) => control.sleep(duration),
        None => {
            std::thread::sleep(duration);
            true
        }
    }
}

/// Whether the run of the calling block was asked to stop (`false` outside a scheduler
/// thread). For blocks that wait in loops of their own.
pub fn stop_requested() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(|r| r.stop_requested()))
}
