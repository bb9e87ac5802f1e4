"""GNU Radio 3.10's side of the tagged_stream_mux test in tests/gnuradio_tags.rs: for each
tag_preserve_head_pos in the job (JSON on stdin: {"heads": [...], "a": {"items", "tags"},
"b": {...}}, tags as [offset, key, int]), two byte streams through tagged_stream_mux(1, "len",
head). Writes on stdout {head: {"items": [...], "tags": [[offset, key, value], ...]}}."""

import json
import sys

import pmt
from gnuradio import blocks, gr


def source(s):
    tags = [
        gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
        for o, k, v in s["tags"]
    ]
    return blocks.vector_source_b(s["items"], False, 1, tags)


job = json.load(sys.stdin)
out = {}
for head in job["heads"]:
    tb = gr.top_block()
    mux = blocks.tagged_stream_mux(1, "len", head)
    sink = blocks.vector_sink_b()
    tb.connect(source(job["a"]), (mux, 0))
    tb.connect(source(job["b"]), (mux, 1))
    tb.connect(mux, sink)
    tb.run()
    out[str(head)] = {
        "items": list(sink.data()),
        "tags": [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()],
    }
json.dump(out, sys.stdout)
