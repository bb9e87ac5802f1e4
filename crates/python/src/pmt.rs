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
//!
//! Conversions in both directions keep their work on the heap: a list (a chain of Pairs) of any
//! length converts, and containers nested more than [`MAX_DEPTH`] deep are a `ValueError`, as
//! they are when decoding.

use crate::errors::value_error;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};
use radioflow_pmt::{Complex32, Complex64, Pmt, MAX_DEPTH};
use std::sync::Arc;

/// A PMT pair (`pmt.cons(car, cdr)`), e.g. a PDU: `Pair(metadata_dict, numpy_uint8_array)`.
///
/// Not `frozen` only so that [`Drop`] can empty a Pair that it frees: the fields are never
/// changed while Python can see them.
#[pyclass(module = "radioflow", name = "Pair")]
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

    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if !other.is_instance_of::<PyPair>() {
            return Ok(false);
        }
        values_equal(slf.as_any(), other)
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

/// Python frees a chain of Pairs (a PMT list) by recursion, one level per Pair, which
/// overflows the stack at some 100,000 items: a Pair that is the last owner of Pairs inside it
/// takes them out and frees them one by one, each emptied the same way first.
impl Drop for PyPair {
    fn drop(&mut self) {
        Python::attach(|py| {
            let mut pending: Vec<Py<PyAny>> = Vec::new();
            take_owned_pairs(py, [&mut self.car, &mut self.cdr], &mut pending);
            while let Some(pair) = pending.pop() {
                if let Ok(pair) = pair.bind(py).cast::<PyPair>()
                    && let Ok(mut pair) = pair.try_borrow_mut()
                {
                    let pair = &mut *pair;
                    take_owned_pairs(py, [&mut pair.car, &mut pair.cdr], &mut pending);
                }
                // `pair` is freed here with no Pair left inside that it alone owns.
            }
        });
    }
}

/// Moves each field that holds the only reference to a Pair into `pending`. Nothing else can
/// see such a Pair: Pairs support no weak references and are not tracked by the collector.
fn take_owned_pairs(py: Python<'_>, fields: [&mut Py<PyAny>; 2], pending: &mut Vec<Py<PyAny>>) {
    for field in fields {
        // SAFETY: `field` owns a reference to a live object, and this thread is attached.
        let only_owner = unsafe { pyo3::ffi::Py_REFCNT(field.as_ptr()) } == 1;
        if only_owner && field.bind(py).is_instance_of::<PyPair>() {
            pending.push(std::mem::replace(field, py.None()));
        }
    }
}

/// Equality that also works for numpy arrays (compared element-wise, then reduced).
fn values_equal(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(from_py(a)? == from_py(b)?)
}

/// The error for a value nested deeper than [`MAX_DEPTH`] (a list's length does not count).
fn too_deep() -> PyErr {
    value_error(format!(
        "PMT nested deeper than {MAX_DEPTH} levels (the limit for containers inside containers; \
         the length of a list does not count)"
    ))
}

/// How the converted children of a container, in order on a stack of values, become the
/// container.
#[derive(Clone, Copy)]
enum Build {
    /// A chain of Pairs: its `n` cars, then the final cdr.
    Pairs(usize),
    /// `n` keys and values, alternating, in the order to insert them.
    Dict(usize),
    /// A vector (a Python list) or a tuple of `n` items.
    Items { n: usize, tuple: bool },
}

impl Build {
    fn children(self) -> usize {
        match self {
            Build::Pairs(n) => n + 1,
            Build::Dict(n) => 2 * n,
            Build::Items { n, .. } => n,
        }
    }
}

/// A step of a conversion: convert a value `depth` containers deep, or build a container from
/// the values converted last. Containers push their children instead of recursing, and the
/// cdrs of a chain of pairs are children of the chain, so neither a long list nor deep nesting
/// costs call stack.
enum Step<T> {
    Convert(T, usize),
    Build(Build),
}

/// Runs the steps of a conversion from `root`: `expand` converts a leaf, or pushes the
/// children of a container and says how to build it; `build` makes a container of its
/// children's values.
fn convert<T, V>(
    root: T,
    mut expand: impl FnMut(T, &mut Vec<T>) -> PyResult<Result<V, Build>>,
    mut build: impl FnMut(Build, std::vec::Drain<'_, V>) -> PyResult<V>,
) -> PyResult<V> {
    let mut steps = vec![Step::Convert(root, 0)];
    let mut values: Vec<V> = Vec::new();
    let mut children: Vec<T> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Convert(value, depth) => {
                if depth > MAX_DEPTH {
                    return Err(too_deep());
                }
                match expand(value, &mut children)? {
                    Ok(leaf) => values.push(leaf),
                    Err(container) => {
                        debug_assert_eq!(children.len(), container.children());
                        steps.push(Step::Build(container));
                        // Reversed, so that the children are converted in order.
                        steps.extend(
                            children
                                .drain(..)
                                .rev()
                                .map(|c| Step::Convert(c, depth + 1)),
                        );
                    }
                }
            }
            Step::Build(container) => {
                let first = values.len() - container.children();
                let value = build(container, values.drain(first..))?;
                values.push(value);
            }
        }
    }
    debug_assert_eq!(values.len(), 1);
    Ok(values.pop().expect("the root's value"))
}

/// The Python value of `pmt`.
///
/// # Errors
///
/// `ValueError` if `pmt` nests containers more than [`MAX_DEPTH`] deep.
pub(crate) fn to_py<'py>(py: Python<'py>, pmt: &Pmt) -> PyResult<Bound<'py, PyAny>> {
    convert(
        pmt,
        |pmt, children| {
            Ok(match pmt {
                Pmt::Pair(_) => {
                    let mut tail = pmt;
                    while let Pmt::Pair(pair) = tail {
                        children.push(&pair.0);
                        tail = &pair.1;
                    }
                    let n = children.len();
                    children.push(tail);
                    Err(Build::Pairs(n))
                }
                // GNU Radio keeps the most recently added key first; Python dicts keep
                // insertion order: insert backwards so that the keys are in the order added.
                Pmt::Dict(entries) => {
                    children.extend(entries.iter().rev().flat_map(|(k, v)| [k, v]));
                    Err(Build::Dict(entries.len()))
                }
                Pmt::Vector(items) | Pmt::Tuple(items) => {
                    children.extend(items.iter());
                    let tuple = matches!(pmt, Pmt::Tuple(_));
                    Err(Build::Items {
                        n: items.len(),
                        tuple,
                    })
                }
                leaf => Ok(leaf_to_py(py, leaf)?),
            })
        },
        |container, mut values| {
            Ok(match container {
                Build::Pairs(_) => {
                    let mut values: Vec<_> = values.collect();
                    let mut pair = values.pop().expect("the cdr of a chain");
                    while let Some(car) = values.pop() {
                        let cdr = pair.unbind();
                        pair = Bound::new(py, PyPair::new(car.unbind(), cdr))?.into_any();
                    }
                    pair
                }
                Build::Dict(_) => {
                    let d = PyDict::new(py);
                    while let (Some(k), Some(v)) = (values.next(), values.next()) {
                        d.set_item(k, v)?;
                    }
                    d.into_any()
                }
                Build::Items { tuple: false, .. } => PyList::new(py, values)?.into_any(),
                Build::Items { tuple: true, .. } => PyTuple::new(py, values)?.into_any(),
            })
        },
    )
}

/// The Python value of a PMT that holds no other PMT.
fn leaf_to_py<'py>(py: Python<'py>, pmt: &Pmt) -> PyResult<Bound<'py, PyAny>> {
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
        Pmt::Pair(_) | Pmt::Dict(_) | Pmt::Vector(_) | Pmt::Tuple(_) => {
            unreachable!("containers are converted by `to_py`")
        }
    })
}

/// The PMT of a Python value.
///
/// # Errors
///
/// `TypeError` for a value with no PMT type, `ValueError` for an integer that does not fit or
/// containers nested more than [`MAX_DEPTH`] deep.
pub(crate) fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Pmt> {
    convert(
        obj.clone(),
        |obj, children| {
            if let Ok(pair) = obj.cast::<PyPair>() {
                let py = obj.py();
                let mut pair = pair.clone();
                loop {
                    let (car, cdr) = {
                        let p = pair.borrow();
                        (p.car.bind(py).clone(), p.cdr.bind(py).clone())
                    };
                    children.push(car);
                    match cdr.cast_into::<PyPair>() {
                        Ok(next) => pair = next,
                        Err(tail) => {
                            let n = children.len();
                            children.push(tail.into_inner());
                            return Ok(Err(Build::Pairs(n)));
                        }
                    }
                }
            }
            if let Ok(d) = obj.cast::<PyDict>() {
                children.extend(d.iter().flat_map(|(k, v)| [k, v]));
                return Ok(Err(Build::Dict(d.len())));
            }
            if let Ok(l) = obj.cast::<PyList>() {
                children.extend(l.iter());
                let n = children.len();
                return Ok(Err(Build::Items { n, tuple: false }));
            }
            if let Ok(t) = obj.cast::<PyTuple>() {
                children.extend(t.iter());
                let n = children.len();
                return Ok(Err(Build::Items { n, tuple: true }));
            }
            leaf_from_py(&obj).map(Ok)
        },
        |container, mut values| {
            Ok(match container {
                Build::Pairs(_) => {
                    let mut values: Vec<Pmt> = values.collect();
                    let mut pair = values.pop().expect("the cdr of a chain");
                    while let Some(car) = values.pop() {
                        pair = Pmt::pair(car, pair);
                    }
                    pair
                }
                Build::Dict(n) => {
                    let mut entries = Vec::with_capacity(n);
                    while let (Some(k), Some(v)) = (values.next(), values.next()) {
                        entries.push((k, v));
                    }
                    Pmt::dict_from(entries)
                }
                Build::Items { tuple: false, .. } => Pmt::Vector(values.collect()),
                Build::Items { tuple: true, .. } => Pmt::Tuple(values.collect()),
            })
        },
    )
}

/// The PMT of a Python value that is not a container.
fn leaf_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Pmt> {
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
    if let Some(p) = numpy_array(obj)? {
        return Ok(p);
    }
    // numpy scalars (numpy.float32(1.0), numpy.int64(3), ...) convert as their Python value,
    // which is never a container.
    if is_numpy_scalar(obj)? {
        return leaf_from_py(&obj.call_method0("item")?);
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
