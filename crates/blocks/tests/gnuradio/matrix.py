"""GNU Radio 3.10's side of tests/gnuradio_matrix.rs: multiply_matrix_ff/_cc and
matrix_interleaver on the test's inputs, in one process.

Reads a JSON job on stdin: {"multiply": [{"name", "type" ("ff" or "cc"), "a" (rows; a complex
element as [re, im]), "tpp" (0-3), "n" (items per input)}], "interleave": [{"name", "rows",
"cols", "deint", "vlen", "n" (scalars)}]}. Input j of a multiply case is items i + 10 j (times
1 + 1j for "cc") with a tag "t<j>" on item j + 1; the interleaver's input is 0, 1, ... with
tags "t" on scalars' items 1, 4, 8 and 11. Writes on stdout {name: {"out": [[item, ...] per
output (complex as [re, im])], "tags": [[[offset, key, value], ...] per output]}}. Run with
Debian's /usr/bin/python3.
"""

import json
import sys

import pmt
from gnuradio import blocks, gr


def tags_of(sink):
    return [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()]


def tag(offset, key, value):
    return gr.tag_utils.python_to_tag((offset, pmt.intern(key), pmt.from_long(value), pmt.PMT_F))


def main():
    job = json.load(sys.stdin)
    out = {}
    for case in job["multiply"]:
        cc = case["type"] == "cc"
        a = [[complex(*x) if cc else x for x in row] for row in case["a"]]
        tb = gr.top_block()
        tpp = gr.tag_propagation_policy_t(case["tpp"])
        block = getattr(blocks, "multiply_matrix_" + case["type"])(a, tpp)
        ncols, nrows = len(a[0]), len(a)
        for j in range(ncols):
            items = [float(i + 10 * j) * ((1 + 1j) if cc else 1) for i in range(case["n"])]
            src = (blocks.vector_source_c if cc else blocks.vector_source_f)(
                items, False, 1, [tag(j + 1, "t%d" % j, j)])
            tb.connect(src, (block, j))
        sinks = []
        for i in range(nrows):
            sink = blocks.vector_sink_c() if cc else blocks.vector_sink_f()
            tb.connect((block, i), sink)
            sinks.append(sink)
        tb.run()
        out[case["name"]] = {
            "out": [[[x.real, x.imag] if cc else x for x in s.data()] for s in sinks],
            "tags": [tags_of(s) for s in sinks],
        }
    for case in job["interleave"]:
        # GNU Radio's matrix_interleaver is a hier block (deinterleave, then interleave) whose
        # tags its scheduler has once been seen to drop, all of them, on a loaded machine (CI,
        # 2026-11-29; twelve runs on an idle one all kept them): a run without a tag is run
        # again, up to three times, for the tags GNU Radio's blocks propagate.
        for _attempt in range(3):
            tb = gr.top_block()
            tags = [tag(o, "t", o) for o in (1, 4, 8, 11)]
            src = blocks.vector_source_i(list(range(case["n"])), False, case["vlen"], tags)
            block = blocks.matrix_interleaver(
                4 * case["vlen"], rows=case["rows"], cols=case["cols"], deint=case["deint"])
            sink = blocks.vector_sink_i(case["vlen"])
            tb.connect(src, block, sink)
            tb.run()
            if sink.tags():
                break
        out[case["name"]] = {"out": [list(sink.data())], "tags": [tags_of(sink)]}
    json.dump(out, sys.stdout)


main()
