"""Message-driven retuning: a Python sync block publishes a message when it has seen 2000
items; a message-only Python block (gr.basic_block) turns it into a 'cmd' dict that retunes
the signal source from 1 kHz to 4 kHz. The results are the tone's frequency at the start and at
the end of the stream (where the source has long been retuned, whenever the message arrived)."""

import os
import sys

import numpy
import pmt
from gnuradio import analog, blocks, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

RATE = 32000


class watch(gr.sync_block):
    def __init__(self, after):
        gr.sync_block.__init__(self, name="watch", in_sig=[numpy.float32], out_sig=[numpy.float32])
        self.message_port_register_out(pmt.intern("trigger"))
        self.after = after
        self.sent = False

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0]
        if not self.sent and self.nitems_read(0) + len(input_items[0]) >= self.after:
            self.message_port_pub(pmt.intern("trigger"), pmt.intern("go"))
            self.sent = True
        return len(output_items[0])


class retuner(gr.basic_block):
    def __init__(self, freq):
        gr.basic_block.__init__(self, name="retuner", in_sig=None, out_sig=None)
        self.freq = freq
        self.message_port_register_in(pmt.intern("trigger"))
        self.message_port_register_out(pmt.intern("cmd"))
        self.set_msg_handler(pmt.intern("trigger"), self.handle)

    def handle(self, msg):
        if pmt.symbol_to_string(msg) == "go":
            cmd = pmt.dict_add(pmt.make_dict(), pmt.intern("freq"), pmt.from_double(self.freq))
            self.message_port_pub(pmt.intern("cmd"), cmd)


class top(gr.top_block):
    def __init__(self):
        gr.top_block.__init__(self, "retune")
        self.src = analog.sig_source_f(RATE, analog.GR_COS_WAVE, 1000, 1, 0, 0)
        self.watch = watch(2000)
        self.retuner = retuner(4000.0)
        self.head = blocks.head(gr.sizeof_float, 400000)
        self.sink = blocks.vector_sink_f()
        self.connect(self.src, self.watch, self.head, self.sink)
        self.msg_connect((self.watch, "trigger"), (self.retuner, "trigger"))
        self.msg_connect((self.retuner, "cmd"), (self.src, "cmd"))


def tone(x):
    spectrum = numpy.abs(numpy.fft.rfft(x))
    return float(numpy.argmax(spectrum) * RATE / len(x))


tb = top()
tb.run()
data = numpy.array(tb.sink.data())
_results.write({"items": len(data), "first": tone(data[:1024]), "last": tone(data[-4000:])})
