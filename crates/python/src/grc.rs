//! `.grc` files with embedded Python as the Python package loads them
//! (`radioflow.gnuradio.grc`): the Rust GRC loader describes the file
//! ([`radioflow_graphfile::grc::describe_grc_embedded`]) and hands back its library blocks made,
//! its connections, its Python entries as written and its variables' values; the package makes
//! the Python blocks and modules, and connects the whole.

use crate::dtype::Dtype;
use crate::errors::value_error;
use crate::handle::{BlockHandle, Kind};
use crate::hosts::RemoteSpec;
use crate::pmt::{from_py, to_py};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use radioflow_graphfile::grc::{describe_grc_embedded, Value};
use radioflow_graphfile::{Connection, GraphError};
use radioflow_runtime::registry;
use radioflow_runtime::{Pmt, PortName};
use std::collections::HashMap;
use std::path::PathBuf;

/// Adds the loader's functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(grc_embedded, m)?)?;
    Ok(())
}

/// A value given from Python as the GRC evaluator's.
fn value_of(p: &Pmt) -> Value {
    match p {
        Pmt::Int(i) => Value::Int(*i),
        Pmt::Double(x) => Value::Float(*x),
        Pmt::Complex(c) => Value::Complex(*c),
        Pmt::Bool(b) => Value::Bool(*b),
        Pmt::Symbol(s) => Value::Str(s.to_string()),
        Pmt::Null => Value::None,
        Pmt::Vector(v) | Pmt::Tuple(v) => Value::List(v.iter().map(value_of).collect()),
        Pmt::F32Vector(v) => Value::List(v.iter().map(|x| Value::Float(f64::from(*x))).collect()),
        Pmt::F64Vector(v) => Value::List(v.iter().map(|x| Value::Float(*x)).collect()),
        Pmt::S64Vector(v) => Value::List(v.iter().map(|x| Value::Int(*x)).collect()),
        Pmt::S32Vector(v) => Value::List(v.iter().map(|x| Value::Int(i64::from(*x))).collect()),
        other => Value::Pmt(other.clone()),
    }
}

/// A port as Python connects it: a number (stream) or a name (message).
fn port<'py>(py: Python<'py>, p: &PortName) -> PyResult<Bound<'py, PyAny>> {
    Ok(match p {
        PortName::Index(i) => i.into_pyobject(py)?.into_any(),
        PortName::Name(n) => n.into_pyobject(py)?.into_any(),
    })
}

/// Connections as `(from block, from port, to block, to port)`.
fn connections<'py>(py: Python<'py>, list: &[Connection]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for c in list {
        out.append((
            &c.from.block,
            port(py, &c.from.port)?,
            &c.to.block,
            port(py, &c.to.port)?,
        ))?;
    }
    Ok(out)
}

/// The error of a graph that could not be described, as Python's exception: `OSError` for a
/// file, `ValueError` otherwise (its message names the file and block).
fn graph_error(e: GraphError) -> PyErr {
    match e {
        GraphError::Read { .. } => PyOSError::new_err(e.to_string()),
        other => value_error(other.to_string()),
    }
}

/// Reads the `.grc` file at `path` with its embedded Python left to the caller, the variables
/// of `values` (a dict: name to value) held at the values given. Returns a dict: `python` (a
/// list of `(name, id, {parameter: text as written})`: the `epy_block`, `epy_module`,
/// `snippet` and `import` entries), `variables` (a list of `(name, text, value or None,
/// evaluator's error or None)`), and, when the graph could be described, `blocks` (a list of
/// `(name, block)`: the library blocks made, not yet in a flowgraph), `streams` and `messages`
/// (lists of `(from, port, to, port)`, ports as numbers or names, naming the Python blocks
/// too) and `notes`; when it could not, `error` (the exception it raises). With `make` false
/// the blocks are checked, not made (`blocks` is empty): what the variables are is read first.
#[pyfunction]
#[pyo3(signature = (path, values, make = true))]
fn grc_embedded<'py>(
    py: Python<'py>,
    path: PathBuf,
    values: &Bound<'py, PyDict>,
    make: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let mut fixed = HashMap::new();
    for (k, v) in values.iter() {
        let name: String = k.extract()?;
        let value = from_py(&v).map_err(|e| {
            value_error(format!(
                "{}: variable '{name}': {}",
                path.display(),
                e.value(py)
            ))
        })?;
        fixed.insert(name, value_of(&value));
    }
    let read = describe_grc_embedded(&path, fixed).map_err(graph_error)?;
    let out = PyDict::new(py);
    let python = PyList::empty(py);
    for e in &read.python {
        let params = PyDict::new(py);
        for (k, v) in &e.params {
            params.set_item(k, v)?;
        }
        python.append((&e.name, &e.id, params))?;
    }
    out.set_item("python", python)?;
    let variables = PyList::empty(py);
    for (name, text, value) in &read.variables {
        match value {
            Ok(v) => variables.append((name, text, to_py(py, &v.to_pmt())?, py.None()))?,
            Err(e) => variables.append((name, text, py.None(), e))?,
        }
    }
    out.set_item("variables", variables)?;
    let graph = match read.graph {
        Ok(graph) => graph,
        Err(e) => {
            out.set_item("error", graph_error(e).into_value(py))?;
            return Ok(out);
        }
    };
    let blocks = PyList::empty(py);
    for spec in graph.blocks.iter().filter(|_| make) {
        let fail =
            |m: String| value_error(format!("{}: block '{}': {m}", path.display(), spec.name));
        let description = registry::find(&spec.block)
            .ok_or_else(|| fail(format!("radioflow has no block '{}'", spec.block)))?;
        let made = spec.make().map_err(fail)?;
        let dtype = spec.dtype.as_deref().map(Dtype::parse).transpose()?;
        let kind = match description.id {
            "vector_sink" => Kind::VectorSink(dtype.unwrap_or(Dtype::Float32)),
            "message_debug" => Kind::MessageDebug,
            "message_counter" => Kind::MessageCounter,
            _ => Kind::Other,
        };
        let remote = RemoteSpec {
            id: description.id,
            dtype: spec.dtype.clone(),
            params: spec.params.clone(),
        };
        let handle = BlockHandle::new_boxed(description.id, Some(spec.name.clone()), kind, made)
            .made_from(remote);
        blocks.append((&spec.name, Bound::new(py, handle)?))?;
    }
    out.set_item("blocks", blocks)?;
    out.set_item("streams", connections(py, &graph.streams)?)?;
    out.set_item("messages", connections(py, &graph.messages)?)?;
    out.set_item("notes", &graph.notes)?;
    Ok(out)
}
