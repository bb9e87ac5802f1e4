#!/usr/bin/python3
"""FM broadcast test vectors made by GNU Radio (Debian's GNU Radio 3.10), and what GNU Radio's
own receivers make of them.

    /usr/bin/python3 crates/fm/golden/make_vectors.py OUTDIR [SECONDS]

writes into OUTDIR, at 2.4 Msps with the station off centre:

- `mono.cs16`, `mono_noisy.cu8`: a mono station (`analog.wfm_tx`, 75 us pre-emphasis, 75 kHz
  deviation) carrying a 1 kHz tone at 0.5 of full scale, 400 kHz above centre;
- `stereo.cu8`, `stereo_noisy.cf32`: a stereo station 300 kHz below centre whose multiplex is
  built from GNU Radio blocks (ITU-R BS.450: 0.45 (L+R) + 0.45 (L-R) sin 2t + 0.1 sin t, pilot
  sin t at 19 kHz, L and R pre-emphasized with `analog.fm_preemph`), left a 1 kHz tone and
  right a 2.5 kHz tone, both at 0.5, modulated by `analog.frequency_modulator_fc`;
- the noisy ones with complex Gaussian noise (`analog.noise_source_c`) at a carrier-to-noise
  ratio of 30 dB in the 200 kHz channel;
- `vectors.json`: each vector's format, rate, offset, tones, and the tone SNR (mono) or the
  stereo separation GNU Radio's own receiver gets: `freq_xlating_fir_filter_ccf` (decimating
  by 10, low-pass 100 kHz / 40 kHz transition) then `analog.wfm_rcv` (mono) or
  `analog.wfm_rcv_pll` (stereo), decimating by 5 to 48 kHz. (With the channel decimated
  by 5 only, a 480 kHz multiplex as radioflow's stereo receiver uses, and `wfm_rcv_pll`
  decimating by 10, GNU Radio 3.10.5 separates by only ~2 dB, so it is not reported.)

The multiplex is made at 480 kHz (GNU Radio's `wfm_tx` fails at a quad rate of 2.4 MHz) and
interpolated by 5 with `filter.rational_resampler_ccf` (Blackman low-pass taps passing
±160 kHz, stop band from 320 kHz, where the first image starts).

Note: `wfm_tx`'s own output is far wider than a broadcast channel (its pre-emphasis, with
GNU Radio's default high corner near the quad rate's Nyquist, lifts what its 48 -> 480 kHz
interpolation leaves: the median instantaneous deviation is ~130 kHz for a 1 kHz tone), so the
mono vectors depend on how much of that a receiver's channel filter lets in. The vectors are not committed (1.2 to
4.8 MB each): `crates/fm/tests/gnuradio.rs` runs this script into a temporary directory and
says SKIPPED where GNU Radio is not installed.
"""

import json
import math
import os
import sys

import numpy as np
from gnuradio import analog, blocks, filter, gr
from gnuradio.fft import window
from gnuradio.filter import firdes

OUT = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 0.25
AUDIO_RATE, QUAD_RATE, RATE = 48000, 480000, 2400000
TAU, DEV = 75e-6, 75e3
CNR_DB = 30.0
AMPLITUDE = 0.7  # of the IQ full scale, so cu8 and cs16 do not clip with noise
SKIP = 0.05  # seconds of receiver start-up left out of the measurements


def tone(freq, n, rate, amplitude=0.5):
    return blocks.vector_source_f(
        list((amplitude * np.sin(2 * np.pi * freq * np.arange(n) / rate)).astype(np.float32)))


def to_rf(tb, baseband, offset, noisy, seed):
    """480 kHz complex baseband -> 2.4 Msps at `offset`, scaled, with noise if asked."""
    n = int(RATE * SECONDS)
    # Pass the signal's ±160 kHz, stop from 320 kHz (the first image of +160 kHz is at
    # 480 - 160 kHz).
    interp = filter.rational_resampler_ccf(
        5, 1, firdes.low_pass(5.0, RATE, 240e3, 160e3, window.WIN_BLACKMAN))
    mixer = blocks.multiply_cc()
    lo = analog.sig_source_c(RATE, analog.GR_COS_WAVE, offset, AMPLITUDE)
    head = blocks.head(gr.sizeof_gr_complex, n)
    sink = blocks.vector_sink_c()
    tb.connect(baseband, interp, (mixer, 0))
    tb.connect(lo, (mixer, 1))
    if noisy:
        # Carrier power A^2 against noise power sigma^2 in 200 kHz of the 2.4 MHz band.
        sigma = AMPLITUDE / math.sqrt(10 ** (CNR_DB / 10) * 200e3 / RATE)
        add = blocks.add_cc()
        noise = analog.noise_source_c(analog.GR_GAUSSIAN, sigma, seed)
        tb.connect(mixer, (add, 0))
        tb.connect(noise, (add, 1))
        tb.connect(add, head, sink)
    else:
        tb.connect(mixer, head, sink)
    tb.run()
    return np.array(sink.data(), dtype=np.complex64)


def mono(noisy):
    n = int(AUDIO_RATE * SECONDS) + AUDIO_RATE // 10
    tb = gr.top_block()
    tx = analog.wfm_tx(AUDIO_RATE, QUAD_RATE, TAU, DEV)
    tb.connect(tone(1e3, n, AUDIO_RATE), tx)
    return to_rf(tb, tx, 400e3, noisy, 1)


def stereo(noisy):
    n = int(QUAD_RATE * SECONDS) + QUAD_RATE // 10
    tb = gr.top_block()
    left = analog.fm_preemph(QUAD_RATE, TAU)
    right = analog.fm_preemph(QUAD_RATE, TAU)
    tb.connect(tone(1e3, n, QUAD_RATE), left)
    tb.connect(tone(2.5e3, n, QUAD_RATE), right)
    total, diff = blocks.add_ff(), blocks.sub_ff()
    tb.connect(left, (total, 0))
    tb.connect(right, (total, 1))
    tb.connect(left, (diff, 0))
    tb.connect(right, (diff, 1))
    # Pilot sin(t) and subcarrier sin(2t) from two oscillators started together.
    pilot = analog.sig_source_f(QUAD_RATE, analog.GR_SIN_WAVE, 19e3, 0.1)
    subcarrier = analog.sig_source_f(QUAD_RATE, analog.GR_SIN_WAVE, 38e3, 1.0)
    dsb = blocks.multiply_ff()
    tb.connect(diff, (dsb, 0))
    tb.connect(subcarrier, (dsb, 1))
    mpx = blocks.add_ff()
    tb.connect(total, blocks.multiply_const_ff(0.45), (mpx, 0))
    tb.connect(dsb, blocks.multiply_const_ff(0.45), (mpx, 1))
    tb.connect(pilot, (mpx, 2))
    fm = analog.frequency_modulator_fc(2 * math.pi * DEV / QUAD_RATE)
    tb.connect(mpx, fm)
    return to_rf(tb, fm, -300e3, noisy, 2)


def least_squares(y, rate, freq):
    """Amplitude of the `freq` tone in `y` and the residual's power (tone and DC removed)."""
    t = np.arange(len(y)) / rate
    basis = np.stack([np.cos(2 * np.pi * freq * t), np.sin(2 * np.pi * freq * t),
                      np.ones_like(t)], axis=1)
    coef, *_ = np.linalg.lstsq(basis, y, rcond=None)
    residual = y - basis @ coef
    return math.hypot(coef[0], coef[1]), float(np.mean(residual ** 2))


def tone_snr_db(y, freq):
    y = np.asarray(y[int(SKIP * AUDIO_RATE):], dtype=np.float64)
    amp, res = least_squares(y, AUDIO_RATE, freq)
    return 10 * math.log10(amp ** 2 / 2 / res)


def separation_db(left, right):
    """Worse of the two: tone power in its channel against its power in the other."""
    skip = int(SKIP * AUDIO_RATE)
    left = np.asarray(left[skip:], dtype=np.float64)
    right = np.asarray(right[skip:], dtype=np.float64)
    l_in_l, _ = least_squares(left, AUDIO_RATE, 1e3)
    l_in_r, _ = least_squares(right, AUDIO_RATE, 1e3)
    r_in_r, _ = least_squares(right, AUDIO_RATE, 2.5e3)
    r_in_l, _ = least_squares(left, AUDIO_RATE, 2.5e3)
    return min(20 * math.log10(l_in_l / l_in_r), 20 * math.log10(r_in_r / r_in_l))


def gnuradio_receiver(iq, offset, stereo_pll):
    """GNU Radio's receiver: the channel decimated by 10 to 240 kHz, then by 5 to 48 kHz."""
    tb = gr.top_block()
    channel = filter.freq_xlating_fir_filter_ccf(
        10, firdes.low_pass(1.0, RATE, 100e3, 40e3), offset, RATE)
    tb.connect(blocks.vector_source_c(list(iq)), channel)
    if stereo_pll:
        rx = analog.wfm_rcv_pll(RATE / 10, 5, TAU)
        left, right = blocks.vector_sink_f(), blocks.vector_sink_f()
        tb.connect(channel, rx)
        tb.connect((rx, 0), left)
        tb.connect((rx, 1), right)
        tb.run()
        return separation_db(left.data(), right.data())
    audio = blocks.vector_sink_f()
    tb.connect(channel, analog.wfm_rcv(RATE / 10, 5), audio)
    tb.run()
    return tone_snr_db(audio.data(), 1e3)


def write(iq, name, fmt):
    path = os.path.join(OUT, name)
    if fmt == "cf32":
        iq.astype("<c8").tofile(path)
    else:
        parts = np.empty(2 * len(iq), dtype=np.float32)
        parts[0::2], parts[1::2] = iq.real, iq.imag
        if fmt == "cs16":
            np.clip(np.round(parts * 32768), -32768, 32767).astype("<i2").tofile(path)
        elif fmt == "cs8":
            np.clip(np.round(parts * 128), -128, 127).astype("i1").tofile(path)
        else:  # cu8, as rtl_sdr: (v - 127.5) / 127.5
            np.clip(np.round(parts * 127.5 + 127.5), 0, 255).astype("u1").tofile(path)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


def main():
    os.makedirs(OUT, exist_ok=True)
    vectors = []
    for name, fmt, make, noisy, offset, kind in [
        ("mono.cs16", "cs16", mono, False, 400e3, "mono"),
        ("mono_noisy.cu8", "cu8", mono, True, 400e3, "mono"),
        ("stereo.cu8", "cu8", stereo, False, -300e3, "stereo"),
        ("stereo_noisy.cf32", "cf32", stereo, True, -300e3, "stereo"),
    ]:
        iq = make(noisy)
        write(iq, name, fmt)
        entry = {"file": name, "format": fmt, "rate": RATE, "offset": offset, "kind": kind,
                 "samples": len(iq), "cnr_db": CNR_DB if noisy else None, "tau": TAU}
        if kind == "mono":
            entry["tone_hz"] = 1e3
            entry["gnuradio_wfm_rcv_snr_db"] = round(gnuradio_receiver(iq, offset, False), 2)
        else:
            entry["left_hz"], entry["right_hz"] = 1e3, 2.5e3
            entry["gnuradio_wfm_rcv_pll_separation_db"] = round(
                gnuradio_receiver(iq, offset, True), 2)
        vectors.append(entry)
    meta = {"gnuradio": gr.version(), "seconds": SECONDS, "skip_seconds": SKIP,
            "vectors": vectors}
    with open(os.path.join(OUT, "vectors.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
        fh.write("\n")
    print(json.dumps(meta, indent=1))


if __name__ == "__main__":
    main()
