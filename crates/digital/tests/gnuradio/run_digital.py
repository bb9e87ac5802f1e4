"""Runs GNU Radio's gr-digital blocks on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a GNU Radio
constructor (Python), "input": path of the input's raw items, "in": and "out": the item
types ("b" bytes, "s" int16, "i" int32, "f" float32, "c" complex64; "s" and "i" in only), "tags": [[offset, key], ...]}]}. For each case:
the input through vector_source -> make -> vector_sink; writes NAME.bin (the output's raw
items) and NAME.tags.json ([offset, key] of each output tag). Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, digital, gr  # noqa: F401  (make strings name them)

DTYPES = {
    "b": numpy.uint8,
    "s": numpy.int16,
    "i": numpy.int32,
    "f": numpy.float32,
    "c": numpy.complex64,
}
SOURCES = {
    "b": blocks.vector_source_b,
    "s": blocks.vector_source_s,
    "i": blocks.vector_source_i,
    "f": blocks.vector_source_f,
    "c": blocks.vector_source_c,
}
SINKS = {"b": blocks.vector_sink_b, "f": blocks.vector_sink_f, "c": blocks.vector_sink_c}


def lut(constellation, precision):
    """The constellation with its soft-decision table (GNU Radio's gen_soft_dec_lut)."""
    constellation.gen_soft_dec_lut(precision)
    return constellation


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        data = numpy.fromfile(case["input"], dtype=DTYPES[case["in"]])
        tags = []
        for offset, key in case["tags"]:
            tag = gr.tag_t()
            tag.offset = offset
            tag.key = pmt.intern(key)
            tag.value = pmt.PMT_T
            tags.append(tag)
        tb = gr.top_block()
        src = SOURCES[case["in"]](data.tolist(), False, 1, tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        sink = SINKS[case["out"]]()
        tb.connect(src, block, sink)
        tb.run()
        name = os.path.join(job["out"], case["name"])
        numpy.array(sink.data(), dtype=DTYPES[case["out"]]).tofile(name + ".bin")
        out_tags = [[t.offset, pmt.symbol_to_string(t.key)] for t in sink.tags()]
        with open(name + ".tags.json", "w") as f:
            json.dump(out_tags, f)


main()
