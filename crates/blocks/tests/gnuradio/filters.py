"""Runs GNU Radio's filters on the same inputs as radioflow's filter tests, in one process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "make": a GNU Radio
constructor (Python), "type": "f|c" (input), "out_type": "f|c", "file": raw input items,
"tags": [[offset, key, int value], ...]}]}. For each case: a vector source (with the tags)
-> make -> a vector sink; writes NAME.bin (raw output items) and NAME.tags.json ([offset,
key, value] of each output tag). Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import analog, blocks, filter, gr  # noqa: F401  (make strings name them)
from gnuradio.filter import firdes, pfb  # noqa: F401

DTYPES = {"f": numpy.float32, "c": numpy.complex64}


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        tb = gr.top_block()
        block = eval(case["make"])  # noqa: S307  (the test's own strings)
        data = numpy.fromfile(case["file"], dtype=DTYPES[case["type"]]).tolist()
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
                for o, k, v in case["tags"]]
        src = getattr(blocks, "vector_source_" + case["type"])(data, False, 1, tags)
        sink = getattr(blocks, "vector_sink_" + case["out_type"])()
        tb.connect(src, block, sink)
        tb.run()
        name = os.path.join(job["out"], case["name"])
        numpy.array(sink.data(), dtype=DTYPES[case["out_type"]]).tofile(name + ".bin")
        with open(name + ".tags.json", "w") as f:
            json.dump([[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)]
                       for t in sink.tags()], f)


main()
