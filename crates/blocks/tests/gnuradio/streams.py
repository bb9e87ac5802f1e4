"""Runs GNU Radio blocks on the same inputs as radioflow's stream tests, in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a GNU Radio
constructor (Python), "inputs": [{"type": "b|s|i|f|c", "file": raw items, "tags": [[offset,
key, int value], ...]}], "outputs": ["b|s|i|f|c", ...]}]}. For each case: a vector source per
input (with its tags) -> make -> a vector sink per output; writes NAME.outK.bin (the raw
items of output K) and NAME.outK.tags.json ([offset, key, value] of each of its tags). Run
with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, gr  # noqa: F401  (make strings name them)

DTYPES = {"b": numpy.uint8, "s": numpy.int16, "i": numpy.int32, "f": numpy.float32,
          "c": numpy.complex64}


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        tb = gr.top_block()
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        for port, spec in enumerate(case["inputs"]):
            data = numpy.fromfile(spec["file"], dtype=DTYPES[spec["type"]]).tolist()
            tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
                    for o, k, v in spec["tags"]]
            src = getattr(blocks, "vector_source_" + spec["type"])(data, False, 1, tags)
            tb.connect(src, (block, port))
        sinks = []
        for port, kind in enumerate(case["outputs"]):
            sink = getattr(blocks, "vector_sink_" + kind)()
            tb.connect((block, port), sink)
            sinks.append((sink, kind))
        tb.run()
        for port, (sink, kind) in enumerate(sinks):
            name = os.path.join(job["out"], "%s.out%d" % (case["name"], port))
            numpy.array(sink.data(), dtype=DTYPES[kind]).tofile(name + ".bin")
            tags = [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)]
                    for t in sink.tags()]
            with open(name + ".tags.json", "w") as f:
                json.dump(tags, f)


main()
