"""GNU Radio 3.10's FEC chain for each case radioflow's tests/gnuradio.rs sends on stdin.

A case is one line: `encoder|decoder|bits|noise` (the objects as GNU Radio's Python calls,
bits and noise comma-separated). Random bits go through fec.extended_encoder, become -1/+1
floats plus the noise (in float32, as radioflow adds them), and go through
fec.extended_decoder. Prints `enc:<bits>` and `dec:<bits>` per case.
"""
import sys

import numpy as np
from gnuradio import blocks, fec, gr


def run(chain, data, source, sink):
    tb = gr.top_block()
    src = source(data)
    out = sink()
    tb.connect(src, chain, out)
    tb.run()
    return list(out.data())


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    enc_text, dec_text, bits_text, noise_text = line.split("|")
    bits = [int(b) for b in bits_text.split(",")]
    noise = np.array([float(x) for x in noise_text.split(",")], dtype=np.float32)
    encoder = eval(enc_text, {"fec": fec})
    decoder = eval(dec_text, {"fec": fec})
    code = run(fec.extended_encoder(encoder, threading=None, puncpat="11"), bits,
               blocks.vector_source_b, blocks.vector_sink_b)
    soft = np.array(code, dtype=np.float32) * np.float32(2) - np.float32(1)
    soft = soft + noise[: len(soft)]
    decoded = run(fec.extended_decoder(decoder, threading=None, ann=None, puncpat="11"),
                  [float(x) for x in soft], blocks.vector_source_f, blocks.vector_sink_b)
    print("enc:" + "".join(str(b) for b in code))
    print("dec:" + "".join(str(b) for b in decoded))
    sys.stdout.flush()
