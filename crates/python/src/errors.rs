//! Exceptions: `radioflow.Error` and its subclasses, made from the Rust errors with the same
//! message (which block, which port, which file).

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::{create_exception, PyErr};

create_exception!(
    radioflow,
    Error,
    PyException,
    "Base class of the errors radioflow raises."
);
create_exception!(
    radioflow,
    ConnectError,
    Error,
    "A connection the flowgraph refused (unknown port, type mismatch, input already connected)."
);
create_exception!(
    radioflow,
    RunError,
    Error,
    "A graph that cannot start or a run that failed (the message names the block)."
);

/// A `ValueError` with `msg`.
pub(crate) fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// The Python exception for a refused connection.
pub(crate) fn connect_error(e: radioflow_runtime::ConnectError) -> PyErr {
    ConnectError::new_err(e.to_string())
}
