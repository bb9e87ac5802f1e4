"""A received DVB-S2 signal made by GNU Radio, for the synchroniser's test (radioflow-dvbs2).

Run with Debian's GNU Radio 3.10:  /usr/bin/python3 crates/dvbs2/golden/sync_vector.py OUTDIR

gr-dtv's transmitter (QPSK 1/2, short FECFRAMEs, pilots on, Gold code 0) makes PL symbols
with a zero after each (2 samples/symbol); a root-raised-cosine filter (roll-off 0.20) shapes
them, and GNU Radio's channel model adds noise, a carrier frequency offset (5 % of the symbol
rate) and a sample clock offset (80 ppm). Writes to OUTDIR:
  sync_vector.cf32   the received samples, little-endian complex64, 2 samples/symbol
  sync_symbols.cf32  the transmitted PL symbols (one per symbol), for hard-decision checks
  sync_vector.json   the settings
"""
import json
import os
import sys

import numpy as np
from gnuradio import blocks, channels, dtv, filter, gr
from gnuradio.filter import firdes

OUT = sys.argv[1]
FRAMES = 14
PLFRAME = 90 + 8100 + 5 * 36  # QPSK short with pilots: 8370 symbols
SETTINGS = {
    "modcod": "qpsk-1/2", "frame": "short", "pilots": True, "gold": 0, "roll_off": 0.2,
    "frames": FRAMES, "plframe_len": PLFRAME,
    # channel_model: frequency offset per sample (0.05 cycles/symbol), clock ratio, noise.
    "frequency_offset": 0.025, "epsilon": 1.0 + 80e-6, "noise_voltage": 0.08, "seed": 42,
}


def main():
    s = SETTINGS
    fs, rate, const = dtv.FECFRAME_SHORT, dtv.C1_2, dtv.MOD_QPSK
    npackets = FRAMES * (7032 - 80) // (8 * 188) + 10
    ts = np.tile(np.arange(188, dtype=np.uint8), npackets)
    ts[::188] = 0x47
    src = blocks.vector_source_b(ts.tolist(), False)
    chain = [
        dtv.dvb_bbheader_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.RO_0_20, dtv.INPUTMODE_NORMAL,
                            dtv.INBAND_OFF, 168, 4000000),
        dtv.dvb_bbscrambler_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.MOD_OTHER),
        dtv.dvbs2_interleaver_bb(fs, rate, const),
        dtv.dvbs2_modulator_bc(fs, rate, const, dtv.INTERPOLATION_OFF),
        dtv.dvbs2_physical_cc(fs, rate, const, dtv.PILOTS_ON, s["gold"]),
    ]
    # Gain 2: the zero after each symbol halves the level.
    taps = firdes.root_raised_cosine(2.0, 2.0, 1.0, s["roll_off"], 49)
    shape = filter.fir_filter_ccf(1, taps)
    chan = channels.channel_model(noise_voltage=s["noise_voltage"],
                                  frequency_offset=s["frequency_offset"],
                                  epsilon=s["epsilon"], taps=[1.0 + 0j],
                                  noise_seed=s["seed"], block_tags=False)
    head = blocks.head(gr.sizeof_gr_complex, 2 * FRAMES * PLFRAME)
    rx = blocks.vector_sink_c()
    sym = blocks.vector_sink_c()
    tb = gr.top_block()
    tb.connect(src, *chain)
    tb.connect(chain[-1], head, shape, chan, rx)
    tb.connect(head, sym)
    tb.run()
    samples = np.array(rx.data(), dtype=np.complex64)
    symbols = np.array(sym.data(), dtype=np.complex64)[0::2]
    samples.tofile(os.path.join(OUT, "sync_vector.cf32"))
    symbols.tofile(os.path.join(OUT, "sync_symbols.cf32"))
    with open(os.path.join(OUT, "sync_vector.json"), "w") as f:
        json.dump(dict(s, samples=len(samples), symbols=len(symbols)), f, indent=1)


if __name__ == "__main__":
    main()
