#!/usr/bin/python3
"""GNU Radio's side of `radioflow bench fm`: the mono FM receiver of GNU Radio's examples on a
recording read from a file, timed as the other peers time `top_block::run()`.

    /usr/bin/python3 peers/gnuradio/fm_bench.py --input REC.cf32 --samples N [--offset 400e3]

file_source (repeating) -> head(N) -> freq_xlating_fir_filter_ccf(10, firdes.low_pass(1,
2.4e6, 100e3, 40e3), offset, 2.4e6) -> analog.wfm_rcv(240e3, 5) -> null_sink. Python only
builds the graph; GNU Radio's C++ runtime (thread per block) runs it. Prints one JSON line in
the format of `gr_bench` (experiment, runtime, scheduler, params, seconds, verified, config).
Verified: the sink read ceil(N / 50) audio samples.
"""

import argparse
import json
import time

from gnuradio import analog, blocks, filter, gr
from gnuradio.filter import firdes

RATE = 2.4e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", required=True)
    ap.add_argument("--samples", type=float, required=True)
    ap.add_argument("--offset", type=float, default=400e3)
    a = ap.parse_args()
    n = int(a.samples)
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_gr_complex, a.input, True)
    head = blocks.head(gr.sizeof_gr_complex, n)
    channel = filter.freq_xlating_fir_filter_ccf(
        10, firdes.low_pass(1.0, RATE, 100e3, 40e3), a.offset, RATE)
    rx = analog.wfm_rcv(RATE / 10, 5)
    sink = blocks.null_sink(gr.sizeof_float)
    tb.connect(src, head, channel, rx, sink)
    t0 = time.perf_counter()
    tb.run()
    seconds = time.perf_counter() - t0
    got, want = sink.nitems_read(0), -(-n // 50)
    print(json.dumps({
        "experiment": "fm", "runtime": "gnuradio", "scheduler": "tpb",
        "params": {"samples": n, "rate": RATE, "offset": a.offset},
        "seconds": seconds, "verified": got == want,
        "config": f"{got} audio samples of {want}",
    }))


if __name__ == "__main__":
    main()
