//! The GNU Radio table ([`radioflow_library::gnuradio`]) as Python sees it: the rows
//! (`gnuradio_table()`) and the mapping of one GNU Radio block's parameters onto radioflow's
//! (`gnuradio_map(id, params)`), the same that `.grc` files go through, for a layer that
//! makes blocks by GNU Radio's names.

use crate::errors::value_error;
use crate::pmt::{from_py, to_py};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use radioflow_graphfile::grc::{evaluate, Value};
use radioflow_library::gnuradio::{self, GrValues, To};
use radioflow_runtime::Pmt;

/// Adds the table's functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(gnuradio_table, m)?)?;
    m.add_function(wrap_pyfunction!(gnuradio_map, m)?)?;
    m.add_function(wrap_pyfunction!(gnuradio_constants, m)?)?;
    m.add_function(wrap_pyfunction!(gnuradio_eval, m)?)?;
    Ok(())
}

/// Every GNU Radio block radioflow runs: a list of dicts with `id` (GRC's), `block`
/// (radioflow's), `make` (GNU Radio's Python constructor as its GRC template writes it, blanks
/// removed, `${x}` as `{x}`; empty where GNU Radio 3.10.5 lacks the block), `types` (a list of
/// `(option, numpy dtype name or None, why refused)`), `params` (a list of `(key, what,
/// detail)`: what is `param` (detail: radioflow's name), `convert` (radioflow's name), `only`
/// (detail: why other values are refused), `no_effect` (detail: why) or `word` (a GRC
/// enumeration's option name as written, detail: radioflow's name, which the row's choice reads))
/// and `extra` (keys passed through under the same name).
#[pyfunction]
fn gnuradio_table(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let rows = PyList::empty(py);
    for row in gnuradio::rows() {
        let d = PyDict::new(py);
        d.set_item("id", row.id)?;
        d.set_item("block", row.block)?;
        d.set_item("make", row.make)?;
        let types: Vec<(&str, Option<&str>, &str)> = row
            .types
            .iter()
            .map(|t| (t.option, t.dtype.map(|d| d.name()), t.why))
            .collect();
        d.set_item("types", types)?;
        let params: Vec<(&str, &str, &str)> = row
            .params
            .iter()
            .map(|p| match p.to {
                To::Param(n) => (p.key, "param", n),
                To::Convert(n, _) => (p.key, "convert", n),
                To::Only(_, why) => (p.key, "only", why),
                To::NoEffect(why) => (p.key, "no_effect", why),
                To::Word(n) => (p.key, "word", n),
            })
            .collect();
        d.set_item("params", params)?;
        d.set_item("extra", row.extra.to_vec())?;
        rows.append(d)?;
    }
    Ok(rows)
}

/// A Python dict of GNU Radio parameters (by GRC key) as the table reads them.
struct PyValues<'a, 'py> {
    values: Vec<(String, Pmt)>,
    dict: &'a Bound<'py, PyDict>,
}

impl GrValues for PyValues<'_, '_> {
    fn value(&self, key: &str) -> Option<Result<Pmt, String>> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| Ok(v.clone()))
    }

    fn keys(&self) -> Vec<String> {
        self.values.iter().map(|(k, _)| k.clone()).collect()
    }

    fn show(&self, key: &str) -> String {
        self.dict
            .get_item(key)
            .ok()
            .flatten()
            .and_then(|v| v.repr().ok().map(|r| r.to_string()))
            .unwrap_or_else(|| "(not given)".into())
    }
}

/// GNU Radio block `id` with parameters `params` (a dict by GRC key: `{"type": "float",
/// "num_inputs": 2}`) as radioflow's: `(block id, numpy dtype name or None, {name: value})`.
/// Raises ValueError naming the id and parameter where radioflow does not run it, or where a
/// parameter is not one of GNU Radio's for the block.
#[pyfunction]
fn gnuradio_map<'py>(
    py: Python<'py>,
    id: &str,
    params: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyTuple>> {
    let Some(row) = gnuradio::find(id) else {
        return Err(value_error(format!(
            "radioflow does not run GNU Radio block '{id}'"
        )));
    };
    let mut values = Vec::new();
    for (k, v) in params.iter() {
        let key: String = k.extract()?;
        let value = from_py(&v).map_err(|e| value_error(format!("{id}: {key}: {e}")))?;
        values.push((key, value));
    }
    let mapped = row
        .map(&PyValues {
            values,
            dict: params,
        })
        .map_err(value_error)?;
    // A `.grc` file may carry a parameter GNU Radio no longer has (GRC drops it); a call
    // naming one is a mistake.
    if let Some(note) = mapped.notes.first() {
        return Err(value_error(note.clone()));
    }
    let out = PyDict::new(py);
    for (name, value) in &mapped.params {
        out.set_item(name, to_py(py, value)?)?;
    }
    (mapped.block, mapped.dtype.map(|d| d.name()), out).into_pyobject(py)
}

/// GNU Radio's enumeration constants (`analog.GR_COS_WAVE`, `window.WIN_HAMMING`, ...): a
/// list of `(Python names, word, GNU Radio's number)`; the word is what the table's
/// parameters take for that choice (the same constants `.grc` files name).
#[pyfunction]
fn gnuradio_constants() -> Vec<(Vec<&'static str>, &'static str, i64)> {
    radioflow_graphfile::grc::gnuradio_constants()
        .iter()
        .map(|(names, word, value)| (names.to_vec(), *word, *value))
        .collect()
}

/// Evaluates a GRC expression as `.grc` files' parameters are (`digital.constellation_qpsk()`,
/// `fec.cc_encoder_make(2048, 7, 2, [79, 109])`, `digital.constellation_16qam().points()`):
/// `(kind, value)`, where kind is `"function"` for a function of the evaluator named without
/// a call (value: its name), `"constellation"` for a constellation (value: its text form, the
/// one blocks' parameters take) and `"value"` otherwise (value: the PMT a block parameter
/// would get, as Python). The Python objects GRC variables make are these values.
#[pyfunction]
fn gnuradio_eval<'py>(
    py: Python<'py>,
    expression: &str,
) -> PyResult<(&'static str, Bound<'py, PyAny>)> {
    let value = evaluate(expression, &[]).map_err(|e| value_error(e.to_string()))?;
    let kind = match &value {
        Value::Function(_) => "function",
        Value::Constellation(_) => "constellation",
        _ => "value",
    };
    let out = match &value {
        Value::Function(name) => name.into_pyobject(py)?.into_any(),
        other => to_py(py, &other.to_pmt())?,
    };
    Ok((kind, out))
}
