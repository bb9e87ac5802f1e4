#!/usr/bin/python3
"""Mono and stereo FM stations in noise, made by GNU Radio (Debian's GNU Radio 3.10), for the
stereo pilot detector's tests (`crates/fm/tests/stereo_pilot.rs`).

    /usr/bin/python3 crates/fm/golden/pilot_vectors.py OUTDIR [SECONDS]

Writes into OUTDIR, complex float32 (cf32) at 480 kHz with the station at the centre:

- `mono_cnrX.cf32`: a mono station, its multiplex 0.9 of full deviation in programme (no pilot);
- `wfm_tx_cnrX.cf32`: a mono station by GNU Radio's own transmitter, `analog.wfm_tx` (75 us
  pre-emphasis, a 1 kHz tone at 0.5 plus the programme noise; its pre-emphasis leaves much
  more than 15 kHz of audio, energy around 19 kHz included);
- `stereo_cnrX.cf32`: a stereo station, ITU-R BS.450: 0.45 (L+R) + 0.45 (L-R) sin 2t + 0.09
  sin t, the pilot sin t at 19 kHz (9 % injection), from two oscillators started together;
- `mono_clean.cf32`: the mono station without noise;
- `vectors.json`: each file's kind and carrier-to-noise ratio.

The programme (GNU Radio blocks only): per channel, Gaussian noise low-passed to 15 kHz
(`analog.noise_source_f`, `filter.fir_filter_fff`) at 0.12 rms plus a tone (left 1 kHz, right
2.5 kHz, mono 1 kHz) at 0.3, pre-emphasized (`analog.fm_preemph`, 50 us). The multiplex is
frequency modulated at ±75 kHz (`analog.frequency_modulator_fc`, amplitude 1) and complex
Gaussian noise (`analog.noise_source_c`, fixed seeds) added at the CNR: carrier power against
the noise power in the 200 kHz channel. CNRs: mono 4, 7, 10, 15, 20, 30 dB; `wfm_tx` 5, 8,
11, 30 dB; stereo 10, 20, 25, 30, 40 dB.
"""

import json
import math
import os
import sys

from gnuradio import analog, blocks, filter, gr
from gnuradio.fft import window
from gnuradio.filter import firdes

OUT = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
RATE = 480000
DEV = 75e3
TAU = 50e-6
MONO_CNRS = [4, 7, 10, 15, 20, 30]
WFM_TX_CNRS = [5, 8, 11, 30]
STEREO_CNRS = [10, 20, 25, 30, 40]


def programme(tb, freq, seed):
    """Noise low-passed to 15 kHz at 0.12 rms plus a `freq` tone at 0.3, pre-emphasized."""
    noise = analog.noise_source_f(analog.GR_GAUSSIAN, 1.0, seed)
    taps = firdes.low_pass(1.0, RATE, 14e3, 2e3, window.WIN_BLACKMAN)
    # The filter keeps 15/240 of white noise's power: back to 0.12 rms.
    lp = filter.fir_filter_fff(1, [t * 0.12 / math.sqrt(sum(x * x for x in taps)) for t in taps])
    tone = analog.sig_source_f(RATE, analog.GR_SIN_WAVE, freq, 0.3)
    add = blocks.add_ff()
    pre = analog.fm_preemph(RATE, TAU)
    tb.connect(noise, lp, (add, 0))
    tb.connect(tone, (add, 1))
    tb.connect(add, pre)
    return pre


def station(kind, cnr_db, seed):
    tb = gr.top_block()
    n = int(RATE * SECONDS)
    mpx = blocks.add_ff()
    if kind == "wfm_tx":
        audio_rate = 48000
        tone = analog.sig_source_f(audio_rate, analog.GR_SIN_WAVE, 1e3, 0.5)
        noise = analog.noise_source_f(analog.GR_GAUSSIAN, 0.1, seed)
        lp = filter.fir_filter_fff(1, firdes.low_pass(1.0, audio_rate, 14e3, 2e3))
        audio = blocks.add_ff()
        tb.connect(tone, (audio, 0))
        tb.connect(noise, lp, (audio, 1))
        tx = analog.wfm_tx(audio_rate, RATE, 75e-6, DEV)
        tb.connect(audio, tx)
        return finish(tb, tx, kind, cnr_db, seed, n)
    if kind == "stereo":
        left, right = programme(tb, 1e3, seed), programme(tb, 2.5e3, seed + 100)
        total, diff = blocks.add_ff(), blocks.sub_ff()
        tb.connect(left, (total, 0))
        tb.connect(right, (total, 1))
        tb.connect(left, (diff, 0))
        tb.connect(right, (diff, 1))
        pilot = analog.sig_source_f(RATE, analog.GR_SIN_WAVE, 19e3, 0.09)
        subcarrier = analog.sig_source_f(RATE, analog.GR_SIN_WAVE, 38e3, 1.0)
        dsb = blocks.multiply_ff()
        tb.connect(diff, (dsb, 0))
        tb.connect(subcarrier, (dsb, 1))
        tb.connect(total, blocks.multiply_const_ff(0.45), (mpx, 0))
        tb.connect(dsb, blocks.multiply_const_ff(0.45), (mpx, 1))
        tb.connect(pilot, (mpx, 2))
    else:
        tb.connect(programme(tb, 1e3, seed), blocks.multiply_const_ff(0.9), (mpx, 0))
        tb.connect(analog.sig_source_f(RATE, analog.GR_CONST_WAVE, 0, 0.0), (mpx, 1))
    fm = analog.frequency_modulator_fc(2 * math.pi * DEV / RATE)
    tb.connect(mpx, fm)
    finish(tb, fm, kind, cnr_db, seed, n)


def finish(tb, fm, kind, cnr_db, seed, n):
    """The FM signal `fm` (amplitude 1) with noise at `cnr_db` (none: clean), to its file."""
    head = blocks.head(gr.sizeof_gr_complex, n)
    sink = blocks.file_sink(gr.sizeof_gr_complex, path(kind, cnr_db))
    if cnr_db is None:
        tb.connect(fm, head, sink)
    else:
        # Carrier power 1 against the noise in 200 kHz of the 480 kHz band.
        sigma = math.sqrt(RATE / 200e3 / 10 ** (cnr_db / 10))
        add = blocks.add_cc()
        tb.connect(fm, (add, 0))
        tb.connect(analog.noise_source_c(analog.GR_GAUSSIAN, sigma, seed + 7), (add, 1))
        tb.connect(add, head, sink)
    tb.run()


def path(kind, cnr_db):
    name = "{}_{}.cf32".format(kind, "clean" if cnr_db is None else "cnr{}".format(cnr_db))
    return os.path.join(OUT, name)


def main():
    os.makedirs(OUT, exist_ok=True)
    vectors = []
    cases = ([("mono", c) for c in MONO_CNRS] + [("wfm_tx", c) for c in WFM_TX_CNRS]
             + [("stereo", c) for c in STEREO_CNRS] + [("mono", None)])
    for seed, (kind, cnr) in enumerate(cases, start=1):
        station(kind, cnr, seed)
        vectors.append({"file": os.path.basename(path(kind, cnr)),
                        "kind": "stereo" if kind == "stereo" else "mono", "cnr_db": cnr})
    meta = {"gnuradio": gr.version(), "rate": RATE, "seconds": SECONDS, "vectors": vectors}
    with open(os.path.join(OUT, "vectors.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
