"""Runs GNU Radio blocks on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"input": path of bytes, "out": folder, "cases": [{"name": str,
"make": a GNU Radio constructor (Python), "mask": int, optional "n" (bytes of the input
used, all by default) and "tags" ([offset, key, int] on the input)}]}. For each case: the
input bytes ANDed with mask through vector_source_b -> make -> vector_sink_b; writes NAME.bin (the output
bytes) and NAME.tags.json ([offset, key, value] of each output tag). Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import pmt
from gnuradio import blocks, gr  # noqa: F401  (make strings name them)


def main():
    job = json.load(sys.stdin)
    data = open(job["input"], "rb").read()
    for case in job["cases"]:
        tb = gr.top_block()
        n = case.get("n", len(data))
        tags = [
            gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
            for o, k, v in case.get("tags", [])
        ]
        src = blocks.vector_source_b([b & case["mask"] for b in data[:n]], False, 1, tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        sink = blocks.vector_sink_b()
        tb.connect(src, block, sink)
        tb.run()
        name = os.path.join(job["out"], case["name"])
        with open(name + ".bin", "wb") as f:
            f.write(bytes(sink.data()))
        tags = [
            [t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()
        ]
        with open(name + ".tags.json", "w") as f:
            json.dump(tags, f)


main()
