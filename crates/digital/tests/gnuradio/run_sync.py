"""Runs GNU Radio's gr-digital synchronizers on the same input as radioflow's tests, in one
process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a GNU Radio
constructor (Python), "input": path of the input's raw complex64 or float32 items, "in": "c"
or "f", "outs": the item type of each output to connect ("c" or "f"), "tags": [[offset, key,
value], ...] (values doubles), "post": [[port, value], ...] messages posted before the run}]}.
For each case: the input through vector_source -> make -> one vector_sink per output; writes
NAME.K.bin (output K's raw items) and NAME.tags.json ([offset, key] of output 0's tags). Run
with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, digital, filter, gr  # noqa: F401  (make strings name them)

DTYPES = {"f": numpy.float32, "c": numpy.complex64}
SOURCES = {"f": blocks.vector_source_f, "c": blocks.vector_source_c}
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
            tag.value = pmt.from_double(value)
            tags.append(tag)
        tb = gr.top_block()
        src = SOURCES[case["in"]](data.tolist(), False, 1, tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        for port, value in case["post"]:
            block.to_basic_block()._post(pmt.intern(port), pmt.from_double(value))
        tb.connect(src, block)
        sinks = []
        for k, code in enumerate(case["outs"]):
            sinks.append(SINKS[code]())
            tb.connect((block, k), sinks[-1])
        tb.run()
        name = os.path.join(job["out"], case["name"])
        for k, (code, sink) in enumerate(zip(case["outs"], sinks)):
            numpy.array(sink.data(), dtype=DTYPES[code]).tofile(f"{name}.{k}.bin")
        out_tags = [[t.offset, pmt.symbol_to_string(t.key)] for t in sinks[0].tags()]
        with open(name + ".tags.json", "w") as f:
            json.dump(out_tags, f)


main()
