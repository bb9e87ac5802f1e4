#!/usr/bin/python3
"""Golden data for radioflow-dsp from GNU Radio itself (Debian's GNU Radio 3.10).

Run from the repository root with Debian's Python (the one GNU Radio is installed for):

    /usr/bin/python3 crates/dsp/golden/firdes.py

It writes `crates/dsp/golden/firdes.json` (filter taps from `filter.firdes`),
`crates/dsp/golden/blocks.json` (deterministic inputs and what GNU Radio blocks make of them)
and `crates/dsp/golden/wfm_mono.cf32` with `wfm_mono.json` (a 1 kHz tone through GNU Radio's
`analog.wfm_tx`, 100 kHz off centre at 480 kHz, and the tone SNR GNU Radio's own `wfm_rcv`
chain gets from it).
The unit tests read the committed files. `tests/golden_regenerate.rs` runs this script into
a temporary directory (the first argument, if given, replaces this script's directory) and
checks the committed files are what the installed GNU Radio makes; it says it is skipped where
GNU Radio is not installed.
"""

import json
import math
import os
import sys

import numpy as np
from gnuradio import analog, blocks, fft, filter, gr
from gnuradio.fft import logpwrfft
from gnuradio.filter import firdes

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
W = fft.window

WINDOWS = {
    "hamming": (W.WIN_HAMMING, 0.0),
    "hann": (W.WIN_HANN, 0.0),
    "blackman": (W.WIN_BLACKMAN, 0.0),
    "rectangular": (W.WIN_RECTANGULAR, 0.0),
    "kaiser5": (W.WIN_KAISER, 5.0),
    "kaiser8.6": (W.WIN_KAISER, 8.6),
}


def taps_cases():
    cases = []
    for wname, (win, beta) in WINDOWS.items():
        for fs, f1, f2, tw, gain in [
            (48e3, 5e3, 9e3, 2e3, 1.0),
            (2.4e6, 100e3, 300e3, 50e3, 2.5),
            (1.0, 0.1, 0.3, 0.05, 1.0),
        ]:
            common = {"window": wname, "fs": fs, "tw": tw, "gain": gain}
            cases.append(dict(common, kind="low_pass", f1=f1,
                              taps=list(firdes.low_pass(gain, fs, f1, tw, win, beta))))
            cases.append(dict(common, kind="high_pass", f1=f1,
                              taps=list(firdes.high_pass(gain, fs, f1, tw, win, beta))))
            cases.append(dict(common, kind="band_pass", f1=f1, f2=f2,
                              taps=list(firdes.band_pass(gain, fs, f1, f2, tw, win, beta))))
            cases.append(dict(common, kind="band_reject", f1=f1, f2=f2,
                              taps=list(firdes.band_reject(gain, fs, f1, f2, tw, win, beta))))
    for gain, fs, sr, alpha, ntaps in [
        (1.0, 8.0, 1.0, 0.35, 65),
        (2.0, 2.4e6, 300e3, 0.2, 101),
        (1.0, 4.0, 1.0, 0.5, 44),   # even: GNU Radio makes it odd
        (1.0, 8.0, 1.0, 0.25, 33),  # hits the x3 == 0 special case (t = ±sps/(4 alpha))
        (1.0, 4.0, 1.0, 1.0, 21),
    ]:
        cases.append({"kind": "root_raised_cosine", "gain": gain, "fs": fs, "sr": sr,
                      "alpha": alpha, "ntaps": ntaps,
                      "taps": list(firdes.root_raised_cosine(gain, fs, sr, alpha, ntaps))})
    for gain, spb, bt, ntaps in [(1.0, 4.0, 0.35, 33), (2.0, 8.0, 0.5, 40), (1.0, 2.0, 0.3, 9)]:
        cases.append({"kind": "gaussian", "gain": gain, "spb": spb, "bt": bt, "ntaps": ntaps,
                      "taps": list(firdes.gaussian(gain, spb, bt, ntaps))})
    for ntaps, (wname, (win, beta)) in [(31, ("hamming", WINDOWS["hamming"])),
                                        (65, ("blackman", WINDOWS["blackman"])),
                                        (101, ("kaiser8.6", WINDOWS["kaiser8.6"])),
                                        (15, ("rectangular", WINDOWS["rectangular"]))]:
        cases.append({"kind": "hilbert", "ntaps": ntaps, "window": wname,
                      "taps": list(firdes.hilbert(ntaps, win, beta))})
    for gain, fs, low, high, tw, wname in [(1.0, 48e3, -5e3, 3e3, 2e3, "hamming"),
                                           (2.0, 240e3, 18e3, 20e3, 1e3, "blackman"),
                                           (1.0, 1.0, 0.05, 0.2, 0.05, "kaiser8.6"),
                                           (1.0, 1.0, -0.3, -0.1, 0.04, "hann")]:
        win, beta = WINDOWS[wname]
        cases.append({"kind": "complex_band_pass", "gain": gain, "fs": fs, "f1": low, "f2": high,
                      "tw": tw, "window": wname,
                      "taps": cplx(firdes.complex_band_pass(gain, fs, low, high, tw, win, beta))})
    for interp, decim, fbw in [(3, 2, 0.4), (2, 5, 0.4), (48, 125, 0.45), (5, 1, 0.3)]:
        block = filter.rational_resampler_ccf(interp, decim, [], fbw)
        cases.append({"kind": "resampler", "interp": interp, "decim": decim, "fbw": fbw,
                      "taps": list(block.taps()[0]) if isinstance(block.taps()[0], (list, tuple))
                      else list(block.taps())})
    from gnuradio.filter import optfir
    for args in [(32, 32, 0.4, 0.6, 0.1, 100), (1.0, 48e3, 5e3, 7e3, 0.5, 60),
                 (2.0, 1.0, 0.1, 0.15, 0.1, 80)]:
        cases.append({"kind": "optfir_low_pass", "args": list(args),
                      "taps": list(optfir.low_pass(*args))})
    cases.append({"kind": "optfir_high_pass", "args": [1.0, 48e3, 5e3, 7e3, 0.5, 60],
                  "taps": list(optfir.high_pass(1.0, 48e3, 5e3, 7e3, 0.5, 60))})
    for kind, f in [("optfir_band_pass", optfir.band_pass),
                    ("optfir_band_reject", optfir.band_reject)]:
        args = [1.0, 48e3, 4e3, 6e3, 10e3, 12e3, 0.5, 60]
        cases.append({"kind": kind, "args": args, "taps": list(f(*args))})
    # Only "bandpass": GNU Radio 3.10.5's pm_remez writes past its grid for the antisymmetric
    # types ("hilbert", "differentiator") and the process aborts.
    for order, bands, ampl, weight, ftype in [
        (32, [0, 0.4, 0.5, 1], [1, 1, 0, 0], [1, 1], "bandpass"),
        (40, [0, 0.3, 0.4, 1], [1, 1, 0, 0], [1, 10], "bandpass"),
        (33, [0, 0.3, 0.4, 1], [1, 1, 0, 0], [1, 3], "bandpass"),
        (24, [0, 0.2, 0.3, 0.6, 0.7, 1], [0, 0, 1, 0.5, 0, 0], [1, 1, 1], "bandpass"),
    ]:
        cases.append({"kind": "pm_remez", "order": order, "bands": bands, "ampl": ampl,
                      "weight": weight, "type": ftype,
                      "taps": list(filter.pm_remez(order, bands, ampl, weight, ftype))})
    for gain, fs, fc, tw, atten, win, beta, wname in [
        (1.0, 48e3, 5e3, 2e3, 60, W.WIN_KAISER, 6.76, "kaiser6.76"),
        (32, 32, 0.2, 0.1, 100, W.WIN_BLACKMAN_HARRIS, 6.76, "blackman_harris"),
        (3.0, 32 * 48e3, 15e3, 1e3, 60, W.WIN_HAMMING, 6.76, "hamming"),
    ]:
        cases.append({"kind": "low_pass_2", "gain": gain, "fs": fs, "f1": fc, "tw": tw,
                      "atten": atten, "window": wname,
                      "taps": list(firdes.low_pass_2(gain, fs, fc, tw, atten, win, beta))})
    for gain, fs, f1, f2, tw, atten, wname in [(1.0, 48e3, 5e3, 9e3, 2e3, 60, "hamming"),
                                               (2.0, 1.0, 0.1, 0.3, 0.05, 70, "blackman")]:
        win, beta = WINDOWS[wname]
        common = {"gain": gain, "fs": fs, "f1": f1, "tw": tw, "atten": atten, "window": wname}
        cases.append(dict(common, kind="high_pass_2", taps=list(
            firdes.high_pass_2(gain, fs, f1, tw, atten, win, beta))))
        cases.append(dict(common, kind="band_pass_2", f2=f2, taps=list(
            firdes.band_pass_2(gain, fs, f1, f2, tw, atten, win, beta))))
        cases.append(dict(common, kind="band_reject_2", f2=f2, taps=list(
            firdes.band_reject_2(gain, fs, f1, f2, tw, atten, win, beta))))
    return cases


def run(src, block, sink_type, n_in=None):
    """Runs `src -> block -> sink` to the end and returns the sink's data."""
    tb = gr.top_block()
    sink = sink_type()
    tb.connect(src, block, sink)
    tb.run()
    return list(sink.data())


def cplx(xs):
    return [[float(z.real), float(z.imag)] for z in xs]


def block_cases():
    rng = np.random.default_rng(18)
    n = 2000
    noise = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64) * 0.5
    real = rng.standard_normal(n).astype(np.float32)
    # FM: a random walk of frequency, unit amplitude, with a little noise.
    freq = np.cumsum(rng.standard_normal(n)) * 0.01
    phase = np.cumsum(np.clip(freq, -2.5, 2.5))
    fm = (np.exp(1j * phase) + 0.05 * noise).astype(np.complex64)
    # A carrier at +0.05 cycles/sample with noise, for the PLL and the AGC.
    t = np.arange(n)
    tone = (0.3 * np.exp(1j * (2 * np.pi * 0.05 * t + 0.7)) + 0.05 * noise).astype(np.complex64)

    out = {"noise": cplx(noise), "real": [float(x) for x in real], "fm": cplx(fm),
           "tone": cplx(tone)}
    lp = list(firdes.low_pass(1.0, 1.0, 0.08, 0.04, W.WIN_HAMMING))
    out["lowpass_taps"] = lp
    c = lambda x: blocks.vector_source_c(list(x))
    f = lambda x: blocks.vector_source_f(list(x))
    out["decim_fir"] = cplx(run(c(noise), filter.fir_filter_ccf(4, lp), blocks.vector_sink_c))
    out["interp_fir"] = cplx(run(c(noise[:1000]), filter.interp_fir_filter_ccf(3, lp),
                                 blocks.vector_sink_c))
    for interp, decim in [(3, 2), (2, 5), (7, 3)]:
        out[f"resampler_{interp}_{decim}"] = cplx(run(
            c(noise), filter.rational_resampler_ccf(interp, decim, lp), blocks.vector_sink_c))
    for centre in [0.13, -0.21]:
        out[f"xlating_{centre}"] = cplx(run(
            c(noise), filter.freq_xlating_fir_filter_ccf(5, lp, centre * 48e3, 48e3),
            blocks.vector_sink_c))
    cbp = list(firdes.complex_band_pass(1.0, 1.0, 0.05, 0.2, 0.05, W.WIN_HAMMING))
    out["complex_band_pass_taps"] = cplx(cbp)
    out["fir_fcc"] = cplx(run(f(real), filter.fir_filter_fcc(3, cbp), blocks.vector_sink_c))
    out["fft_filter"] = cplx(run(c(noise), filter.fft_filter_ccf(1, lp), blocks.vector_sink_c))
    out["hilbert"] = cplx(run(f(real), filter.hilbert_fc(65, W.WIN_HAMMING), blocks.vector_sink_c))
    for win, shift, key in [(W.hamming, False, "logpwrfft_hamming"),
                            (W.hann, True, "logpwrfft_hann_shifted")]:
        # Frame rate = sample rate / size: every frame of 64, no averaging.
        spectrum = logpwrfft.logpwrfft_c(sample_rate=64e3, fft_size=64, ref_scale=2,
                                         frame_rate=1e3, avg_alpha=1.0, average=False,
                                         win=win, shift=shift)
        out[key] = run(c(noise[:256]), spectrum, lambda: blocks.vector_sink_f(64))
    out["quad_demod"] = run(c(fm), analog.quadrature_demod_cf(1.7), blocks.vector_sink_f)
    for tau in [50e-6, 75e-6]:
        out[f"deemph_{round(tau * 1e6)}"] = run(f(real), analog.fm_deemph(48e3, tau),
                                                blocks.vector_sink_f)
    out["agc"] = cplx(run(c(tone), analog.agc_cc(1e-2, 1.0, 1.0), blocks.vector_sink_c))
    agc = analog.agc_cc(1e-2, 1.0, 1.0)
    agc.set_max_gain(2.0)
    out["agc_max2"] = cplx(run(c(tone), agc, blocks.vector_sink_c))
    out["agc_ff"] = run(f(0.3 * real), analog.agc_ff(1e-2, 1.0, 1.0), blocks.vector_sink_f)
    out["rotator"] = cplx(run(c(noise), blocks.rotator_cc(2 * math.pi * -0.123),
                              blocks.vector_sink_c))
    bw, fmax, fmin = 0.05, 0.4, -0.1
    out["pll_carriertracking"] = cplx(run(c(tone), analog.pll_carriertracking_cc(bw, fmax, fmin),
                                          blocks.vector_sink_c))
    out["pll_refout"] = cplx(run(c(tone), analog.pll_refout_cc(bw, fmax, fmin),
                                 blocks.vector_sink_c))
    out["pll_freqdet"] = run(c(tone), analog.pll_freqdet_cf(bw, fmax, fmin), blocks.vector_sink_f)
    out["single_pole"] = run(f(real), filter.single_pole_iir_filter_ff(0.1), blocks.vector_sink_f)
    out["moving_average"] = run(f(real), blocks.moving_average_ff(10, 0.5), blocks.vector_sink_f)
    out["dc_blocker_long"] = run(f(real + 3.0), filter.dc_blocker_ff(32, True),
                                 blocks.vector_sink_f)
    out["dc_blocker_short"] = run(f(real + 3.0), filter.dc_blocker_ff(32, False),
                                  blocks.vector_sink_f)
    # The polyphase arbitrary resampler: GNU Radio's default taps (optfir above rate 1,
    # firdes.low_pass_2 below), given taps, and each item type.
    from gnuradio.filter import pfb
    for rate, ntaps_key in [(1.5, "pfb_arb_1.5"), (0.75, "pfb_arb_0.75"), (2.0, "pfb_arb_2")]:
        taps = pfb.arb_resampler_ccf.create_taps(rate, 32, 100)
        out[ntaps_key + "_taps"] = [float(t) for t in taps]
        out[ntaps_key] = cplx(run(c(noise[:600]), filter.pfb_arb_resampler_ccf(rate, taps, 32),
                                  blocks.vector_sink_c))
    out["pfb_arb_fff_taps"] = lp
    out["pfb_arb_fff"] = run(f(real[:600]), filter.pfb_arb_resampler_fff(1.37, lp, 8),
                             blocks.vector_sink_f)
    ctaps = cbp
    out["pfb_arb_ccc_taps"] = cplx(ctaps)
    out["pfb_arb_ccc"] = cplx(run(c(noise[:600]), filter.pfb_arb_resampler_ccc(0.61, ctaps, 16),
                                  blocks.vector_sink_c))
    return out


def tone_snr_db(audio, rate, freq, skip):
    """SNR of a tone: the least-squares sinusoid (and DC) at `freq` against the rest."""
    y = np.asarray(audio[skip:], dtype=np.float64)
    t = np.arange(len(y)) / rate
    basis = np.stack([np.cos(2 * np.pi * freq * t), np.sin(2 * np.pi * freq * t),
                      np.ones_like(t)], axis=1)
    coef, *_ = np.linalg.lstsq(basis, y, rcond=None)
    tone = basis[:, :2] @ coef[:2]
    residual = y - basis @ coef
    return 10 * math.log10(np.sum(tone ** 2) / np.sum(residual ** 2))


def wfm_mono():
    """A mono WBFM station carrying a 1 kHz tone, and GNU Radio's receiver's tone SNR."""
    audio_rate, quad_rate, offset, seconds = 48000, 480000, 100e3, 0.06
    n = int(audio_rate * seconds)
    tone = 0.5 * np.sin(2 * np.pi * 1e3 * np.arange(n) / audio_rate)
    tb = gr.top_block()
    iq = blocks.vector_sink_c()
    tb.connect(blocks.vector_source_f(list(tone.astype(np.float32))),
               analog.wfm_tx(audio_rate, quad_rate, 75e-6, 75e3),
               blocks.rotator_cc(2 * math.pi * offset / quad_rate), iq)
    tb.run()
    iq = np.array(iq.data(), dtype=np.complex64)
    # GNU Radio's mono receiver: channel filter decimating by 2, then wfm_rcv by 5.
    tb = gr.top_block()
    audio = blocks.vector_sink_f()
    channel = filter.freq_xlating_fir_filter_ccf(
        2, firdes.low_pass(1.0, quad_rate, 100e3, 20e3, W.WIN_HAMMING), offset, quad_rate)
    tb.connect(blocks.vector_source_c(list(iq)), channel,
               analog.wfm_rcv(quad_rate / 2, 5), audio)
    tb.run()
    meta = {"gnuradio": gr.version(), "audio_rate": audio_rate, "quad_rate": quad_rate,
            "offset": offset, "tone_hz": 1e3, "tone_amplitude": 0.5, "max_dev": 75e3,
            "tau": 75e-6, "samples": len(iq),
            "gnuradio_wfm_rcv_snr_db": round(tone_snr_db(audio.data(), 48e3, 1e3, 960), 2)}
    return iq, meta


def f32(data):
    """Floats to the 9 significant digits that round-trip an f32 (all the data is f32)."""
    if isinstance(data, float):
        return float(f"{data:.9g}")
    if isinstance(data, dict):
        return {k: f32(v) for k, v in data.items()}
    if isinstance(data, list):
        return [f32(v) for v in data]
    return data


def dump(name, data):
    path = os.path.join(HERE, name)
    with open(path, "w") as fh:
        json.dump(f32(data), fh, separators=(",", ":"))
        fh.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    dump("firdes.json", {"gnuradio": gr.version(), "cases": taps_cases()})
    dump("blocks.json", dict(block_cases(), gnuradio=gr.version()))
    iq, meta = wfm_mono()
    iq.astype("<c8").tofile(os.path.join(HERE, "wfm_mono.cf32"))
    dump("wfm_mono.json", meta)
