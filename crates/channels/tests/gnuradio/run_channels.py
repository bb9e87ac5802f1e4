"""Runs GNU Radio's gr-channels blocks on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a GNU Radio
constructor (Python), "input": path of the input's raw complex64 items, "tags": [[offset,
key], ...]}]}. For each case: the input through vector_source_c -> make -> vector_sink_c;
writes NAME.bin (the output's raw complex64 items) and NAME.tags.json ([offset, key] of each
output tag). Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, channels, gr  # noqa: F401  (make strings name them)


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        data = numpy.fromfile(case["input"], dtype=numpy.complex64)
        tags = []
        for offset, key in case["tags"]:
            tag = gr.tag_t()
            tag.offset = offset
            tag.key = pmt.intern(key)
            tag.value = pmt.PMT_T
            tags.append(tag)
        tb = gr.top_block()
        src = blocks.vector_source_c(data.tolist(), False, 1, tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        sink = blocks.vector_sink_c()
        tb.connect(src, block, sink)
        tb.run()
        name = os.path.join(job["out"], case["name"])
        numpy.array(sink.data(), dtype=numpy.complex64).tofile(name + ".bin")
        out_tags = [[t.offset, pmt.symbol_to_string(t.key)] for t in sink.tags()]
        with open(name + ".tags.json", "w") as f:
            json.dump(out_tags, f)


main()
