"""GNU Radio 3.10's side of the multiply_by_tag_value test in tests/gnuradio_tags.rs: for each
vlen of the job (JSON on stdin: {"vlens": [...], "items": [[re, im], ...], "tags": [[item,
key, kind, value], ...]}, kind "int", "double", "uint64", "complex" ([re, im]) or "symbol"),
the samples through blocks.multiply_by_tag_value_cc("amp", vlen). Writes on stdout {vlen:
{"items": [[re, im], ...], "tags": [[item, key], ...]}} as its last line (GNU Radio's logger
writes the block's warnings on stdout before it)."""

import json
import sys

import pmt
from gnuradio import blocks, gr


def value(kind, v):
    if kind == "int":
        return pmt.from_long(v)
    if kind == "double":
        return pmt.from_double(v)
    if kind == "uint64":
        return pmt.from_uint64(v)
    if kind == "complex":
        return pmt.from_complex(complex(v[0], v[1]))
    return pmt.intern(v)


job = json.load(sys.stdin)
samples = [complex(re, im) for re, im in job["items"]]
out = {}
for vlen in job["vlens"]:
    tags = [
        gr.tag_utils.python_to_tag((o // vlen, pmt.intern(k), value(kind, v), pmt.PMT_F))
        for o, k, kind, v in job["tags"]
    ]
    tb = gr.top_block()
    src = blocks.vector_source_c(samples, False, vlen, tags)
    mul = blocks.multiply_by_tag_value_cc("amp", vlen)
    sink = blocks.vector_sink_c(vlen)
    tb.connect(src, mul, sink)
    tb.run()
    out[str(vlen)] = {
        "items": [[z.real, z.imag] for z in sink.data()],
        "tags": [[t.offset, pmt.symbol_to_string(t.key)] for t in sink.tags()],
    }
sys.stdout.write("\n")
json.dump(out, sys.stdout)
