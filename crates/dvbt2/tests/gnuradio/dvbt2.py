"""Runs gr-dtv's DVB-T2 OFDM blocks on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a gr-dtv
constructor (Python), "tags": [[offset, key, int value], ...], "max_items": the most items
a call of the block's work may make, 0 for GNU Radio's choice, "port": the output compared,
the block's others going to null sinks, "outputs": how many the block has, "vlen": scalars per output item,
"in_vlen": scalars per input item}]}. For each case: vector_source_c of NAME.in.bin (complex64, in the folder) -> make -> vector_sink_c; writes
NAME.bin (the output, complex64) and NAME.tags.json ([offset, key, value] of each output
tag). Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
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
        data = np.fromfile(name + ".in.bin", dtype=np.complex64)
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
                for o, k, v in case["tags"]]
        tb = gr.top_block()
        in_vlen = case.get("in_vlen", 1)
        src = blocks.vector_source_c(data.tolist(), False, in_vlen, tags)
        vlen = case.get("vlen", 1)
        if vlen > 1:
            # The pilot generator asks for a whole frame of cells, more than the default buffer
            # (the PAPR reduction a whole frame of symbols).
            src.set_min_output_buffer(len(data) // in_vlen)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        if case["max_items"]:
            block.set_max_noutput_items(case["max_items"])
        sink = blocks.vector_sink_c(vlen)
        tb.connect(src, block)
        for port in range(case["outputs"]):
            if port == case["port"]:
                tb.connect((block, port), sink)
            else:
                tb.connect((block, port), blocks.null_sink(gr.sizeof_gr_complex * vlen))
        tb.run()
        np.array(sink.data(), dtype=np.complex64).tofile(name + ".bin")
        out = [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()]
        with open(name + ".tags.json", "w") as f:
            json.dump(out, f)


main()
