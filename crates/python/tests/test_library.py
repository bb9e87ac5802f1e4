"""The block library in Python is made from the blocks' own descriptions: every block of the
registry has a function here with its parameters, docstring and stub."""

import inspect
from pathlib import Path

import numpy as np
import pytest

import radioflow as rf
from radioflow import _native, blocks
from radioflow._stubgen import stub

STUB = Path(__file__).resolve().parents[1] / "python" / "radioflow" / "blocks.pyi"


def test_every_registered_block_has_a_python_function_with_its_parameters():
    library = _native.block_library()
    assert len(library) >= 20
    assert sorted(d["id"] for d in library) == blocks.__all__
    for d in library:
        f = getattr(blocks, d["id"])
        assert f.__doc__.startswith(d["summary"]), d["id"]
        params = inspect.signature(f).parameters
        for p in d["params"]:
            assert p["name"] in params, (d["id"], p["name"])
            assert p["doc"] in f.__doc__
        assert ("dtype" in params) == bool(d["dtypes"]), d["id"]
        assert params["name"].kind is inspect.Parameter.KEYWORD_ONLY
        for port in d["ports"]:
            assert port["name"] in f.__doc__


def test_the_committed_stub_is_the_generated_one():
    assert STUB.read_text() == stub(), (
        "blocks.pyi is stale: run `python -m radioflow._stubgen > "
        "crates/python/python/radioflow/blocks.pyi`"
    )
    for d in _native.block_library():
        assert f"\ndef {d['id']}(" in STUB.read_text()


def test_parameters_by_keyword_and_position():
    fg = rf.Flowgraph()
    a = blocks.vector_source(np.arange(6, dtype=np.float32))
    b = blocks.vector_source(np.full(6, 2.0, np.float32))
    c = blocks.vector_source(np.full(6, 0.5, np.float32))
    mul = blocks.multiply(dtype=np.float32, inputs=3, name="mul")
    gain = blocks.multiply_const(k=10, dtype="float32")
    sink = blocks.vector_sink(np.float32)
    fg.connect(a, (mul, 0))
    fg.connect(b, (mul, 1))
    fg.connect(c, (mul, "in2"))
    fg.connect(mul, gain, sink)
    fg.run()
    np.testing.assert_array_equal(sink.data(), np.arange(6, dtype=np.float32) * 10)
    assert mul.name == "mul"


def test_bad_calls_name_the_block_and_parameter():
    with pytest.raises(TypeError, match="head: missing a required argument: 'n'"):
        blocks.head()
    with pytest.raises(TypeError, match="head: got an unexpected keyword argument 'm'"):
        blocks.head(3, m=4)
    with pytest.raises(ValueError, match="head: n must be >= 0, not -1"):
        blocks.head(-1)
    with pytest.raises(ValueError, match="fir_filter: has no int8 version"):
        blocks.fir_filter([1.0], np.int8)
    with pytest.raises(ValueError, match="multiply: inputs must be >= 1, not 0"):
        blocks.multiply(inputs=0)
    with pytest.raises(ValueError, match="fir_filter: taps needs at least one value"):
        blocks.fir_filter([])


def test_numpy_values_are_accepted_as_parameters():
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.complex64)
    fir = blocks.fir_filter(np.array([0.5, 0.5], np.float32))
    src = blocks.vector_source(np.ones(4, np.complex64))
    fg.connect(src, blocks.add_const(np.complex64(1j), np.complex64), fir, sink)
    fg.run()
    np.testing.assert_allclose(sink.data(), [0.5 + 0.5j, 1 + 1j, 1 + 1j, 1 + 1j])
