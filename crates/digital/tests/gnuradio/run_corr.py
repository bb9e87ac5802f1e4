"""Runs GNU Radio's modulate_vector_bc, corr_est_cc and gmsk_mod on the same input as radioflow's
tests (crates/digital/tests/gnuradio_corr.rs), in one process.

Reads a JSON job on stdin: {"out": folder, "modulate": [{"name", "constellation" (a
digital.* constructor), "sps", "excess_bw", "data": [bytes], "taps": [floats]}], "cases":
[{"name", "input": path of raw complex64 items, "symbols": path of raw complex64 items,
"sps", "mark_delay", "threshold", "method": "absolute" or "dynamic", "corr": bool, "window":
the largest work call, "tags": [[offset, key, double]]}]}. Writes NAME.bin (modulate), and
NAME.out.bin, NAME.corr.bin, NAME.tags.json ({"out": [[offset, key, value]], "corr": ...},
values as doubles or null). "gmsk": [{"name", "sps", "bt", "do_unpack", "data": [bytes]}]
writes NAME.bin, gmsk_mod's output. "mm": [{"name", "type": "f" or "c", "input": path of raw
float32 or complex64 items, "omega", "gain_omega", "mu", "gain_mu", "limit"}] writes
NAME.bin, clock_recovery_mm_ff's or _cc's output. Run with Debian's /usr/bin/python3 (GNU Radio 3.10).
"""

import json
import os
import sys

import numpy
import pmt
from gnuradio import blocks, digital, gr


def tags_of(sink):
    out = []
    for t in sink.tags():
        v = pmt.to_double(t.value) if pmt.is_real(t.value) else None
        out.append([t.offset, pmt.symbol_to_string(t.key), v])
    return out


def main():
    job = json.load(sys.stdin)
    for m in job["modulate"]:
        mod = digital.generic_mod(
            eval(m["constellation"]), False, m["sps"], True, m["excess_bw"], False, False
        )  # noqa: S307  (the test's own strings)
        y = digital.modulate_vector_bc(mod.to_basic_block(), m["data"], m["taps"])
        numpy.array(y, dtype=numpy.complex64).tofile(os.path.join(job["out"], m["name"] + ".bin"))
    for g in job["gmsk"]:
        tb = gr.top_block()
        src = blocks.vector_source_b(g["data"])
        mod = digital.gmsk_mod(g["sps"], g["bt"], False, False, g["do_unpack"])
        snk = blocks.vector_sink_c()
        tb.connect(src, mod, snk)
        tb.run()
        numpy.array(snk.data(), dtype=numpy.complex64).tofile(os.path.join(job["out"], g["name"] + ".bin"))
    for m in job["mm"]:
        complex_ = m["type"] == "c"
        dtype = numpy.complex64 if complex_ else numpy.float32
        tb = gr.top_block()
        source = blocks.vector_source_c if complex_ else blocks.vector_source_f
        src = source(numpy.fromfile(m["input"], dtype=dtype).tolist())
        make = digital.clock_recovery_mm_cc if complex_ else digital.clock_recovery_mm_ff
        mm = make(m["omega"], m["gain_omega"], m["mu"], m["gain_mu"], m["limit"])
        snk = blocks.vector_sink_c() if complex_ else blocks.vector_sink_f()
        tb.connect(src, mm, snk)
        tb.run()
        numpy.array(snk.data(), dtype=dtype).tofile(os.path.join(job["out"], m["name"] + ".bin"))
    for case in job["cases"]:
        data = numpy.fromfile(case["input"], dtype=numpy.complex64)
        symbols = numpy.fromfile(case["symbols"], dtype=numpy.complex64)
        tags = []
        for offset, key, value in case["tags"]:
            tag = gr.tag_t()
            tag.offset = offset
            tag.key = pmt.intern(key)
            tag.value = pmt.from_double(value)
            tags.append(tag)
        method = {"absolute": digital.THRESHOLD_ABSOLUTE, "dynamic": digital.THRESHOLD_DYNAMIC}
        tb = gr.top_block()
        src = blocks.vector_source_c(data.tolist(), False, 1, tags)
        block = digital.corr_est_cc(
            symbols.tolist(),
            case["sps"],
            case["mark_delay"],
            case["threshold"],
            method[case["method"]],
        )
        # One FFT block per work call: the dynamic threshold's mean is then over the same
        # samples as radioflow's.
        block.set_max_noutput_items(case["window"])
        out = blocks.vector_sink_c()
        tb.connect(src, block)
        tb.connect((block, 0), out)
        corr = None
        if case["corr"]:
            corr = blocks.vector_sink_c()
            tb.connect((block, 1), corr)
        tb.run()
        name = os.path.join(job["out"], case["name"])
        numpy.array(out.data(), dtype=numpy.complex64).tofile(name + ".out.bin")
        if corr is not None:
            numpy.array(corr.data(), dtype=numpy.complex64).tofile(name + ".corr.bin")
        with open(name + ".tags.json", "w") as f:
            json.dump({"out": tags_of(out), "corr": tags_of(corr) if corr else []}, f)


main()
