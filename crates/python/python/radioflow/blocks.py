"""The native block library. Every block runs in Rust; the item type is a numpy dtype.

Parameters are checked here, before anything runs: a bad value raises ValueError (OSError for
files) naming it.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._dtypes import dtype_name
from ._native import Block

DTypeLike = Any
Tags = Optional[Iterable[Tuple[int, Any, Any]]]


def vector_source(
    data: Any,
    dtype: DTypeLike = None,
    *,
    repeat: bool = False,
    tags: Tags = None,
    name: Optional[str] = None,
) -> Block:
    """Plays `data` (a 1-D numpy array or sequence), once or repeated, with optional
    ``(offset, key, value)`` tags. A C-contiguous array of a stream dtype is streamed in place,
    without a copy: do not modify it while the graph runs. Anything else is converted first."""
    array = np.ascontiguousarray(data if dtype is None else np.asarray(data, dtype=dtype))
    if array.ndim != 1:
        raise ValueError(f"vector_source needs 1-D data, got shape {array.shape}")
    return _native.vector_source(
        dtype_name(array.dtype),
        array,
        repeat=repeat,
        tags=None if tags is None else list(tags),
        name=name,
    )


def vector_sink(dtype: DTypeLike = np.float32, *, name: Optional[str] = None) -> Block:
    """Collects what it receives; ``sink.data()`` returns it as a numpy array (no copy),
    ``sink.tags()`` the tags."""
    return _native.vector_sink(dtype_name(dtype), name=name)


def null_source(dtype: DTypeLike = np.float32, *, name: Optional[str] = None) -> Block:
    """Zeros, endlessly (bound it with ``head``)."""
    return _native.null_source(dtype_name(dtype), name=name)


def null_sink(dtype: DTypeLike = np.float32, *, name: Optional[str] = None) -> Block:
    """Discards what it receives."""
    return _native.null_sink(dtype_name(dtype), name=name)


def copy(dtype: DTypeLike = np.float32, *, name: Optional[str] = None) -> Block:
    """Passes items (and tags) through unchanged."""
    return _native.copy(dtype_name(dtype), name=name)


def head(n: int, dtype: DTypeLike = np.float32, *, name: Optional[str] = None) -> Block:
    """Passes the first `n` items, then ends the stream."""
    if n < 0:
        raise ValueError(f"head: n must be >= 0, not {n}")
    return _native.head(dtype_name(dtype), int(n), name=name)


def add_const(k: Any, dtype: DTypeLike = np.float32, *, name: Optional[str] = None) -> Block:
    """Adds `k` to every item."""
    return _native.add_const(dtype_name(dtype), k, name=name)


def multiply_const(
    k: Any, dtype: DTypeLike = np.float32, *, name: Optional[str] = None
) -> Block:
    """Multiplies every item by `k`."""
    return _native.multiply_const(dtype_name(dtype), k, name=name)


def multiply(
    dtype: DTypeLike = np.complex64, inputs: int = 2, *, name: Optional[str] = None
) -> Block:
    """The item-by-item product of `inputs` streams (ports 0..inputs-1): a mixer when one
    input is an oscillator."""
    return _native.multiply(dtype_name(dtype), int(inputs), name=name)


def signal_source(
    sample_rate: float,
    waveform: str,
    frequency: float,
    amplitude: float = 1.0,
    offset: Any = 0.0,
    *,
    phase: float = 0.0,
    dtype: DTypeLike = np.complex64,
    name: Optional[str] = None,
) -> Block:
    """A sine, cosine or constant at `frequency` Hz for `sample_rate` samples per second
    (GNU Radio's ``analog.sig_source_c/f``); float32 or complex64."""
    return _native.signal_source(
        dtype_name(dtype),
        waveform,
        float(frequency),
        float(sample_rate),
        amplitude=float(amplitude),
        offset=offset,
        phase=float(phase),
        name=name,
    )


def fir_filter(
    taps: Sequence[float], dtype: DTypeLike = np.complex64, *, name: Optional[str] = None
) -> Block:
    """A FIR filter with real `taps` (``y[n] = sum_k taps[k] * x[n-k]``) on float32 or
    complex64 items; SIMD where the CPU has it."""
    return _native.fir_filter(dtype_name(dtype), [float(t) for t in taps], name=name)


def throttle(
    sample_rate: float, dtype: DTypeLike = np.float32, *, name: Optional[str] = None
) -> Block:
    """Limits the item rate to `sample_rate` items per second (for graphs without hardware)."""
    return _native.throttle(dtype_name(dtype), float(sample_rate), name=name)


def file_source(
    path: Union[str, os.PathLike],
    dtype: DTypeLike = np.float32,
    *,
    repeat: bool = False,
    name: Optional[str] = None,
) -> Block:
    """Items read from a raw binary file (GNU Radio's ``file_source``)."""
    return _native.file_source(dtype_name(dtype), os.fspath(path), repeat=repeat, name=name)


def file_sink(
    path: Union[str, os.PathLike], dtype: DTypeLike = np.float32, *, name: Optional[str] = None
) -> Block:
    """Writes items to a raw binary file (created or truncated)."""
    return _native.file_sink(dtype_name(dtype), os.fspath(path), name=name)


def message_burst_source(messages: Sequence[Any], *, name: Optional[str] = None) -> Block:
    """Sends `messages` on its ``out`` port as fast as possible, then finishes."""
    return _native.message_burst_source(list(messages), name=name)


def message_forwarder(*, name: Optional[str] = None) -> Block:
    """Passes messages from ``in`` to ``out``."""
    return _native.message_forwarder(name=name)


def message_counter(*, name: Optional[str] = None) -> Block:
    """Counts messages arriving on ``in``: ``counter.count()``."""
    return _native.message_counter(name=name)


def message_debug(*, name: Optional[str] = None) -> Block:
    """Keeps messages arriving on ``store``: ``debug.messages()``."""
    return _native.message_debug(name=name)


__all__ = [
    "add_const",
    "copy",
    "file_sink",
    "file_source",
    "fir_filter",
    "head",
    "message_burst_source",
    "message_counter",
    "message_debug",
    "message_forwarder",
    "multiply",
    "multiply_const",
    "null_sink",
    "null_source",
    "signal_source",
    "throttle",
    "vector_sink",
    "vector_source",
]
