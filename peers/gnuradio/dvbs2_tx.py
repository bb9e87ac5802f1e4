#!/usr/bin/python3
"""GNU Radio 3.10 peer of `radioflow bench dvbs2-tx`: gr-dtv's DVB-S2 transmitter on a TS file.

    /usr/bin/python3 peers/gnuradio/dvbs2_tx.py --input FILE.ts --modcod qpsk-8/9 \
        --frame short --pilots on --rolloff 0.2 [--taps 41]

file_source -> dvb_bbheader_bb -> dvb_bbscrambler_bb -> dvb_bch_bb -> dvb_ldpc_bb ->
dvbs2_interleaver_bb -> dvbs2_modulator_bc -> dvbs2_physical_cc -> interp_fir_filter_ccf(1, RRC)
-> null_sink. dvbs2_physical_cc writes each symbol followed by a zero (the symbols
zero-stuffed to 2 samples per symbol), so the RRC filter at interpolation 1 gives the 2-sps
shaped signal, as in gr-dtv's own examples. The taps are
firdes.root_raised_cosine(2, 2, 1, rolloff, taps), radioflow's. Every block is gr-dtv's or GNU
Radio's C++ block; Python only builds the graph. Only tb.run() is timed.

Prints one JSON line: seconds, cpu_seconds (of every thread, during tb.run()), input_bytes (the TS bytes the BBFRAMEs carried: whole frames
only, gr-dtv does not pad the last one), samples (at the sink), frames.
"""
import argparse
import json
import os
import time

from gnuradio import blocks, dtv, filter, gr
from gnuradio.filter import firdes

RATES = {
    "1/4": dtv.C1_4, "1/3": dtv.C1_3, "2/5": dtv.C2_5, "1/2": dtv.C1_2, "3/5": dtv.C3_5,
    "2/3": dtv.C2_3, "3/4": dtv.C3_4, "4/5": dtv.C4_5, "5/6": dtv.C5_6, "8/9": dtv.C8_9,
    "9/10": dtv.C9_10,
}
CONST = {"qpsk": (dtv.MOD_QPSK, 2), "8psk": (dtv.MOD_8PSK, 3), "16apsk": (dtv.MOD_16APSK, 4),
         "32apsk": (dtv.MOD_32APSK, 5)}
FRAMES = {"normal": (dtv.FECFRAME_NORMAL, 64800), "short": (dtv.FECFRAME_SHORT, 16200)}
RO = {"0.35": dtv.RO_0_35, "0.25": dtv.RO_0_25, "0.2": dtv.RO_0_20, "0.20": dtv.RO_0_20}
# Kbch, ETSI EN 302 307-1 Tables 5a and 5b.
KBCH = {
    "normal": {"1/4": 16008, "1/3": 21408, "2/5": 25728, "1/2": 32208, "3/5": 38688,
               "2/3": 43040, "3/4": 48408, "4/5": 51648, "5/6": 53840, "8/9": 57472,
               "9/10": 58192},
    "short": {"1/4": 3072, "1/3": 5232, "2/5": 6312, "1/2": 7032, "3/5": 9552, "2/3": 10632,
              "3/4": 11712, "4/5": 12432, "5/6": 13152, "8/9": 14232},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", required=True)
    ap.add_argument("--modcod", default="qpsk-8/9")
    ap.add_argument("--frame", default="short", choices=list(FRAMES))
    ap.add_argument("--pilots", default="on", choices=["on", "off"])
    ap.add_argument("--rolloff", default="0.2", choices=list(RO))
    ap.add_argument("--taps", type=int, default=41)
    a = ap.parse_args()
    cname, rname = a.modcod.lower().split("-")
    const, bits = CONST[cname]
    rate = RATES[rname]
    fs, nldpc = FRAMES[a.frame]
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_char, a.input, False)
    chain = [
        dtv.dvb_bbheader_bb(dtv.STANDARD_DVBS2, fs, rate, RO[a.rolloff], dtv.INPUTMODE_NORMAL,
                            dtv.INBAND_OFF, 168, 4000000),
        dtv.dvb_bbscrambler_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.MOD_OTHER),
        dtv.dvbs2_interleaver_bb(fs, rate, const),
        dtv.dvbs2_modulator_bc(fs, rate, const, dtv.INTERPOLATION_OFF),
        dtv.dvbs2_physical_cc(fs, rate, const,
                              dtv.PILOTS_ON if a.pilots == "on" else dtv.PILOTS_OFF, 0),
        filter.interp_fir_filter_ccf(1, firdes.root_raised_cosine(2, 2, 1, float(a.rolloff),
                                                                   a.taps)),
    ]
    sink = blocks.null_sink(gr.sizeof_gr_complex)
    tb.connect(src, *chain, sink)
    t0, c0 = time.perf_counter(), time.process_time()
    tb.run()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    samples = sink.nitems_read(0)
    nsym = nldpc // bits
    slots = nsym // 90
    plen = 90 + nsym + ((slots - 1) // 16 * 36 if a.pilots == "on" else 0)
    frames = samples // (2 * plen)
    data_bytes = (KBCH[a.frame][rname] - 80) // 8
    print(json.dumps({"peer": "gnuradio", "seconds": seconds, "cpu_seconds": cpu, "frames": frames,
                      "input_bytes": frames * data_bytes, "samples": samples,
                      "file_bytes": os.path.getsize(a.input)}))


if __name__ == "__main__":
    main()
