"""gr.basic_block with general_work, as GNU Radio users write them: a filter that keeps the
items above a threshold (consume_each, returns what it kept: tags keep their item numbers),
a block that sums pairs (forecast asks two inputs per output; relative rate 1/2 moves its tags),
a splitter with two outputs that produce() different counts (WORK_CALLED_PRODUCE), and the
filter again with TPP_DONT (no tags through)."""

import os
import sys

import numpy
import pmt
from gnuradio import blocks, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402


class keep_above(gr.basic_block):
    def __init__(self, threshold):
        gr.basic_block.__init__(self, name="keep_above", in_sig=[numpy.float32],
                                out_sig=[numpy.float32])
        self.threshold = threshold

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]), len(output_items[0]))
        kept = input_items[0][:n][input_items[0][:n] > self.threshold]
        output_items[0][:len(kept)] = kept
        self.consume_each(n)
        return len(kept)


class pair_sum(gr.basic_block):
    def __init__(self):
        gr.basic_block.__init__(self, name="pair_sum", in_sig=[numpy.float32],
                                out_sig=[numpy.float32])
        self.set_relative_rate(1, 2)

    def forecast(self, noutput_items, ninputs):
        return [2 * noutput_items] * ninputs

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]) // 2, len(output_items[0]))
        x = input_items[0][:2 * n]
        output_items[0][:n] = x[0::2] + x[1::2]
        self.consume(0, 2 * n)
        return n


class split_sign(gr.basic_block):
    def __init__(self):
        gr.basic_block.__init__(self, name="split_sign", in_sig=[numpy.float32],
                                out_sig=[numpy.float32, numpy.float32])

    def general_work(self, input_items, output_items):
        x = input_items[0]
        room = min(len(output_items[0]), len(output_items[1]))
        n = min(len(x), room)
        pos, neg = x[:n][x[:n] >= 0], x[:n][x[:n] < 0]
        output_items[0][:len(pos)] = pos
        output_items[1][:len(neg)] = neg
        self.produce(0, len(pos))
        self.produce(1, len(neg))
        self.consume(0, n)
        return gr.WORK_CALLED_PRODUCE


rng = numpy.random.RandomState(11)
data = [float(x) for x in rng.randn(20000).astype(numpy.float32)]
tags = []
for offset in range(0, 20000, 997):
    t = gr.tag_t()
    t.offset, t.key, t.value = offset, pmt.intern("mark"), pmt.from_long(offset)
    tags.append(t)

tb = gr.top_block()
src = blocks.vector_source_f(data, False, 1, tags)
keep, pairs, split = keep_above(0.5), pair_sum(), split_sign()
quiet = keep_above(0.5)
quiet.set_tag_propagation_policy(gr.TPP_DONT)
kept, summed, quiet_sink = blocks.vector_sink_f(), blocks.vector_sink_f(), blocks.vector_sink_f()
pos, neg = blocks.vector_sink_f(), blocks.vector_sink_f()
tb.connect(src, keep, kept)
tb.connect(src, pairs, summed)
tb.connect(src, quiet, quiet_sink)
tb.connect(src, split)
tb.connect((split, 0), pos)
tb.connect((split, 1), neg)
tb.run()
_results.write({
    "kept": list(kept.data()), "kept_tags": sorted(_results.tags(kept)),
    "summed": list(summed.data()), "summed_tags": sorted(_results.tags(summed)),
    "pos": len(pos.data()), "neg": list(neg.data()), "quiet": len(quiet_sink.data()),
    "quiet_tags": _results.tags(quiet_sink), "rate": [pairs.relative_rate(),
                                                      int(quiet.tag_propagation_policy())],
})
