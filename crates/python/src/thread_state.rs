//! One Python thread state per scheduler thread, kept for the thread's life.
//!
//! `Python::attach` on a thread Python does not know creates a thread state and deletes it
//! again when the thread detaches: about 10 µs per `work` call of a Python block, measured with
//! `examples/python_block_speed.py` (the call itself costs a few µs). Scheduler threads call
//! [`keep`] before attaching: the first call creates the thread state and releases the
//! interpreter while keeping the state, so that later attaches only take the lock. The state is
//! deleted when the thread ends, unless the interpreter is already shutting down (then it is
//! left to the interpreter, which clears every thread state itself).

use pyo3::ffi;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by an `atexit` hook: the interpreter is finalizing, thread states must not be touched.
static FINALIZING: AtomicBool = AtomicBool::new(false);

/// Called from the module's `atexit` hook.
pub(crate) fn mark_finalizing() {
    FINALIZING.store(true, Ordering::SeqCst);
}

struct Kept {
    gstate: ffi::PyGILState_STATE,
    saved: *mut ffi::PyThreadState,
}

impl Drop for Kept {
    fn drop(&mut self) {
        if FINALIZING.load(Ordering::SeqCst) {
            return;
        }
        // SAFETY: `saved` is this thread's state, saved by `keep` and not restored since
        // (every later attach/detach pair leaves it saved); restoring it takes the interpreter
        // lock, and releasing the outermost `PyGILState_Ensure` deletes the state and drops
        // the lock.
        unsafe {
            ffi::PyEval_RestoreThread(self.saved);
            ffi::PyGILState_Release(self.gstate);
        }
    }
}

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// Makes sure this thread has a Python thread state that outlives the next detach. Call it
/// while not attached.
pub(crate) fn keep() {
    KEPT.with(|k| {
        if k.borrow().is_some() || FINALIZING.load(Ordering::SeqCst) {
            return;
        }
        // SAFETY: only threads without a thread state get here with nothing kept yet (a
        // Python-created thread has one: then nothing is done); Ensure creates the state and
        // takes the lock, SaveThread releases the lock and returns the state to restore later.
        unsafe {
            if !ffi::PyGILState_GetThisThreadState().is_null() {
                return;
            }
            let gstate = ffi::PyGILState_Ensure();
            let saved = ffi::PyEval_SaveThread();
            *k.borrow_mut() = Some(Kept { gstate, saved });
        }
    });
}
