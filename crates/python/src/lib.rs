//! The native module of the `radioflow` Python package (`radioflow._native`).
//!
//! A thin layer over the Rust crates: the Python package (`python/radioflow`) gives the API a
//! GNU Radio user expects and calls into this module. Graphs run with the interpreter released;
//! Python takes part only where the user asked for it (blocks written in Python, Ctrl-C).
//!
//! - `dtype`: numpy item types and the Rust types behind them.
//! - `pmt`: PMT values to and from Python objects.
//! - `errors`: the exception classes.
//! - `handle`: a block object as Python sees it, before and after it joins a flowgraph.
//! - `flowgraph`: the flowgraph object: connect, run, start, stop, wait, counters.
//! - `shared_flowgraph`: the Rust flowgraph it shares with its blocks, and how it is locked.
//! - `lock`: taking a mutex whose holder panicked.
//! - `hosts`: graphs across hosts (a block's host, the coordinator, a host server).
//! - `scheduler`: the scheduler a run uses.
//! - `library`: factories for the native block library.
//! - `gnuradio`: the GNU Radio table (GRC ids, parameters, Python constructors).
//! - `firdes`: GNU Radio's filter designs and windows.
//! - `grc`: `.grc` files with embedded Python, described for the package to finish.
//! - `numpy_source`: a source that streams a numpy array without copying it first.
//! - `python_block`: blocks whose `work` and message handlers are written in Python.
//! - `views`: numpy arrays that look into stream buffers.
//! - `thread_state`: Python thread states kept by scheduler threads.

mod dtype;
mod errors;
mod firdes;
mod flowgraph;
mod gnuradio;
mod grc;
mod handle;
mod hosts;
mod library;
mod lock;
mod numpy_source;
mod pmt;
mod python_block;
mod scheduler;
mod shared_flowgraph;
mod thread_state;
mod views;

use pyo3::prelude::*;

/// The module `radioflow._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("ConnectError", py.get_type::<errors::ConnectError>())?;
    m.add("RunError", py.get_type::<errors::RunError>())?;
    m.add_class::<flowgraph::PyFlowgraph>()?;
    m.add_class::<handle::BlockHandle>()?;
    m.add_class::<scheduler::PyScheduler>()?;
    m.add_class::<hosts::PyHostServer>()?;
    m.add_class::<pmt::PyPair>()?;
    m.add_class::<python_block::WorkContext>()?;
    m.add("DTYPES", dtype::Dtype::ALL.map(dtype::Dtype::name).to_vec())?;
    m.add(
        "SCHEDULERS",
        radioflow_runtime::SCHEDULER_NAMES
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    )?;
    m.add_function(wrap_pyfunction!(pmt::pmt_roundtrip, m)?)?;
    m.add_function(wrap_pyfunction!(pmt::pmt_serialize, m)?)?;
    m.add_function(wrap_pyfunction!(pmt::pmt_deserialize, m)?)?;
    library::register(m)?;
    gnuradio::register(m)?;
    firdes::register(m)?;
    grc::register(m)?;
    m.add_function(wrap_pyfunction!(python_block::python_block, m)?)?;
    m.add_function(wrap_pyfunction!(mark_finalizing, m)?)?;
    py.import("atexit")?
        .call_method1("register", (m.getattr("_mark_finalizing")?,))?;
    Ok(())
}

/// Registered with `atexit`: stops the running flowgraphs and waits for their threads, then
/// tells scheduler threads to leave thread states alone.
#[pyfunction(name = "_mark_finalizing")]
fn mark_finalizing(py: Python<'_>) {
    shared_flowgraph::stop_all(py);
    thread_state::mark_finalizing();
}
