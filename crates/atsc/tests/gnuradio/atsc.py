"""Runs chains of gr-dtv's ATSC blocks on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": [gr-dtv
constructors (Python), in chain order], "in_vlen", "out_vlen", "tags": [[offset, key, int
value], ...]}]}. For each case: vector_source_b of NAME.in.bin (in the folder) -> the chain ->
vector_sink_b; writes NAME.bin (the output) and NAME.tags.json ([offset, key, value] of each
output tag). Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
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
        data = np.fromfile(name + ".in.bin", dtype=np.uint8)
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
                for o, k, v in case["tags"]]
        tb = gr.top_block()
        src = blocks.vector_source_b(data.tolist(), False, case["in_vlen"], tags)
        chain = [eval(m) for m in case["make"]]  # noqa: S307  (the test's own strings)
        sink = blocks.vector_sink_b(case["out_vlen"])
        tb.connect(src, *chain, sink)
        tb.run()
        np.array(sink.data(), dtype=np.uint8).tofile(name + ".bin")
        out = [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()]
        with open(name + ".tags.json", "w") as f:
            json.dump(out, f)


main()
