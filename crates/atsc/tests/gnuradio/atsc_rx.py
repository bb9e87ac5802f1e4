"""Runs gr-dtv's ATSC receiver blocks after the deinterleaver's input, cut after each block,
on the same input as radioflow's tests, in one process.

Reads a JSON job on stdin: {"out": folder, "tags": [[offset, key, int value], ...] on the
codewords, "plinfo_tags": the same on the pipeline information}. Reads codewords.bin (vectors
of 207 bytes) and plinfo.bin (pairs of int16) from the folder; for k = 1 to 4 runs the first k
of atsc_deinterleaver, atsc_rs_decoder, atsc_derandomizer, atsc_depad and writes stage{k}.bin
(the last block's first output), stage{k}.tags.json (its tags: [offset, key, value]) and,
where it has one, stage{k}.plinfo.bin and stage{k}.plinfo.tags.json. Run with Debian's
/usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy as np
import pmt
from gnuradio import blocks, dtv, gr

# (constructor, output vector length, has a plinfo output)
CHAIN = [(dtv.atsc_deinterleaver, 207, True), (dtv.atsc_rs_decoder, 188, True),
         (dtv.atsc_derandomizer, 188, False), (dtv.atsc_depad, 1, False)]


def tags(spec):
    return [gr.tag_utils.python_to_tag((o, pmt.intern(k), pmt.from_long(v), pmt.PMT_F))
            for o, k, v in spec]


def save_tags(sink, path):
    out = [[t.offset, pmt.symbol_to_string(t.key), pmt.to_python(t.value)] for t in sink.tags()]
    with open(path, "w") as f:
        json.dump(out, f)


def main():
    job = json.load(sys.stdin)
    out = job["out"]
    data = np.fromfile(os.path.join(out, "codewords.bin"), dtype=np.uint8)
    plinfo = np.fromfile(os.path.join(out, "plinfo.bin"), dtype=np.int16)
    for k in range(1, len(CHAIN) + 1):
        tb = gr.top_block()
        src = blocks.vector_source_b(data.tolist(), False, 207, tags(job["tags"]))
        psrc = blocks.vector_source_s(plinfo.tolist(), False, 2, tags(job["plinfo_tags"]))
        last, plast = (src, 0), (psrc, 0)
        for make, _, _ in CHAIN[:k]:
            b = make()
            tb.connect(last, (b, 0))
            if make is not dtv.atsc_depad:
                tb.connect(plast, (b, 1))
            last, plast = (b, 0), (b, 1)
        _, vlen, has_plinfo = CHAIN[k - 1]
        sink = blocks.vector_sink_b(vlen)
        tb.connect(last, sink)
        psink = None
        if has_plinfo:
            psink = blocks.vector_sink_s(2)
            tb.connect(plast, psink)
        tb.run()
        np.array(sink.data(), dtype=np.uint8).tofile(os.path.join(out, f"stage{k}.bin"))
        save_tags(sink, os.path.join(out, f"stage{k}.tags.json"))
        if psink is not None:
            np.array(psink.data(), dtype=np.int16).tofile(
                os.path.join(out, f"stage{k}.plinfo.bin"))
            save_tags(psink, os.path.join(out, f"stage{k}.plinfo.tags.json"))


main()
