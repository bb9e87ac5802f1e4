//! The native block library as Python sees it: the registry's descriptions
//! (`block_library()`) and one generic factory (`make_block`), from which
//! `radioflow.blocks` builds a function per block with keyword parameters and a docstring.
//! `vector_source` has its own factory as well, to stream a numpy array without a copy.
//!
//! Bad parameters raise `ValueError` (`OSError` for files) naming the block and parameter,
//! before anything runs.

use crate::dtype::{with_dtype, Dtype};
use crate::errors::value_error;
use crate::handle::{BlockHandle, Kind};
use crate::hosts::RemoteSpec;
use crate::numpy_source::NumpyData;
use crate::pmt::from_py;
use numpy::PyArray1;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use radioflow_blocks::VectorSource;
use radioflow_runtime::registry::{self, BlockDescription, ParamError};
use radioflow_runtime::{Pmt, Tag};

/// Adds the library's functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(block_library, m)?)?;
    m.add_function(wrap_pyfunction!(make_block, m)?)?;
    m.add_function(wrap_pyfunction!(vector_source, m)?)?;
    Ok(())
}

/// Every block of the library: a list of dicts with `id`, `summary`, `dtypes` (numpy names,
/// the default first; empty for message blocks), `params` (dicts with `name`, `type` (a
/// Python annotation), `default` (a Python literal, or None when required), `doc`, `takes`,
/// `settable` (by a message to the input of its name while the graph runs)) and `ports`
/// (dicts with `name`, `direction`, `many`).
#[pyfunction]
fn block_library(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let all: PyResult<Vec<_>> = registry::descriptions()
        .into_iter()
        .map(|d| describe(py, d))
        .collect();
    PyList::new(py, all?)
}

fn describe<'py>(py: Python<'py>, d: &BlockDescription) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("id", d.id)?;
    out.set_item("summary", d.summary)?;
    let dtypes: Vec<_> = d.dtypes.iter().map(|t| t.name()).collect();
    out.set_item("dtypes", dtypes)?;
    let params = PyList::empty(py);
    for p in d.params {
        let param = PyDict::new(py);
        param.set_item("name", p.name)?;
        param.set_item("type", p.kind.python_type())?;
        param.set_item("default", p.default.map(|v| v.python()))?;
        param.set_item("doc", p.doc)?;
        param.set_item("takes", p.kind.describe())?;
        param.set_item("settable", p.settable)?;
        params.append(param)?;
    }
    out.set_item("params", params)?;
    let ports = PyList::empty(py);
    for p in (d.ports)() {
        let port = PyDict::new(py);
        port.set_item("name", p.name)?;
        port.set_item("direction", p.direction.to_string())?;
        port.set_item("many", p.many)?;
        ports.append(port)?;
    }
    out.set_item("ports", ports)?;
    Ok(out)
}

/// Makes block `id` for item type `dtype` (numpy name; None for the block's default) from
/// `params` (a dict of parameter name to value; missing ones take their defaults).
#[pyfunction]
#[pyo3(signature = (id, dtype, params, *, name = None))]
fn make_block(
    id: &str,
    dtype: Option<&str>,
    params: &Bound<'_, PyDict>,
    name: Option<String>,
) -> PyResult<BlockHandle> {
    let description =
        registry::find(id).ok_or_else(|| value_error(format!("no block '{id}' in the library")))?;
    let dtype = dtype.map(Dtype::parse).transpose()?;
    let given: PyResult<Vec<(String, Pmt)>> = params
        .iter()
        .map(|(k, v)| {
            let k = k.extract::<String>()?;
            let v = from_py(&v)
                .map_err(|e| value_error(format!("{id}: {k}: {}", e.value(params.py()))))?;
            Ok((k, v))
        })
        .collect();
    let registry_dtype = dtype
        .map(|d| registry::Dtype::parse(d.name()).expect("the Python dtypes are the registry's"));
    let given = given?;
    let block = registry::make(description, registry_dtype, given.clone()).map_err(param_error)?;
    let kind = match (description.id, dtype) {
        ("vector_sink", d) => Kind::VectorSink(d.unwrap_or(Dtype::Float32)),
        ("message_debug", _) => Kind::MessageDebug,
        ("message_counter", _) => Kind::MessageCounter,
        _ => Kind::Other,
    };
    let spec = RemoteSpec {
        id: description.id,
        dtype: dtype.map(|d| d.name().to_owned()),
        params: given,
    };
    Ok(BlockHandle::new_boxed(description.id, name, kind, block).made_from(spec))
}

/// A registry error as the Python exception of its kind.
fn param_error(e: ParamError) -> PyErr {
    if e.io {
        PyOSError::new_err(e.to_string())
    } else {
        value_error(e.to_string())
    }
}

/// A tag given from Python: `(offset, key, value)`.
type PyTag<'py> = (i64, Bound<'py, PyAny>, Bound<'py, PyAny>);

/// Tags given from Python as `(offset, key, value)` tuples.
fn tags_from_py(tags: Option<Vec<PyTag<'_>>>) -> PyResult<Vec<Tag>> {
    tags.unwrap_or_default()
        .into_iter()
        .map(|(offset, k, v)| {
            let offset = u64::try_from(offset).map_err(|_| {
                value_error(format!(
                    "vector_source: a tag offset must be >= 0, not {offset}"
                ))
            })?;
            Ok(Tag::new(offset, from_py(&k)?, from_py(&v)?))
        })
        .collect()
}

/// `vector_source` streaming a numpy array in place (the registry's version copies a list).
#[pyfunction]
#[pyo3(signature = (dtype, data, *, repeat = false, vlen = 1, tags = None, name = None))]
fn vector_source(
    dtype: &str,
    data: &Bound<'_, PyAny>,
    repeat: bool,
    vlen: usize,
    tags: Option<Vec<PyTag<'_>>>,
    name: Option<String>,
) -> PyResult<BlockHandle> {
    let d = Dtype::parse(dtype)?;
    let tags = tags_from_py(tags)?;
    with_dtype!(d, T => {
        let array = data.cast::<PyArray1<T>>().map_err(|_| {
            value_error(format!("vector_source({dtype}) needs a 1-D numpy array of {dtype}"))
        })?;
        let storage = NumpyData::new(array)?;
        let items = storage.as_ref().len() / vlen.max(1);
        let block = VectorSource::<T, NumpyData<T>>::from_storage(storage)
            .repeat(repeat)
            .with_vlen(vlen)
            .map_err(|e| value_error(format!("vector_source: {e}")))?;
        // Tag offsets count items (vectors of `vlen`).
        if let Some(t) = tags.iter().find(|t| t.offset >= items as u64) {
            return Err(value_error(format!(
                "vector_source: tag at offset {} is past the end of the {items} data items",
                t.offset
            )));
        }
        let block = block.tags(tags);
        Ok(BlockHandle::new("vector_source", name, Kind::Other, block))
    })
}
