"""Runs GNU Radio's gr-dtv DVB-S2/T2 transmitter blocks on the same inputs as radioflow's
tests, in one process.

Reads a JSON job on stdin: {"cases": [{"make": a gr-dtv constructor (Python), "input": a
file of items, "in": "b" or "c" (bytes or complex64), "out": "b" or "c", "output": the file
to write}]}. For each case: vector_source -> make -> vector_sink; writes the sink's items.
Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import sys

import numpy as np
from gnuradio import blocks, dtv, gr  # noqa: F401  (make strings name dtv)

TYPES = {"b": (np.uint8, blocks.vector_source_b, blocks.vector_sink_b),
         "c": (np.complex64, blocks.vector_source_c, blocks.vector_sink_c)}


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        dtype, source, _ = TYPES[case["in"]]
        out_dtype, _, sink_type = TYPES[case["out"]]
        data = np.fromfile(case["input"], dtype=dtype)
        tb = gr.top_block()
        src = source(data.tolist(), False)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        sink = sink_type()
        tb.connect(src, block, sink)
        tb.run()
        np.array(sink.data(), dtype=out_dtype).tofile(case["output"])


main()
