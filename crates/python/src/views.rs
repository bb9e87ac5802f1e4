//! numpy arrays that look straight into memory owned by Rust (stream buffers), without copying.

use numpy::npyffi::{self, npy_intp, PY_ARRAY_API};
use numpy::{Element, PyArrayDescrMethods};
use pyo3::prelude::*;
use std::ffi::c_void;

/// A 1-D C-contiguous array of the `len` items at `ptr` that keeps `base` alive (as its numpy
/// `base`); read-only unless `writable`.
///
/// # Safety
/// `ptr` must point to `len` initialised, aligned items of `T` that stay valid (and, if
/// `writable`, are not read or written by anyone else) for as long as the array or any view of
/// it can be used. Callers make sure of that by refusing arrays that outlive their call (see
/// [`python_block`](crate::python_block)).
pub(crate) unsafe fn view<'py, T: Element>(
    base: &Bound<'py, PyAny>,
    ptr: *const T,
    len: usize,
    writable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = base.py();
    let mut dims = [len as npy_intp];
    let mut strides = [std::mem::size_of::<T>() as npy_intp];
    let mut flags = npyffi::NPY_ARRAY_C_CONTIGUOUS | npyffi::NPY_ARRAY_ALIGNED;
    if writable {
        flags |= npyffi::NPY_ARRAY_WRITEABLE;
    }
    // SAFETY: numpy's C API is initialised by PY_ARRAY_API on first use; dims and strides are
    // valid 1-element arrays; the descriptor reference is stolen by the call; the caller
    // guarantees the data pointer as documented above.
    let array = unsafe {
        PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            npyffi::get_type_object(py, npyffi::NpyTypes::PyArray_Type),
            T::get_dtype(py).into_dtype_ptr(),
            1,
            dims.as_mut_ptr(),
            strides.as_mut_ptr(),
            ptr as *mut c_void,
            flags,
            std::ptr::null_mut(),
        )
    };
    if array.is_null() {
        return Err(PyErr::fetch(py));
    }
    // SAFETY: `array` is a new reference we own; taking it into a Bound makes sure it is
    // released on every path.
    let array = unsafe { Bound::from_owned_ptr(py, array) };
    // SAFETY: `array` is a numpy array; SetBaseObject steals the new reference to `base`.
    let status = unsafe {
        PY_ARRAY_API.PyArray_SetBaseObject(
            py,
            array.as_ptr() as *mut npyffi::PyArrayObject,
            base.clone().into_ptr(),
        )
    };
    if status < 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(array)
}
