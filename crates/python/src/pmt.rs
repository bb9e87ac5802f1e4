//! PMT values to and from Python objects.
//!
//! | PMT | Python |
//! |---|---|
//! | nil | `None` |
//! | bool | `bool` |
//! | symbol | `str` |
//! | integer (`from_long`, `from_uint64`) | `int` |
//! | double, complex | `float`, `complex` |
//! | pair | [`Pair`](PyPair) (`car`, `cdr`) |
//! | dict | `dict` (in the order the keys were added) |
//! | vector, tuple | `list`, `tuple` |
//! | uniform vectors (u8 ... c64) | 1-D numpy arrays of the same type (`bytes` also make a u8vector) |
//!
//! numpy scalars convert as their Python value. Uniform vectors come back as numpy arrays, as
//! in GNU Radio's `pmt.to_python`.

use crate::errors::value_error;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};
use radioflow_pmt::{Complex32, Complex64, Pmt};
use std::sync::Arc;

/// A PMT pair (`pmt.cons(car, cdr)`), e.g. a PDU: `Pair(metadata_dict, numpy_uint8_array)`.
#[pyclass(frozen, module = "radioflow", name = "Pair")]
pub(crate) struct PyPair {
    /// The first element.
    #[pyo3(get)]
    car: Py<PyAny>,
    /// The second element.
    #[pyo3(get)]
    cdr: Py<PyAny>,
}

#[pymethods]
impl PyPair {
    #[new]
    fn new(car: Py<PyAny>, cdr: Py<PyAny>) -> Self {
        Self { car, cdr }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Pair({}, {})",
            self.car.bind(py).repr()?,
            self.cdr.bind(py).repr()?
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let py = other.py();
        let Ok(other) = other.cast::<PyPair>() else {
            return Ok(false);
        };
        let other = other.get();
        Ok(values_equal(self.car.bind(py), other.car.bind(py))?
            && values_equal(self.cdr.bind(py), other.cdr.bind(py))?)
    }

    fn __len__(&self) -> usize {
        2
    }

    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<Py<PyAny>> {
        match i {
            0 | -2 => Ok(self.car.clone_ref(py)),
            1 | -1 => Ok(self.cdr.clone_ref(py)),
            _ => Err(pyo3::exceptions::PyIndexError::new_err(
                "a Pair has two elements",
            )),
        }
    }
}

/// Equality that also works for numpy arrays (compared element-wise, then reduced).
fn values_equal(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(from_py(a)? == from_py(b)?)
}

/// The Python value of `pmt`.
pub(crate) fn to_py<'py>(py: Python<'py>, pmt: &Pmt) -> PyResult<Bound<'py, PyAny>> {
    fn array<'py, T: numpy::Element + Copy>(py: Python<'py>, v: &[T]) -> Bound<'py, PyAny> {
        PyArray1::from_slice(py, v).into_any()
    }
    Ok(match pmt {
        Pmt::Null => py.None().into_bound(py),
        Pmt::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Pmt::Symbol(s) => PyString::new(py, s).into_any(),
        Pmt::Int(v) => v.into_pyobject(py)?.into_any(),
        Pmt::Uint64(v) => v.into_pyobject(py)?.into_any(),
        Pmt::Double(v) => PyFloat::new(py, *v).into_any(),
        Pmt::Complex(c) => PyComplex::from_doubles(py, c.re, c.im).into_any(),
        Pmt::Pair(p) => Bound::new(
            py,
            PyPair {
                car: to_py(py, &p.0)?.unbind(),
                cdr: to_py(py, &p.1)?.unbind(),
            },
        )?
        .into_any(),
        Pmt::Dict(entries) => {
            // GNU Radio keeps the most recently added key first; Python dicts keep insertion
            // order: walk backwards so that the Python dict lists keys in the order added.
            let d = PyDict::new(py);
            for (k, v) in entries.iter().rev() {
                d.set_item(to_py(py, k)?, to_py(py, v)?)?;
            }
            d.into_any()
        }
        Pmt::Vector(items) => {
            let items: PyResult<Vec<_>> = items.iter().map(|p| to_py(py, p)).collect();
            PyList::new(py, items?)?.into_any()
        }
        Pmt::Tuple(items) => {
            let items: PyResult<Vec<_>> = items.iter().map(|p| to_py(py, p)).collect();
            PyTuple::new(py, items?)?.into_any()
        }
        Pmt::U8Vector(v) => array(py, v),
        Pmt::S8Vector(v) => array(py, v),
        Pmt::U16Vector(v) => array(py, v),
        Pmt::S16Vector(v) => array(py, v),
        Pmt::U32Vector(v) => array(py, v),
        Pmt::S32Vector(v) => array(py, v),
        Pmt::U64Vector(v) => array(py, v),
        Pmt::S64Vector(v) => array(py, v),
        Pmt::F32Vector(v) => array(py, v),
        Pmt::F64Vector(v) => array(py, v),
        Pmt::C32Vector(v) => array(py, v),
        Pmt::C64Vector(v) => array(py, v),
    })
}

/// The PMT of a Python value.
pub(crate) fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Pmt> {
    if obj.is_none() {
        return Ok(Pmt::Null);
    }
    // bool before int: Python's bool is an int.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Pmt::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(v) = obj.extract::<i64>() {
            return Ok(Pmt::Int(v));
        }
        return obj.extract::<u64>().map(Pmt::Uint64).map_err(|_| {
            value_error(format!(
                "the integer {obj} does not fit in a PMT (64 bits, signed or unsigned)"
            ))
        });
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(Pmt::Double(f.value()));
    }
    if let Ok(c) = obj.cast::<PyComplex>() {
        return Ok(Pmt::Complex(Complex64::new(c.real(), c.imag())));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Pmt::symbol(s.to_str()?));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Pmt::blob(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Pmt::blob(b.to_vec()));
    }
    if let Ok(p) = obj.cast::<PyPair>() {
        let p = p.get();
        let py = obj.py();
        return Ok(Pmt::pair(
            from_py(p.car.bind(py))?,
            from_py(p.cdr.bind(py))?,
        ));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut entries = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            entries.push((from_py(&k)?, from_py(&v)?));
        }
        return Ok(Pmt::dict_from(entries));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let items: PyResult<Vec<Pmt>> = l.iter().map(|x| from_py(&x)).collect();
        return Ok(Pmt::Vector(items?.into()));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let items: PyResult<Vec<Pmt>> = t.iter().map(|x| from_py(&x)).collect();
        return Ok(Pmt::Tuple(items?.into()));
    }
    if let Some(p) = numpy_array(obj)? {
        return Ok(p);
    }
    // numpy scalars (numpy.float32(1.0), numpy.int64(3), ...) convert as their Python value.
    if is_numpy_scalar(obj)? {
        return from_py(&obj.call_method0("item")?);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "cannot convert a Python {} to a PMT (use None, bool, int, float, complex, str, bytes, \
         dict, list, tuple, radioflow.Pair or a 1-D numpy array)",
        obj.get_type().name()?
    )))
}

fn is_numpy_scalar(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let generic = obj.py().import("numpy")?.getattr("generic")?;
    obj.is_instance(&generic)
}

/// A 1-D numpy array as a uniform vector; `None` if `obj` is not a numpy array.
fn numpy_array(obj: &Bound<'_, PyAny>) -> PyResult<Option<Pmt>> {
    let Ok(a) = obj.cast::<numpy::PyUntypedArray>() else {
        return Ok(None);
    };
    if a.ndim() != 1 {
        return Err(value_error(format!(
            "a numpy array becomes a PMT uniform vector only if it is 1-D (this one has shape {:?})",
            a.shape()
        )));
    }
    fn vec<T: numpy::Element + Copy>(obj: &Bound<'_, PyAny>) -> Option<Arc<[T]>> {
        let a = obj.cast::<PyArray1<T>>().ok()?;
        let ro = a.try_readonly().ok()?;
        Some(ro.as_array().iter().copied().collect())
    }
    let p = None
        .or_else(|| vec::<u8>(obj).map(Pmt::U8Vector))
        .or_else(|| vec::<i8>(obj).map(Pmt::S8Vector))
        .or_else(|| vec::<u16>(obj).map(Pmt::U16Vector))
        .or_else(|| vec::<i16>(obj).map(Pmt::S16Vector))
        .or_else(|| vec::<u32>(obj).map(Pmt::U32Vector))
        .or_else(|| vec::<i32>(obj).map(Pmt::S32Vector))
        .or_else(|| vec::<u64>(obj).map(Pmt::U64Vector))
        .or_else(|| vec::<i64>(obj).map(Pmt::S64Vector))
        .or_else(|| vec::<f32>(obj).map(Pmt::F32Vector))
        .or_else(|| vec::<f64>(obj).map(Pmt::F64Vector))
        .or_else(|| vec::<Complex32>(obj).map(Pmt::C32Vector))
        .or_else(|| vec::<Complex64>(obj).map(Pmt::C64Vector));
    match p {
        Some(p) => Ok(Some(p)),
        None => Err(value_error(format!(
            "a numpy array of dtype {} has no PMT uniform vector type",
            a.dtype()
        ))),
    }
}

/// Converts `value` to a PMT and back (for tests of the mapping).
#[pyfunction]
pub(crate) fn pmt_roundtrip<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    to_py(value.py(), &from_py(value)?)
}

/// `value` in GNU Radio 3.10's PMT wire format (`pmt.serialize_str`).
#[pyfunction]
pub(crate) fn pmt_serialize<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::new();
    from_py(value)?.serialize(&mut out);
    Ok(PyBytes::new(value.py(), &out))
}

/// The value of GNU Radio PMT wire bytes (`pmt.deserialize_str`).
#[pyfunction]
pub(crate) fn pmt_deserialize<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let (pmt, used) = Pmt::deserialize(data).map_err(|e| value_error(e.to_string()))?;
    if used != data.len() {
        return Err(value_error(format!(
            "{} bytes after the end of the PMT",
            data.len() - used
        )));
    }
    to_py(py, &pmt)
}
