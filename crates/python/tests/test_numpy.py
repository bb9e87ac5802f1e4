"""numpy in and out: every stream dtype, zero-copy where promised, tags."""

import numpy as np
import pytest

import radioflow as rf
from radioflow import blocks

DTYPES = [np.float32, np.complex64, np.int16, np.int8, np.uint8]


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_passes_exactly(dtype, scheduler):
    rng = np.random.default_rng(7)
    if np.dtype(dtype).kind == "c":
        data = (rng.standard_normal(20_000) + 1j * rng.standard_normal(20_000)).astype(dtype)
    elif np.dtype(dtype).kind == "f":
        data = rng.standard_normal(20_000).astype(dtype)
    else:
        info = np.iinfo(dtype)
        data = rng.integers(info.min, info.max, 20_000, endpoint=True).astype(dtype)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(dtype)
    fg.connect(blocks.vector_source(data), blocks.copy(dtype), sink)
    fg.run(scheduler)
    out = sink.data()
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(out, data)


def test_vector_source_streams_the_array_in_place():
    data = np.zeros(1000, np.float32)
    src = blocks.vector_source(data)
    # Written after the source was made, before the run: the source must see it (no copy).
    data[:] = np.arange(1000)
    fg = rf.Flowgraph()
    sink = blocks.vector_sink()
    fg.connect(src, sink)
    fg.run()
    np.testing.assert_array_equal(sink.data(), np.arange(1000, dtype=np.float32))


def test_vector_source_converts_other_inputs():
    strided = np.arange(20, dtype=np.float32)[::2]  # not contiguous: copied first
    fg = rf.Flowgraph()
    sink = blocks.vector_sink()
    fg.connect(blocks.vector_source(strided), sink)
    fg.connect(blocks.vector_source([1, 2, 3], np.int16), blocks.vector_sink(np.int16))
    fg.run()
    np.testing.assert_array_equal(sink.data(), strided)
    with pytest.raises(ValueError, match="1-D"):
        blocks.vector_source(np.zeros((2, 2), np.float32))


def test_vector_sink_data_is_not_copied():
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.complex64)
    fg.connect(blocks.null_source(np.complex64), blocks.head(10_000, np.complex64), sink)
    fg.run()
    a = sink.data()
    b = sink.data()
    # The array owns no numpy memory: it wraps the Rust vector the sink filled.
    assert not a.flags.owndata
    assert a.base is not None and type(a.base).__name__ == "PySliceContainer"
    assert np.shares_memory(a, b)
    assert a.size == 10_000


def test_vector_sink_reset_forgets_the_data():
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.int8)
    src = blocks.vector_source(np.array([1, 2, 3], np.int8))
    fg.connect(src, sink)
    fg.run()
    assert sink.data().tolist() == [1, 2, 3]
    sink.reset()
    assert sink.data().tolist() == []


def test_tags_travel_from_source_to_sink():
    data = np.arange(100, dtype=np.float32)
    src = blocks.vector_source(data, tags=[(10, "burst", True), (42, "freq", 1.5e6)])
    sink = blocks.vector_sink()
    fg = rf.Flowgraph()
    fg.connect(src, blocks.copy(), sink)
    fg.run()
    assert sink.tags() == [(10, "burst", True), (42, "freq", 1.5e6)]
    with pytest.raises(ValueError, match="past the end"):
        blocks.vector_source(data, tags=[(100, "x", 1)])
