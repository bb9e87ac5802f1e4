"""Runs GNU Radio blocks on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"input": path of bytes, "out": folder, "cases": [{"name": str,
"make": a GNU Radio constructor (Python), "mask": int, optional "n" (bytes of the input
used, all by default) and "tags" ([offset, key, int] on the input), optional "kind" ("b",
"s" or "i": the input read as bytes, or as little-endian int16 or int32 items; "b" by default)}]}.
For each case: the input items ANDed with mask through vector_source_X -> make -> vector_sink_X;
writes NAME.bin (the output items' bytes, little-endian) and NAME.tags.json ([offset, key, value]
of each output tag). Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy as np
import pmt
from gnuradio import blocks, gr  # noqa: F401  (make strings name them)


def main():
    job = json.load(sys.stdin)
    data = open(job["input"], "rb").read()
    for case in job["cases"]:
        tb = gr.top_block()
        kind = case.get("kind", "b")
        dtype = {"b": np.dtype(np.uint8), "s": np.dtype("<i2"), "i": np.dtype("<i4")}[kind]
        items = np.frombuffer(data[: len(data) // dtype.itemsize * dtype.itemsize], dtype=dtype)
        n = case.get("n", len(items))
        tags = [
            gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
            for o, k, v in case.get("tags", [])
        ]
        values = [int(v) & case["mask"] for v in items[:n]]
        if kind != "b":
            # The mask as an unsigned pattern; back to the item's signed values.
            values = np.array(values, dtype=np.uint64).astype(dtype.str.replace("i", "u")).view(dtype)
            values = [int(v) for v in values]
        source = {"b": blocks.vector_source_b, "s": blocks.vector_source_s, "i": blocks.vector_source_i}
        src = source[kind](values, False, 1, tags)
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        sink = {"b": blocks.vector_sink_b, "s": blocks.vector_sink_s, "i": blocks.vector_sink_i}[kind]()
        tb.connect(src, block, sink)
        tb.run()
        name = os.path.join(job["out"], case["name"])
        with open(name + ".bin", "wb") as f:
            f.write(np.array(sink.data(), dtype=dtype).tobytes())
        tags = [
            [t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()
        ]
        with open(name + ".tags.json", "w") as f:
            json.dump(tags, f)


main()
