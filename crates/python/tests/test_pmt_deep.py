"""Long PMT lists (chains of Pairs) and deep nesting: never a crash; a ValueError naming the
limit for containers nested deeper than radioflow's MAX_DEPTH (256), as when decoding."""

import subprocess
import sys
import textwrap

import pytest

import radioflow as rf
from radioflow import pmt

MAX_DEPTH = 256


def run_isolated(code):
    """Runs `code` in a fresh interpreter, so that a stack overflow fails this test instead of
    killing pytest."""
    prelude = "import radioflow as rf\nfrom radioflow import pmt\n"
    r = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"exit code {r.returncode}\n{r.stdout[-1000:]}\n{r.stderr[-2000:]}"


@pytest.mark.parametrize("n", [20_000, 100_000, 1_000_000])
def test_long_pair_chains_convert_serialize_and_free(n):
    run_isolated(f"""
        n = {n}
        p = None
        for i in reversed(range(n)):
            p = rf.Pair(i, p)
        data = pmt.serialize(p)
        assert data == b"".join(b"\\x07\\x03" + i.to_bytes(4, "big") for i in range(n)) + b"\\x06"
        for back in [pmt.deserialize(data), pmt.roundtrip(p)]:
            assert back == p
            items = []
            while isinstance(back, rf.Pair):
                items.append(back.car)
                back = back.cdr
            assert back is None and items == list(range(n))
        del p, back
        print("freed")
    """)


def test_long_python_lists_are_vectors():
    value = list(range(100_000))
    assert pmt.roundtrip(value) == value
    assert pmt.deserialize(pmt.serialize(value)) == value


# One level of nesting each: the value inside a list, a tuple, a dict, the car of a Pair and
# the first item of a PMT list (a chain of Pairs).
WRAP = {
    "list": lambda v: [v],
    "tuple": lambda v: (None, v),
    "dict": lambda v: {"k": v},
    "car": lambda v: rf.Pair(v, 1),
    "pmt_list": lambda v: rf.Pair(v, rf.Pair(1, None)),
}
KINDS = list(WRAP)


def nest(kind, depth):
    value = 0
    for _ in range(depth):
        value = WRAP[kind](value)
    return value


@pytest.mark.parametrize("kind", KINDS)
def test_nesting_up_to_the_limit_converts(kind):
    value = nest(kind, MAX_DEPTH)
    assert pmt.roundtrip(value) == value
    assert pmt.deserialize(pmt.serialize(value)) == value


@pytest.mark.parametrize("kind", KINDS)
def test_nesting_beyond_the_limit_is_a_value_error(kind):
    value = nest(kind, MAX_DEPTH + 1)
    with pytest.raises(ValueError, match=f"nested deeper than {MAX_DEPTH} levels"):
        pmt.serialize(value)
    with pytest.raises(ValueError, match=f"nested deeper than {MAX_DEPTH} levels"):
        pmt.roundtrip(value)


def test_very_deep_nesting_is_a_value_error_not_a_crash():
    run_isolated(f"""
        import pytest
        for make in [lambda v: [v], lambda v: {{"k": v}}, lambda v: rf.Pair(v, 1)]:
            value = 0
            for _ in range(200_000):
                value = make(value)
            with pytest.raises(ValueError, match="nested deeper than {MAX_DEPTH} levels"):
                pmt.serialize(value)
            del value
        # Real nesting in GNU Radio's bytes: pairs in the car of pairs.
        with pytest.raises(ValueError, match="nested deeper than {MAX_DEPTH} levels"):
            pmt.deserialize(b"\\x07" * 100_000 + b"\\x06" * 100_001)
    """)
