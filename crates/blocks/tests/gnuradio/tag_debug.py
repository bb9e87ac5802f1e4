"""GNU Radio 3.10's side of tests/gnuradio_tag_debug.rs: a tag_debug named "dbg" with two
inputs of 16 floats, the first with tags whose values are of every common PMT kind (two with a source id), the second
with none; a second tag_debug "only_k" filtering key "k". Prints GNU Radio's printouts (one
work call each: the streams are short)."""

import pmt
from gnuradio import blocks, gr


def tag(offset, key, value, srcid=pmt.PMT_F):
    return gr.tag_utils.python_to_tag((offset, pmt.intern(key), value, srcid))


tags = [
    tag(0, "k", pmt.from_long(3)),
    tag(2, "d", pmt.from_double(1.5)),
    tag(3, "whole", pmt.from_double(2.0)),
    tag(5, "k", pmt.intern("sym")),
    tag(7, "b", pmt.PMT_T),
    tag(9, "c", pmt.from_complex(1 + 2j)),
    tag(11, "p", pmt.cons(pmt.intern("a"), pmt.from_long(2))),
    tag(12, "nil", pmt.PMT_NIL),
    # A source id is printed where it is a symbol (n/a otherwise).
    tag(13, "k", pmt.from_long(4), pmt.intern("src")),
    tag(14, "s", pmt.from_long(5), pmt.from_long(1)),
    tag(15, "u", pmt.from_uint64(2**40)),
]
tb = gr.top_block()
src = blocks.vector_source_f([0.0] * 16, False, 1, tags)
quiet = blocks.vector_source_f([0.0] * 16, False, 1, [])
dbg = blocks.tag_debug(gr.sizeof_float, "dbg", "")
only = blocks.tag_debug(gr.sizeof_float, "only_k", "k")
tb.connect(src, (dbg, 0))
tb.connect(quiet, (dbg, 1))
tb.connect(src, only)
tb.run()
