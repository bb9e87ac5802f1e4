"""Runs gr-dtv's DVB-T blocks on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a gr-dtv
constructor (Python), "in": "b" or "c" (bytes or complex64), "in_vlen", "out": "b" or "c",
"out_vlen", "tags": [[offset, key, int value], ...]}]}. For each case: vector_source of
NAME.in.bin (in the folder) -> make -> vector_sink; writes NAME.bin (the output) and
NAME.tags.json ([offset, key, value] of each output tag). Run with Debian's /usr/bin/python3
(GNU Radio 3.10).
"""

import json
import os
import sys

import numpy as np
import pmt
from gnuradio import blocks, dtv, gr  # noqa: F401  (make strings name them)


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        name = os.path.join(job["out"], case["name"])
        kind = {"b": (np.uint8, blocks.vector_source_b, blocks.vector_sink_b),
                "c": (np.complex64, blocks.vector_source_c, blocks.vector_sink_c)}
        dtype, source, _ = kind[case["in"]]
        data = np.fromfile(name + ".in.bin", dtype=dtype)
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
                for o, k, v in case["tags"]]
        tb = gr.top_block()
        src = source(data.tolist(), False, case["in_vlen"], tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        out_dtype, _, sink_of = kind[case["out"]]
        sink = sink_of(case["out_vlen"])
        tb.connect(src, block, sink)
        tb.run()
        np.array(sink.data(), dtype=out_dtype).tofile(name + ".bin")
        out = [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()]
        with open(name + ".tags.json", "w") as f:
            json.dump(out, f)


main()
