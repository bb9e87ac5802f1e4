"""The objects GRC variables make, from Python: constellations (their points, arity, base),
a header format given to protocol_formatter_bb, and a convolutional coder given to
fec.extended_encoder; each object's methods and the blocks' outputs."""

import os
import sys

import numpy
import pmt
from gnuradio import blocks, digital, fec, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

out = {}
rect = digital.constellation_rect([-1 - 1j, -1 + 1j, 1 - 1j, 1 + 1j], [0, 1, 2, 3], 4, 2, 2, 1, 1)
calc = digital.constellation_calcdist([1, 1j, -1, -1j], [0, 1, 3, 2], 4, 1,
                                      digital.constellation.AMPLITUDE_NORMALIZATION)
constellations = {
    "bpsk": digital.constellation_bpsk(), "qpsk": digital.constellation_qpsk(),
    "dqpsk": digital.constellation_dqpsk(), "8psk": digital.constellation_8psk(),
    "16qam": digital.constellation_16qam(), "rect": rect, "calcdist": calc,
}
rng = numpy.random.RandomState(3)
for name, c in constellations.items():
    out[name] = {"points": list(c.points()), "arity": c.arity(),
                 "bits": c.bits_per_symbol(), "base": list(c.base().points())}
    # Symbols -> points (chunks_to_symbols with the points), noise, -> the decoder's symbols.
    symbols = [int(s) for s in rng.randint(0, c.arity(), 200)]
    noise = [complex(a, b) for a, b in 0.05 * rng.randn(200, 2)]
    tb = gr.top_block()
    src = blocks.vector_source_b(symbols, False)
    to_points = digital.chunks_to_symbols_bc(c.points(), 1)
    add = blocks.add_vcc(1)
    decoder = digital.constellation_decoder_cb(c.base())
    sink = blocks.vector_sink_b()
    tb.connect(src, to_points, (add, 0))
    tb.connect(blocks.vector_source_c(noise, False), (add, 1))
    tb.connect(add, decoder, sink)
    tb.run()
    out[name]["decoded"] = list(sink.data())
    out[name]["symbols_back"] = list(sink.data()) == symbols

# A header format: one 20-byte packet (its length tag) -> its header.
header = digital.header_format_default(digital.packet_utils.default_access_code, 0)
tb = gr.top_block()
tag = gr.tag_t()
tag.offset, tag.key, tag.value = 0, pmt.intern("packet_len"), pmt.from_long(20)
src = blocks.vector_source_b(list(range(20)), False, 1, [tag])
formatter = digital.protocol_formatter_bb(header, "packet_len")
sink = blocks.vector_sink_b()
tb.connect(src, formatter, sink)
tb.run()
out["header"] = list(sink.data())

# A rate 1/2, K=7 convolutional coder (GNU Radio's Voyager polynomials), streaming.
coder = fec.cc_encoder_make(64, 7, 2, [79, -109], 0, fec.CC_STREAMING, False)
bits = [int(b) for b in rng.randint(0, 2, 256)]
tb = gr.top_block()
src = blocks.vector_source_b(bits, False)
encoder = fec.extended_encoder(encoder_obj_list=coder, threading=None, puncpat="11")
sink = blocks.vector_sink_b()
tb.connect(src, encoder, sink)
tb.run()
out["cc"] = list(sink.data())
out["repetition"] = fec.repetition_encoder_make(32, 3) is not None
_results.write(out)
