"""PMT values <-> Python values, and GNU Radio's wire format."""

import shutil
import subprocess

import numpy as np
import pytest

import radioflow as rf
from radioflow import pmt

SIMPLE = [None, True, False, 0, -5, 2**62, 2**64 - 1, 1.25, 1 - 2j, "symbol", "grüße"]


@pytest.mark.parametrize("value", SIMPLE)
def test_atoms_roundtrip(value):
    got = pmt.roundtrip(value)
    assert got == value and type(got) is type(value)


def test_containers_roundtrip():
    value = {"a": [1, 2.5, "x"], "b": (True, None), 3: {"nested": (1,)}}
    got = pmt.roundtrip(value)
    assert got == value
    assert list(got) == ["a", "b", 3]  # dict order kept
    assert isinstance(got["a"], list) and isinstance(got["b"], tuple)


@pytest.mark.parametrize(
    "dtype",
    [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64,
     np.float32, np.float64, np.complex64, np.complex128],
)
def test_numpy_arrays_become_uniform_vectors(dtype):
    a = (np.arange(7) * 3).astype(dtype)
    got = pmt.roundtrip(a)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, a)


def test_bytes_pairs_and_numpy_scalars():
    got = pmt.roundtrip(b"\x00\x01\xff")
    assert got.dtype == np.uint8 and got.tolist() == [0, 1, 255]
    p = pmt.roundtrip(rf.Pair({"len": 3}, b"abc"))
    assert isinstance(p, rf.Pair) and p.car == {"len": 3} and bytes(p.cdr) == b"abc"
    assert pmt.roundtrip(np.float32(1.5)) == 1.5
    assert pmt.roundtrip(np.int64(-3)) == -3


def test_unconvertible_values_are_refused():
    with pytest.raises(TypeError, match="cannot convert a Python object"):
        pmt.roundtrip(object())
    with pytest.raises(ValueError, match="does not fit in a PMT"):
        pmt.roundtrip(2**64)
    with pytest.raises(ValueError, match="1-D"):
        pmt.roundtrip(np.zeros((2, 2)))


def test_wire_format_known_bytes():
    assert pmt.serialize("hi") == b"\x02\x00\x02hi"
    assert pmt.serialize(True) == b"\x00"
    assert pmt.serialize(None) == b"\x06"
    assert pmt.deserialize(pmt.serialize({"k": (1, 2.0)})) == {"k": (1, 2.0)}
    with pytest.raises(ValueError):
        pmt.deserialize(b"\x02\x00\x05hi")


GNURADIO_PYTHON = "/usr/bin/python3"


def gnuradio_available():
    if not shutil.which(GNURADIO_PYTHON):
        return False
    r = subprocess.run([GNURADIO_PYTHON, "-c", "import pmt"], capture_output=True)
    return r.returncode == 0


@pytest.mark.skipif(not gnuradio_available(), reason="GNU Radio's Python (pmt) is not installed")
def test_same_bytes_as_gnuradio():
    """GNU Radio's own pmt.to_pmt + serialize_str on the same Python values."""
    values = [
        "None", "True", "42", "-7", "1.5", "(2-3j)", "'sym'", "[1, 'a', 2.5]", "(1, 2)",
        "{'a': 1, 'b': 'x'}", "numpy.arange(5, dtype=numpy.float32)",
        "numpy.arange(3, dtype=numpy.complex64)", "numpy.arange(4, dtype=numpy.uint8)",
        "numpy.arange(4, dtype=numpy.int16)",
    ]
    script = (
        "import numpy, pmt, sys\n"
        "for line in sys.stdin.read().splitlines():\n"
        "    print(pmt.serialize_str(pmt.to_pmt(eval(line))).hex())\n"
    )
    r = subprocess.run([GNURADIO_PYTHON, "-c", script], input="\n".join(values),
                       capture_output=True, text=True, check=True)
    theirs = r.stdout.split()
    for expr, hexed in zip(values, theirs, strict=True):
        ours = pmt.serialize(eval(expr, {"numpy": np}))
        assert ours.hex() == hexed, expr
        back = pmt.deserialize(bytes.fromhex(hexed))
        want = eval(expr, {"numpy": np})
        if isinstance(want, np.ndarray):
            np.testing.assert_array_equal(back, want)
        else:
            assert back == want, expr
