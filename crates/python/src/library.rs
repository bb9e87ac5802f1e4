//! Factories of the native block library, called by `radioflow.blocks`.
//!
//! Each takes the item type as a numpy dtype name (the Python layer normalises whatever numpy
//! accepts) and returns a [`BlockHandle`]. Bad parameters raise `ValueError` (or `OSError` for
//! files) naming the parameter, before anything runs.

use crate::dtype::{with_dtype, Dtype, PyItem};
use crate::errors::value_error;
use crate::handle::{BlockHandle, Kind};
use crate::numpy_source::NumpyData;
use crate::pmt::from_py;
use numpy::PyArray1;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use radioflow_blocks::{
    AddConst, Copy, FileSink, FileSource, FirFilter, Head, MessageBurstSource, MessageCounter,
    MessageDebug, MessageForwarder, Multiply, MultiplyConst, NullSink, NullSource, SignalSource,
    Throttle, VectorSink, VectorSource, Waveform,
};
use radioflow_runtime::{Complex32, Pmt, Tag};

/// Adds the factories to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(null_source, m)?)?;
    m.add_function(wrap_pyfunction!(null_sink, m)?)?;
    m.add_function(wrap_pyfunction!(copy, m)?)?;
    m.add_function(wrap_pyfunction!(vector_sink, m)?)?;
    m.add_function(wrap_pyfunction!(vector_source, m)?)?;
    m.add_function(wrap_pyfunction!(head, m)?)?;
    m.add_function(wrap_pyfunction!(add_const, m)?)?;
    m.add_function(wrap_pyfunction!(multiply_const, m)?)?;
    m.add_function(wrap_pyfunction!(multiply, m)?)?;
    m.add_function(wrap_pyfunction!(signal_source, m)?)?;
    m.add_function(wrap_pyfunction!(throttle, m)?)?;
    m.add_function(wrap_pyfunction!(fir_filter, m)?)?;
    m.add_function(wrap_pyfunction!(file_source, m)?)?;
    m.add_function(wrap_pyfunction!(file_sink, m)?)?;
    m.add_function(wrap_pyfunction!(message_burst_source, m)?)?;
    m.add_function(wrap_pyfunction!(message_forwarder, m)?)?;
    m.add_function(wrap_pyfunction!(message_counter, m)?)?;
    m.add_function(wrap_pyfunction!(message_debug, m)?)?;
    Ok(())
}

/// A factory of a block that takes only its item type.
macro_rules! typed_factory {
    ($fn:ident, $kind:expr, |$T:ident| $make:expr) => {
        #[pyfunction]
        #[pyo3(signature = (dtype, *, name = None))]
        fn $fn(dtype: &str, name: Option<String>) -> PyResult<BlockHandle> {
            let d = Dtype::parse(dtype)?;
            let kind = ($kind)(d);
            Ok(with_dtype!(d, $T => BlockHandle::new(stringify!($fn), name, kind, $make)))
        }
    };
}

typed_factory!(null_source, |_| Kind::Other, |T| NullSource::<T>::new());
typed_factory!(null_sink, |_| Kind::Other, |T| NullSink::<T>::new());
typed_factory!(copy, |_| Kind::Other, |T| Copy::<T>::new());
typed_factory!(vector_sink, Kind::VectorSink, |T| VectorSink::<T>::new());

/// A tag given from Python: `(offset, key, value)`.
type PyTag<'py> = (u64, Bound<'py, PyAny>, Bound<'py, PyAny>);

/// Tags given from Python as `(offset, key, value)` tuples.
fn tags_from_py(tags: Option<Vec<PyTag<'_>>>) -> PyResult<Vec<Tag>> {
    tags.unwrap_or_default()
        .into_iter()
        .map(|(offset, k, v)| Ok(Tag::new(offset, from_py(&k)?, from_py(&v)?)))
        .collect()
}

#[pyfunction]
#[pyo3(signature = (dtype, data, *, repeat = false, tags = None, name = None))]
fn vector_source(
    dtype: &str,
    data: &Bound<'_, PyAny>,
    repeat: bool,
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
        let len = storage.as_ref().len();
        if let Some(t) = tags.iter().find(|t| t.offset >= len as u64) {
            return Err(value_error(format!(
                "vector_source: tag at offset {} is past the end of the {len} data items",
                t.offset
            )));
        }
        let block = VectorSource::<T, NumpyData<T>>::from_storage(storage).repeat(repeat).tags(tags);
        Ok(BlockHandle::new("vector_source", name, Kind::Other, block))
    })
}

#[pyfunction]
#[pyo3(signature = (dtype, n, *, name = None))]
fn head(dtype: &str, n: u64, name: Option<String>) -> PyResult<BlockHandle> {
    let d = Dtype::parse(dtype)?;
    Ok(with_dtype!(d, T => BlockHandle::new("head", name, Kind::Other, Head::<T>::new(n))))
}

#[pyfunction]
#[pyo3(signature = (dtype, k, *, name = None))]
fn add_const(dtype: &str, k: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<BlockHandle> {
    let d = Dtype::parse(dtype)?;
    with_dtype!(d, T => {
        let k = <T as PyItem>::from_py(k)?;
        Ok(BlockHandle::new("add_const", name, Kind::Other, AddConst::<T>::new(k)))
    })
}

#[pyfunction]
#[pyo3(signature = (dtype, k, *, name = None))]
fn multiply_const(
    dtype: &str,
    k: &Bound<'_, PyAny>,
    name: Option<String>,
) -> PyResult<BlockHandle> {
    let d = Dtype::parse(dtype)?;
    with_dtype!(d, T => {
        let k = <T as PyItem>::from_py(k)?;
        Ok(BlockHandle::new("multiply_const", name, Kind::Other, MultiplyConst::<T>::new(k)))
    })
}

#[pyfunction]
#[pyo3(signature = (dtype, inputs, *, name = None))]
fn multiply(dtype: &str, inputs: usize, name: Option<String>) -> PyResult<BlockHandle> {
    if inputs == 0 {
        return Err(value_error("multiply needs at least one input"));
    }
    let d = Dtype::parse(dtype)?;
    Ok(
        with_dtype!(d, T => BlockHandle::new("multiply", name, Kind::Other, Multiply::<T>::new(inputs))),
    )
}

#[pyfunction]
#[pyo3(signature = (dtype, waveform, frequency, sample_rate, *, amplitude = 1.0, offset = None, phase = 0.0, name = None))]
#[allow(clippy::too_many_arguments)]
fn signal_source(
    dtype: &str,
    waveform: &str,
    frequency: f64,
    sample_rate: f64,
    amplitude: f32,
    offset: Option<&Bound<'_, PyAny>>,
    phase: f64,
    name: Option<String>,
) -> PyResult<BlockHandle> {
    let waveform = match waveform {
        "sine" | "sin" => Waveform::Sine,
        "cosine" | "cos" => Waveform::Cosine,
        "constant" | "const" => Waveform::Constant,
        other => {
            return Err(value_error(format!(
                "signal_source: unknown waveform '{other}' (use sine, cosine or constant)"
            )))
        }
    };
    if !(sample_rate.is_finite() && sample_rate > 0.0) {
        return Err(value_error(format!(
            "signal_source: sample_rate must be finite and positive, not {sample_rate}"
        )));
    }
    if !frequency.is_finite() || !phase.is_finite() || !amplitude.is_finite() {
        return Err(value_error(
            "signal_source: frequency, amplitude and phase must be finite",
        ));
    }
    let block = match Dtype::parse(dtype)? {
        Dtype::Float32 => {
            let offset = offset.map(f32::from_py).transpose()?.unwrap_or(0.0);
            let b = SignalSource::<f32>::new(waveform, frequency, sample_rate, amplitude, offset)
                .phase(phase);
            BlockHandle::new("signal_source", name, Kind::Other, b)
        }
        Dtype::Complex64 => {
            let offset = offset
                .map(Complex32::from_py)
                .transpose()?
                .unwrap_or_default();
            let b =
                SignalSource::<Complex32>::new(waveform, frequency, sample_rate, amplitude, offset)
                    .phase(phase);
            BlockHandle::new("signal_source", name, Kind::Other, b)
        }
        other => {
            return Err(value_error(format!(
                "signal_source makes float32 or complex64 items, not {}",
                other.name()
            )))
        }
    };
    Ok(block)
}

#[pyfunction]
#[pyo3(signature = (dtype, sample_rate, *, name = None))]
fn throttle(dtype: &str, sample_rate: f64, name: Option<String>) -> PyResult<BlockHandle> {
    if !(sample_rate.is_finite() && sample_rate > 0.0) {
        return Err(value_error(format!(
            "throttle: sample_rate must be finite and positive, not {sample_rate}"
        )));
    }
    let d = Dtype::parse(dtype)?;
    Ok(with_dtype!(d, T => BlockHandle::new(
        "throttle", name, Kind::Other, Throttle::<T>::new(sample_rate)
    )))
}

#[pyfunction]
#[pyo3(signature = (dtype, taps, *, name = None))]
fn fir_filter(dtype: &str, taps: Vec<f32>, name: Option<String>) -> PyResult<BlockHandle> {
    if taps.is_empty() {
        return Err(value_error("fir_filter needs at least one tap"));
    }
    if let Some(t) = taps.iter().find(|t| !t.is_finite()) {
        return Err(value_error(format!("fir_filter: tap {t} is not finite")));
    }
    let block = match Dtype::parse(dtype)? {
        Dtype::Float32 => BlockHandle::new(
            "fir_filter",
            name,
            Kind::Other,
            FirFilter::<f32>::new(&taps),
        ),
        Dtype::Complex64 => BlockHandle::new(
            "fir_filter",
            name,
            Kind::Other,
            FirFilter::<Complex32>::new(&taps),
        ),
        other => {
            return Err(value_error(format!(
                "fir_filter filters float32 or complex64 items, not {}",
                other.name()
            )))
        }
    };
    Ok(block)
}

#[pyfunction]
#[pyo3(signature = (dtype, path, *, repeat = false, name = None))]
fn file_source(
    dtype: &str,
    path: std::path::PathBuf,
    repeat: bool,
    name: Option<String>,
) -> PyResult<BlockHandle> {
    let d = Dtype::parse(dtype)?;
    with_dtype!(d, T => {
        let b = FileSource::<T>::new(&path).map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok(BlockHandle::new("file_source", name, Kind::Other, b.repeat(repeat)))
    })
}

#[pyfunction]
#[pyo3(signature = (dtype, path, *, name = None))]
fn file_sink(dtype: &str, path: std::path::PathBuf, name: Option<String>) -> PyResult<BlockHandle> {
    let d = Dtype::parse(dtype)?;
    with_dtype!(d, T => {
        let b = FileSink::<T>::new(&path).map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok(BlockHandle::new("file_sink", name, Kind::Other, b))
    })
}

#[pyfunction]
#[pyo3(signature = (messages, *, name = None))]
fn message_burst_source(
    messages: Vec<Bound<'_, PyAny>>,
    name: Option<String>,
) -> PyResult<BlockHandle> {
    let msgs: PyResult<Vec<Pmt>> = messages.iter().map(from_py).collect();
    Ok(BlockHandle::new(
        "message_burst_source",
        name,
        Kind::Other,
        MessageBurstSource::new(msgs?),
    ))
}

#[pyfunction]
#[pyo3(signature = (*, name = None))]
fn message_forwarder(name: Option<String>) -> BlockHandle {
    BlockHandle::new(
        "message_forwarder",
        name,
        Kind::Other,
        MessageForwarder::new(),
    )
}

#[pyfunction]
#[pyo3(signature = (*, name = None))]
fn message_counter(name: Option<String>) -> BlockHandle {
    BlockHandle::new(
        "message_counter",
        name,
        Kind::MessageCounter,
        MessageCounter::new(),
    )
}

#[pyfunction]
#[pyo3(signature = (*, name = None))]
fn message_debug(name: Option<String>) -> BlockHandle {
    BlockHandle::new(
        "message_debug",
        name,
        Kind::MessageDebug,
        MessageDebug::new(),
    )
}
