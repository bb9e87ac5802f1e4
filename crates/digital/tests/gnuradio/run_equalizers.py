"""Runs GNU Radio's adaptive equalizers on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"out": folder, "runs": [{"input": path of the raw complex64
input, "tags": [[offset, key], ...], "cases": [{"name": str, "make": a GNU Radio constructor
(Python), "vlen": the taps output's vector length}]}]}. For each case: its run's input (with
the tags, values PMT_T) through vector_source -> make -> sinks on its three outputs; writes NAME.out.bin (complex64),
NAME.taps.bin (complex64 vectors), NAME.state.bin (int16) and NAME.tags.json ([offset, key]
of the symbols' tags). Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, digital, gr  # noqa: F401  (make strings name digital)


def main():
    job = json.load(sys.stdin)
    for run in job["runs"]:
        data = numpy.fromfile(run["input"], dtype=numpy.complex64)
        tags = []
        for offset, key in run["tags"]:
            tag = gr.tag_t()
            tag.offset = offset
            tag.key = pmt.intern(key)
            tag.value = pmt.PMT_T
            tags.append(tag)
        for case in run["cases"]:
            equalize(job["out"], data, tags, case)


def equalize(out_dir, data, tags, case):
    tb = gr.top_block()
    src = blocks.vector_source_c(data.tolist(), False, 1, tags)
    block = eval(case["make"])  # noqa: S307  (the test's own strings)
    out = blocks.vector_sink_c()
    taps = blocks.vector_sink_c(case["vlen"])
    state = blocks.vector_sink_s()
    tb.connect(src, block)
    tb.connect((block, 0), out)
    tb.connect((block, 1), taps)
    tb.connect((block, 2), state)
    tb.run()
    name = os.path.join(out_dir, case["name"])
    numpy.array(out.data(), dtype=numpy.complex64).tofile(name + ".out.bin")
    numpy.array(taps.data(), dtype=numpy.complex64).tofile(name + ".taps.bin")
    numpy.array(state.data(), dtype=numpy.int16).tofile(name + ".state.bin")
    with open(name + ".tags.json", "w") as f:
        json.dump([[t.offset, pmt.symbol_to_string(t.key)] for t in out.tags()], f)

main()
