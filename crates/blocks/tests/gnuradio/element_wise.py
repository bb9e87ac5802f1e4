#!/usr/bin/python3
"""Runs GNU Radio blocks on raw input files, all in one GNU Radio process and one flowgraph.

Usage: element_wise.py CASES.json

CASES.json is a list of cases:
    {"make": "blocks.float_to_short(1, 3.0)",
     "inputs": [{"file": "in0.bin", "itemsize": 4}, ...],
     "outputs": [{"file": "out0.bin", "itemsize": 2}, ...]}
Each case's block gets a file_source per input (port order) and a file_sink per output (port
order: outputs not listed are left unconnected, as GNU Radio allows for optional ones). The
files hold raw items in the machine's byte order, as GNU Radio's file blocks read and write them.
"""

import json
import sys

from gnuradio import blocks, gr


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    tb = gr.top_block()
    sinks = []
    for case in cases:
        block = eval(case["make"], {"blocks": blocks})
        for port, spec in enumerate(case["inputs"]):
            src = blocks.file_source(spec["itemsize"], spec["file"], False)
            tb.connect(src, (block, port))
        for port, spec in enumerate(case["outputs"]):
            sink = blocks.file_sink(spec["itemsize"], spec["file"], False)
            sink.set_unbuffered(False)
            tb.connect((block, port), sink)
            sinks.append(sink)
    tb.run()
    for sink in sinks:
        sink.close()


if __name__ == "__main__":
    main()
