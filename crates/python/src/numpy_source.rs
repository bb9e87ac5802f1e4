//! Streaming a numpy array in place: the storage behind `blocks.vector_source(array)`.

use numpy::{Element, PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// The items of a 1-D, C-contiguous, aligned numpy array, read where numpy keeps them (no copy).
///
/// The array is kept alive by the reference held here, and numpy refuses to resize an array
/// that has other references, so the memory stays put; the block only reads it. Writing to
/// the array from Python while the graph runs changes what the source sends (as with GNU
/// Radio's Python buffers): don't.
pub(crate) struct NumpyData<T> {
    _array: Py<PyAny>,
    ptr: *const T,
    len: usize,
}

// SAFETY: the pointed-to memory belongs to a numpy array kept alive by `_array` (a `Py`, which
// is Send) and is only read; reading plain-old-data items from another thread is sound.
unsafe impl<T: Send> Send for NumpyData<T> {}

impl<T: Element> NumpyData<T> {
    /// The items of `array`, which must be 1-D, C-contiguous and aligned (the Python layer
    /// converts anything else with `numpy.ascontiguousarray` first).
    pub(crate) fn new(array: &Bound<'_, PyArray1<T>>) -> PyResult<Self> {
        if !array.is_c_contiguous() {
            return Err(crate::errors::value_error(
                "vector_source needs a C-contiguous array (numpy.ascontiguousarray)",
            ));
        }
        let len = array.len();
        let ptr = array.data().cast_const();
        if !(ptr as usize).is_multiple_of(std::mem::align_of::<T>()) {
            return Err(crate::errors::value_error(
                "vector_source needs an aligned array (numpy.require(a, requirements='A'))",
            ));
        }
        Ok(Self {
            _array: array.clone().into_any().unbind(),
            ptr,
            len,
        })
    }
}

impl<T> AsRef<[T]> for NumpyData<T> {
    fn as_ref(&self) -> &[T] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: `ptr` points to `len` initialised, aligned items of the array kept alive by
        // `_array` (checked in `new`); numpy does not move the data of an array that has
        // other references.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}
