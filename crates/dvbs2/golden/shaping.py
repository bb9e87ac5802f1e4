#!/usr/bin/python3
"""Golden data for radioflow-dvbs2's pulse shaping, from GNU Radio 3.10 (the independent oracle).

Run with Debian's GNU Radio:  /usr/bin/python3 crates/dvbs2/golden/shaping.py [OUTDIR]
Writes OUTDIR/shaped.txt: per case (MODCOD, frame, pilots, roll-off, sps), the samples out of
gr-dtv's chain (bbheader .. dvbs2_physical_cc) filtered by interp_fir_filter_ccf with
firdes.root_raised_cosine(sps, sps, 1, alpha, 20*sps + 1): a weighted sum over two PLFRAMEs
and 64 samples at the start and 64 across the boundary between the two frames.

dvbs2_physical_cc writes each symbol followed by a zero sample, which is the symbol stream
zero-stuffed for 2 samples per symbol: at sps 2 the filter runs at interpolation 1 on it (as in
gr-dtv's examples); at other sps keep_m_in_n(1, 2, 0) takes the symbols back and the filter
interpolates by sps.
"""
import os
import sys

import numpy as np
from gnuradio import blocks, dtv, filter, gr
from gnuradio.filter import firdes

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import CONST, FRAMESIZES, RATES, BITS, ts_stream  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE
RO = {"0.35": dtv.RO_0_35, "0.25": dtv.RO_0_25, "0.20": dtv.RO_0_20}
CASES = [("qpsk-8/9", "short", True, "0.20", 2), ("8psk-3/5", "short", False, "0.35", 2),
         ("16apsk-3/4", "short", True, "0.25", 2), ("qpsk-1/2", "short", False, "0.20", 4),
         ("32apsk-5/6", "short", True, "0.35", 3)]
FRAMES = 2
EDGE = 64


def run(modcod, fs_name, pilots, ro, sps):
    const_name, rate_name = modcod.split("-")
    const, rate, fs = CONST[const_name][0], RATES[rate_name], FRAMESIZES[fs_name]
    src = blocks.vector_source_b(ts_stream(FRAMES * 12 + 2).tolist(), False)
    chain = [
        dtv.dvb_bbheader_bb(dtv.STANDARD_DVBS2, fs, rate, RO[ro], dtv.INPUTMODE_NORMAL,
                            dtv.INBAND_OFF, 168, 4000000),
        dtv.dvb_bbscrambler_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.MOD_OTHER),
        dtv.dvbs2_interleaver_bb(fs, rate, const),
        dtv.dvbs2_modulator_bc(fs, rate, const, dtv.INTERPOLATION_OFF),
        dtv.dvbs2_physical_cc(fs, rate, const, dtv.PILOTS_ON if pilots else dtv.PILOTS_OFF, 0),
    ]
    taps = firdes.root_raised_cosine(sps, sps, 1.0, float(ro), 20 * sps + 1)
    if sps == 2:
        chain.append(filter.interp_fir_filter_ccf(1, taps))
    else:
        chain.append(blocks.keep_m_in_n(gr.sizeof_gr_complex, 1, 2, 0))
        chain.append(filter.interp_fir_filter_ccf(sps, taps))
    sink = blocks.vector_sink_c()
    tb = gr.top_block()
    tb.connect(src, *chain, sink)
    tb.run()
    return np.array(sink.data())


def main():
    lines = ["# gr-dtv + interp_fir_filter_ccf(firdes.root_raised_cosine) %s frames=%d edge=%d"
             % (gr.version(), FRAMES, EDGE)]
    for modcod, fs_name, pilots, ro, sps in CASES:
        y = run(modcod, fs_name, pilots, ro, sps)
        nsym = (64800 if fs_name == "normal" else 16200) // BITS[modcod.split("-")[0]]
        plen = 90 + nsym + (((nsym // 90 - 1) // 16) * 36 if pilots else 0)
        n = FRAMES * plen * sps
        assert len(y) >= n, (len(y), n)
        w = (np.arange(n) % 89 + 1).astype(np.float64)
        s = y[:n].astype(np.complex128)
        b = plen * sps
        picks = list(y[:EDGE]) + list(y[b - EDGE // 2: b + EDGE // 2])
        fields = [modcod, fs_name, "on" if pilots else "off", ro, str(sps), str(plen),
                  repr(float(np.sum(w * s.real))), repr(float(np.sum(w * s.imag)))]
        fields += [repr(float(x)) for c in picks for x in (c.real, c.imag)]
        lines.append(" ".join(fields))
        print(modcod, fs_name, pilots, ro, sps, plen, file=sys.stderr)
    with open(os.path.join(OUT, "shaped.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
