"""Runs GNU Radio chains with vector items on the same inputs as radioflow's tests, in one
process.

Reads a JSON job on stdin: {"out": folder, "cases": [{"name": str, "data": [float, ...],
"tags": [[offset, key, int value], ...], "chain": [Python expression, ...], "extra": [Python
expression, ...], "links": [[from, to, to port], ...]}]}. Each expression makes one GNU Radio
block and may name `data` (the floats), `tags` (GNU Radio tags) and `path` (a file holding
`data` as float32); the chain's blocks are connected in order (the first a source, the last a
float vector sink), then each link connects block `from` (an index into chain + extra) to
port `to port` of block `to`. Writes NAME.bin (the sink's floats, float32; a complex sink's
as float32 pairs)
and NAME.tags.json ([offset, key, value] of each of its tags). Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, fft, gr  # noqa: F401  (the expressions name them)


def main():
    job = json.load(sys.stdin)
    for case in job["cases"]:
        name = os.path.join(job["out"], case["name"])
        data = case["data"]
        path = name + ".input.f32"
        numpy.array(data, dtype=numpy.float32).tofile(path)
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
                for o, k, v in case["tags"]]
        env = {"blocks": blocks, "fft": fft, "gr": gr, "data": data, "tags": tags, "path": path}
        chain = [eval(make, env) for make in case["chain"]]  # noqa: S307  (the test's own)
        every = chain + [eval(make, env) for make in case["extra"]]  # noqa: S307
        tb = gr.top_block()
        tb.connect(*chain)
        for a, b, port in case["links"]:
            tb.connect(every[a], (every[b], port))
        tb.run()
        sink = chain[-1]
        out = numpy.array(sink.data())
        if numpy.iscomplexobj(out):
            out = out.astype(numpy.complex64).view(numpy.float32)
        out.astype(numpy.float32).tofile(name + ".bin")
        out = [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)]
               for t in sink.tags()]
        with open(name + ".tags.json", "w") as f:
            json.dump(out, f)


main()
