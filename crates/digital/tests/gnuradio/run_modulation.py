"""Runs GNU Radio's gr-digital burst shaping and modulation blocks on the same input as
radioflow's tests (tests/gnuradio_modulation.rs), in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a GNU Radio
constructor (Python), "input": path of the input's raw complex64, float32 or byte items,
"in": "c", "f" or "b", "out": the output's type code, "tags": [[offset, key, integer value],
...]}]}. For each case: the input through
vector_source -> make -> vector_sink; writes NAME.bin (the output's raw items) and
NAME.tags.json ([offset, key, integer value] of the output's tags). Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, digital, gr  # noqa: F401  (make strings name them)

DTYPES = {"f": numpy.float32, "c": numpy.complex64, "b": numpy.uint8}
SOURCES = {
    "f": blocks.vector_source_f,
    "c": blocks.vector_source_c,
    "b": blocks.vector_source_b,
}
SINKS = {"f": blocks.vector_sink_f, "c": blocks.vector_sink_c}


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        data = numpy.fromfile(case["input"], dtype=DTYPES[case["in"]])
        tags = []
        for offset, key, value in case["tags"]:
            tag = gr.tag_t()
            tag.offset = offset
            tag.key = pmt.intern(key)
            tag.value = pmt.from_long(value)
            tags.append(tag)
        tb = gr.top_block()
        src = SOURCES[case["in"]](data.tolist(), False, 1, tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        sink = SINKS[case["out"]]()
        tb.connect(src, block, sink)
        tb.run()
        name = os.path.join(job["out"], case["name"])
        numpy.array(sink.data(), dtype=DTYPES[case["out"]]).tofile(name + ".bin")
        out_tags = [
            [t.offset, pmt.symbol_to_string(t.key), pmt.to_long(t.value)]
            for t in sink.tags()
        ]
        with open(name + ".tags.json", "w") as f:
            json.dump(out_tags, f)


main()
