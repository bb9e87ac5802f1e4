"""Hierarchical blocks as GNU Radio users write them: a hier_block2 with two inputs and one
output holding library blocks and a Python block, nested in another hier block, a message
port passed through, used twice in one top_block (finite sources: GNU Radio's output is then
the whole stream)."""

import os
import sys

import numpy
import pmt
from gnuradio import blocks, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402


class offset_by(gr.sync_block):
    def __init__(self, k):
        gr.sync_block.__init__(self, "offset_by", [numpy.float32], [numpy.float32])
        self.k = k

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] + self.k
        return len(output_items[0])


class mix(gr.hier_block2):
    """out = (a * 3 + b) + 1"""

    def __init__(self):
        gr.hier_block2.__init__(self, "mix", gr.io_signature(2, 2, gr.sizeof_float),
                                gr.io_signature(1, 1, gr.sizeof_float))
        self.scale = blocks.multiply_const_ff(3)
        self.add = blocks.add_vff(1)
        self.off = offset_by(1.0)
        self.connect((self, 0), self.scale, (self.add, 0))
        self.connect((self, 1), (self.add, 1))
        self.connect(self.add, self.off, self)


class outer(gr.hier_block2):
    """mix with a constant, then a copy; a message input passed to an inner message_debug."""

    def __init__(self):
        gr.hier_block2.__init__(self, "outer", gr.io_signature(1, 1, gr.sizeof_float),
                                gr.io_signature(1, 1, gr.sizeof_float))
        self.message_port_register_hier_in("cmd")
        self.src = blocks.vector_source_f([2.0] * 300)
        self.debug = blocks.message_debug()
        self.mix = mix()
        self.copy = blocks.copy(gr.sizeof_float)
        self.connect(self, (self.mix, 0))
        self.connect(self.src, (self.mix, 1))
        self.connect(self.mix, self.copy, self)
        self.msg_connect(self, "cmd", self.debug, "store")


class top(gr.top_block):
    def __init__(self):
        gr.top_block.__init__(self, "hier")
        self.src = blocks.vector_source_f([float(i) for i in range(300)])
        self.a = outer()
        self.b = outer()
        self.sink_a = blocks.vector_sink_f()
        self.sink_b = blocks.vector_sink_f()
        self.connect(self.src, self.a, self.sink_a)
        self.connect(self.src, self.b, self.sink_b)


tb = top()
tb.run()
_results.write({"a": list(tb.sink_a.data()), "b": list(tb.sink_b.data())})
