"""Writes what a script found as JSON both runs compare (numbers as lists, PMTs by their
serialization, tags as [offset, key, value])."""

import json
import sys

import numpy
import pmt


def tags(sink):
    return [[int(t.offset), pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()]


def plain(v):
    if isinstance(v, numpy.ndarray):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, numpy.generic):
        v = v.item()
    if isinstance(v, complex):
        return [v.real, v.imag]
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    return v


def write(results):
    with open(sys.argv[1], "w") as f:
        json.dump(plain(results), f)
