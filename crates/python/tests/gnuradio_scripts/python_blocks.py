"""Python blocks as GNU Radio users write them: sync, decim and interp blocks, the tag API
(add_item_tag, get_tags_in_window, get_tags_in_range, nitems_read/written), tag_t."""

import os
import sys

import numpy
import pmt
from gnuradio import blocks, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402


class scale_and_mark(gr.sync_block):
    """Multiplies by k; tags every 100th output item 'mark' with its offset; copies the
    value of 'gain' tags it reads into a tag 'seen' on the same item."""

    def __init__(self, k=2.0):
        gr.sync_block.__init__(self, name="scale_and_mark", in_sig=[numpy.float32],
                               out_sig=[numpy.float32])
        self.k = k

    def work(self, input_items, output_items):
        n = len(output_items[0])
        output_items[0][:] = input_items[0] * self.k
        start = self.nitems_written(0)
        for i in range(n):
            if (start + i) % 100 == 0:
                self.add_item_tag(0, start + i, pmt.intern("mark"), pmt.from_long(start + i))
        for t in self.get_tags_in_window(0, 0, n):
            if pmt.symbol_to_string(t.key) == "gain":
                tag = gr.tag_t()
                tag.offset = t.offset
                tag.key = pmt.intern("seen")
                tag.value = pmt.from_double(pmt.to_double(t.value) * 10)
                self.add_item_tag(0, tag)
        assert self.nitems_read(0) == start
        in_range = self.get_tags_in_range(0, start, start + n, pmt.intern("gain"))
        assert all(pmt.symbol_to_string(t.key) == "gain" for t in in_range)
        return n


class mean4(gr.decim_block):
    def __init__(self):
        gr.decim_block.__init__(self, "mean4", [numpy.float32], [numpy.float32], 4)

    def work(self, input_items, output_items):
        out = output_items[0]
        out[:] = input_items[0][: 4 * len(out)].reshape(len(out), 4).mean(axis=1)
        return len(out)


class repeat3(gr.interp_block):
    def __init__(self):
        gr.interp_block.__init__(self, name="repeat3", in_sig=[numpy.float32],
                                 out_sig=[numpy.float32], interp=3)

    def work(self, input_items, output_items):
        out = output_items[0]
        out[:] = numpy.repeat(input_items[0][: len(out) // 3], 3)
        return len(out)


class top(gr.top_block):
    def __init__(self):
        gr.top_block.__init__(self, "python blocks", catch_exceptions=True)
        data = [float(i % 37) for i in range(1000)]
        src_tags = [gr.python_to_tag({"offset": o, "key": pmt.intern("gain"),
                                      "value": pmt.from_double(o / 10.0),
                                      "srcid": pmt.intern("src")}) for o in (3, 250, 999)]
        self.src = blocks.vector_source_f(data, False, 1, src_tags)
        self.scale = scale_and_mark(2.0)
        self.mean = mean4()
        self.rep = repeat3()
        self.sink_scaled = blocks.vector_sink_f()
        self.sink_out = blocks.vector_sink_f()
        self.connect(self.src, self.scale, self.sink_scaled)
        self.connect((self.scale, 0), (self.mean, 0))
        self.connect(self.mean, self.rep, self.sink_out)


tb = top()
tb.run()
_results.write({
    "scaled": list(tb.sink_scaled.data()),
    "scaled_tags": sorted(_results.tags(tb.sink_scaled)),
    "out": list(tb.sink_out.data()),
    "out_tags": sorted(_results.tags(tb.sink_out)),
})
