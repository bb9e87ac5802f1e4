"""Runs GNU Radio's gr-dtv DVB-S2/T2 transmitter blocks on the same inputs as radioflow's
tests, in one process.

Reads a JSON job on stdin: {"cases": [{"make": a gr-dtv constructor (Python), "input": a
file of items, "in": "b" or "c" (bytes or complex64), "out": "b" or "c", "output": the file
to write, "tags": [[offset, key, int value], ...]}]}. For each case: vector_source (with the
tags) -> make -> vector_sink; writes the sink's items, and its tags as JSON to OUTPUT.tags.json.
Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import sys

import numpy as np
import pmt
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
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
                for o, k, v in case["tags"]]
        src = source(data.tolist(), False, 1, tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        sink = sink_type()
        tb.connect(src, block, sink)
        tb.run()
        np.array(sink.data(), dtype=out_dtype).tofile(case["output"])
        out = [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()]
        with open(case["output"] + ".tags.json", "w") as f:
            json.dump(out, f)


main()
