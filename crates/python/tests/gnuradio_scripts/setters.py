"""Block setters called while the flowgraph runs, the way a GRC-generated script's
``set_<variable>`` callbacks call them: a Python block, after 20000 items, calls the top
block's ``set_freq`` and ``set_gain`` (sig_source's ``set_frequency``, multiply_const's
``set_k``) and ``set_offset`` of a constant source added to the tone. The results are the
tone's frequency, level (RMS) and mean at the start and at the end (long after the change,
whenever it took effect)."""

import os
import sys

import numpy
from gnuradio import analog, blocks, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

RATE = 32000


class trigger(gr.sync_block):
    def __init__(self, after, action):
        gr.sync_block.__init__(self, name="trigger", in_sig=[numpy.float32],
                               out_sig=[numpy.float32])
        self.after, self.action, self.done = after, action, False

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0]
        if not self.done and self.nitems_read(0) + len(input_items[0]) >= self.after:
            self.action()
            self.done = True
        return len(output_items[0])


class top(gr.top_block):
    def __init__(self):
        gr.top_block.__init__(self, "setters")
        self.freq = 1000
        self.gain = 1.0
        self.src = analog.sig_source_f(RATE, analog.GR_COS_WAVE, self.freq, 1, 0, 0)
        self.mul = blocks.multiply_const_ff(self.gain, 1)
        self.dc = analog.sig_source_f(RATE, analog.GR_CONST_WAVE, 0, 1, 0, 0)
        self.add = blocks.add_vff(1)
        self.trigger = trigger(20000, self.change)
        # Long enough that the last items come after the change however far the sources
        # ran ahead of the trigger (at most the buffers between them, under 800000 items).
        self.head = blocks.head(gr.sizeof_float, 1200000)
        self.sink = blocks.vector_sink_f()
        self.connect(self.src, self.mul, (self.add, 0))
        self.connect(self.dc, (self.add, 1))
        self.connect(self.add, self.trigger, self.head, self.sink)

    # As grcc writes a variable's callback.
    def set_freq(self, freq):
        self.freq = freq
        self.src.set_frequency(self.freq)

    def set_gain(self, gain):
        self.gain = gain
        self.mul.set_k(self.gain)

    def change(self):
        self.set_freq(4000)
        self.set_gain(0.5)
        self.dc.set_offset(2.0)


def tone(x):
    spectrum = numpy.abs(numpy.fft.rfft(x))
    return float(numpy.argmax(spectrum) * RATE / len(x))


tb = top()
tb.run()
data = numpy.array(tb.sink.data())
first, last = data[:1024], data[-4000:]
_results.write({
    "items": len(data), "first": tone(first - first.mean()), "last": tone(last - last.mean()),
    "first_rms": round(float(first.std()), 4), "last_rms": round(float(last.std()), 4),
    "first_mean": round(float(first.mean()), 4), "last_mean": round(float(last.mean()), 4),
    "freq": tb.freq,
})
