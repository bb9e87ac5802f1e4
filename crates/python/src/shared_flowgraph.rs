//! [`SharedFlowgraph`]: the Rust flowgraph behind a Python `Flowgraph`, shared with the blocks
//! added to it, and every such flowgraph (stopped at the interpreter's exit).

use crate::errors::RunError;
use crate::hosts::Placement;
use crate::lock::lock;
use pyo3::prelude::*;
use radioflow_control::ControlHandle;
use radioflow_runtime::{BlockId, Flowgraph, StopHandle};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Where a Python block leaves the exception that failed it, so that the flowgraph can raise
/// it as the cause of its `RunError`.
pub(crate) type ErrorSlot = Arc<Mutex<Option<Py<PyAny>>>>;

/// A flowgraph shared by its Python object and the blocks added to it.
///
/// Locking rule: the Rust flowgraph sits behind a mutex that is only ever taken with the
/// interpreter released ([`with_fg`](Self::with_fg)). A thread holding the interpreter may
/// therefore wait for the mutex, but never the other way round, and Python blocks (which take
/// the interpreter inside `work`) cannot deadlock against a thread that reads a sink.
pub(crate) struct SharedFlowgraph {
    pub(crate) fg: Mutex<Flowgraph>,
    pub(crate) stop: Mutex<Option<StopHandle>>,
    pub(crate) python_blocks: Mutex<Vec<(BlockId, ErrorSlot)>>,
    /// When the current run started, and how long the last one took (for the profile).
    pub(crate) started: Mutex<Option<Instant>>,
    pub(crate) last_seconds: Mutex<f64>,
    /// The live view's control port, once `serve` was called; follows the graph's runs.
    pub(crate) control: Mutex<Option<ControlHandle>>,
    /// How its library blocks can be made on other hosts, and which host each goes to.
    pub(crate) placement: Placement,
}

thread_local! {
    /// This thread holds a flowgraph lock (while a graph starts, its blocks' `start()` hooks
    /// run on the thread that called `start`).
    static HOLDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Every flowgraph made from Python, so that the interpreter's exit can stop the running ones
/// before it shuts down (their threads must not meet a finalizing interpreter).
static GRAPHS: Mutex<Vec<Weak<SharedFlowgraph>>> = Mutex::new(Vec::new());

/// Stops every running flowgraph and waits for its threads (called at interpreter exit).
pub(crate) fn stop_all(py: Python<'_>) {
    let graphs: Vec<Arc<SharedFlowgraph>> =
        lock(&GRAPHS).iter().filter_map(Weak::upgrade).collect();
    for g in graphs {
        if let Some(h) = lock(&g.stop).take() {
            h.stop();
            let _ = g.finish(py);
        }
    }
}

/// Fails if this thread is inside a flowgraph call (a block's `start()` hook).
pub(crate) fn ensure_outside_flowgraph() -> PyResult<()> {
    if HOLDING.with(std::cell::Cell::get) {
        return Err(RunError::new_err(
            "a block's start() cannot call its flowgraph: it runs while the flowgraph starts",
        ));
    }
    Ok(())
}

impl SharedFlowgraph {
    /// An empty flowgraph, registered to be stopped at the interpreter's exit.
    pub(crate) fn new() -> Arc<Self> {
        let graph = Arc::new(SharedFlowgraph {
            fg: Mutex::new(Flowgraph::new()),
            stop: Mutex::new(None),
            python_blocks: Mutex::new(Vec::new()),
            started: Mutex::new(None),
            last_seconds: Mutex::new(0.0),
            control: Mutex::new(None),
            placement: Placement::default(),
        });
        let mut graphs = lock(&GRAPHS);
        graphs.retain(|g| g.strong_count() > 0);
        graphs.push(Arc::downgrade(&graph));
        graph
    }

    /// Runs `f` on the flowgraph, with the interpreter released while waiting for and holding
    /// the lock; fails if this thread is inside a flowgraph call already (a block's `start()`
    /// calling its flowgraph).
    pub(crate) fn with_fg<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Flowgraph) -> R + Send,
    ) -> PyResult<R> {
        ensure_outside_flowgraph()?;
        Ok(py.detach(|| {
            let mut fg = lock(&self.fg);
            HOLDING.with(|h| h.set(true));
            let r = f(&mut fg);
            HOLDING.with(|h| h.set(false));
            r
        }))
    }

    /// Waits (interpreter released, lock not held) until every thread of the run has ended,
    /// then collects the run. Blocks may call the flowgraph meanwhile.
    pub(crate) fn finish(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            let mut nap = Duration::from_micros(20);
            while !lock(&self.fg).is_finished() {
                std::thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(10));
            }
        });
        self.with_fg(py, |fg| fg.wait())?
            .map_err(|e| self.run_error(py, e))
    }

    /// As [`with_fg`](Self::with_fg), refusing while the graph runs (its blocks are away).
    pub(crate) fn with_stopped_fg<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Flowgraph) -> R + Send,
    ) -> PyResult<R> {
        self.with_fg(py, |fg| if fg.is_running() { Err(()) } else { Ok(f(fg)) })?
            .map_err(|()| {
                RunError::new_err(
                    "the flowgraph is running: its blocks can be read after wait() (counters too)",
                )
            })
    }

    /// The instance name of block `id`.
    pub(crate) fn name_of(&self, py: Python<'_>, id: BlockId) -> PyResult<String> {
        self.with_fg(py, |fg| fg.name(id).to_owned())
    }

    /// Remembers that block `id` is written in Python and reports its exceptions to `slot`.
    pub(crate) fn add_python_block(&self, id: BlockId, slot: ErrorSlot) {
        lock(&self.python_blocks).push((id, slot));
    }

    /// The Python exception for `e`; a failure of a Python block gets the exception it raised
    /// as `__cause__`.
    pub(crate) fn run_error(&self, py: Python<'_>, e: radioflow_runtime::RunError) -> PyErr {
        let err = RunError::new_err(e.to_string());
        if let Some(block) = e.block() {
            let ids: Vec<(BlockId, ErrorSlot)> = lock(&self.python_blocks).clone();
            let block = block.to_owned();
            let at = self.with_fg(py, |fg| {
                ids.iter().position(|(id, _)| fg.name(*id) == block)
            });
            if let Ok(Some(i)) = at
                && let Some(cause) = lock(&ids[i].1).take()
            {
                err.set_cause(py, Some(PyErr::from_value(cause.into_bound(py))));
            }
        }
        err
    }
}

impl Drop for SharedFlowgraph {
    fn drop(&mut self) {
        // A flowgraph dropped while running stops and waits for its threads, which may need
        // the interpreter (Python blocks): release it meanwhile.
        let fg = self.fg.get_mut().unwrap_or_else(|e| e.into_inner());
        if fg.is_running() {
            fg.stop();
            Python::attach(|py| {
                py.detach(|| {
                    while !fg.is_finished() {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    let _ = fg.wait();
                })
            });
        }
    }
}
