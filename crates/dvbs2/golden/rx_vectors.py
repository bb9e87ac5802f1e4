"""Received DVB-S2 signals made by GNU Radio, for the receiver's tests (radioflow-dvbs2).

Run with Debian's GNU Radio 3.10:
    /usr/bin/python3 crates/dvbs2/golden/rx_vectors.py OUTDIR [--all | --rates]

For each configuration, gr-dtv's transmitter (bbheader, bbscrambler, bch, ldpc, interleaver,
modulator, physical layer framing with a zero after each symbol) encodes a TS of counting
packets; a root-raised-cosine filter (roll-off 0.20, 2 samples per symbol) shapes it and GNU
Radio's channel model adds a carrier frequency offset and a sample clock offset. Then, here
with numpy (the "second script" of the test plan), a Wiener phase noise and white Gaussian
noise at the configuration's Es/N0 (Table 13 of EN 302 307-1 plus a margin: 3 dB for normal
frames, 4 dB for short ones). Without --all: one MODCOD per constellation and frame size
(8 signals, pilots on); with --all: every MODCOD gr-dtv supports, normal and short, pilots on and off.

With --rates: signals at other rates than 2 samples per symbol, brought there by GNU Radio's
resamplers after the channel model (rational_resampler_ccc 5/4 to 2.5, pfb.arb_resampler_ccf
to 3.37 and 1.7, rational 2/1 to 4), the noise added at the new rate.

Writes to OUTDIR, per configuration NAME: NAME.cf32 (little-endian complex64 at the
configuration's "sps" samples per symbol), NAME.ts (the TS sent), and index.json (the
configurations and their settings).
"""
import json
import os
import sys

import numpy as np
from gnuradio import blocks, channels, dtv, filter, gr
from gnuradio.filter import firdes

FRAMES = int(os.environ.get("RX_VECTORS_FRAMES", "20"))
# Overrides for exploring the receiver's limits (the test uses the defaults).
MARGIN_NORMAL = float(os.environ.get("RX_VECTORS_MARGIN_NORMAL", "3.0"))
MARGIN_SHORT = float(os.environ.get("RX_VECTORS_MARGIN_SHORT", "4.0"))
PHASE_NOISE = float(os.environ.get("RX_VECTORS_PHASE_NOISE", "0.002"))
CFO = float(os.environ.get("RX_VECTORS_CFO", "0.02"))
# Es/N0 thresholds (dB) of EN 302 307-1 Table 13 (normal FECFRAMEs, AWGN, QEF).
TABLE13 = {
    "qpsk": {"1/4": -2.35, "1/3": -1.24, "2/5": -0.30, "1/2": 1.00, "3/5": 2.23, "2/3": 3.10,
             "3/4": 4.03, "4/5": 4.68, "5/6": 5.18, "8/9": 6.20, "9/10": 6.42},
    "8psk": {"3/5": 5.50, "2/3": 6.62, "3/4": 7.91, "5/6": 9.35, "8/9": 10.69, "9/10": 10.98},
    "16apsk": {"2/3": 8.97, "3/4": 10.21, "4/5": 11.03, "5/6": 11.61, "8/9": 12.89,
               "9/10": 13.13},
    "32apsk": {"3/4": 12.73, "4/5": 13.64, "5/6": 14.28, "8/9": 15.69, "9/10": 16.05},
}
RATES = {"1/4": dtv.C1_4, "1/3": dtv.C1_3, "2/5": dtv.C2_5, "1/2": dtv.C1_2, "3/5": dtv.C3_5,
         "2/3": dtv.C2_3, "3/4": dtv.C3_4, "4/5": dtv.C4_5, "5/6": dtv.C5_6, "8/9": dtv.C8_9,
         "9/10": dtv.C9_10}
CONSTELLATIONS = {"qpsk": (dtv.MOD_QPSK, 2), "8psk": (dtv.MOD_8PSK, 3),
                  "16apsk": (dtv.MOD_16APSK, 4), "32apsk": (dtv.MOD_32APSK, 5)}
# Kbch of the BBFRAME per rate (Tables 5a and 5b), for the TS length.
KBCH_NORMAL = {"1/4": 16008, "1/3": 21408, "2/5": 25728, "1/2": 32208, "3/5": 38688,
               "2/3": 43040, "3/4": 48408, "4/5": 51648, "5/6": 53840, "8/9": 57472,
               "9/10": 58192}
KBCH_SHORT = {"1/4": 3072, "1/3": 5232, "2/5": 6312, "1/2": 7032, "3/5": 9552, "2/3": 10632,
              "3/4": 11712, "4/5": 12432, "5/6": 13152, "8/9": 14232}
SUBSET = [("qpsk", "1/2"), ("8psk", "3/5"), ("16apsk", "3/4"), ("32apsk", "4/5")]


def plframe_len(nldpc, bits, pilots):
    slots = nldpc // bits // 90
    return 90 * (slots + 1) + (36 * ((slots - 1) // 16) if pilots else 0)


def make(cfg, out):
    const, bits = CONSTELLATIONS[cfg["constellation"]]
    rate = RATES[cfg["rate"]]
    short = cfg["frame"] == "short"
    fs = dtv.FECFRAME_SHORT if short else dtv.FECFRAME_NORMAL
    kbch = (KBCH_SHORT if short else KBCH_NORMAL)[cfg["rate"]]
    npackets = FRAMES * (kbch - 80) // (8 * 188) + 20
    ts = np.zeros(npackets * 188, dtype=np.uint8)
    for p in range(npackets):
        pkt = ts[p * 188:(p + 1) * 188]
        pkt[:4] = [0x47, 0x01, 0x00, 0x10 | (p % 16)]
        pkt[4:8] = np.frombuffer(p.to_bytes(4, "big"), dtype=np.uint8)
        pkt[8:] = (np.arange(8, 188) * 5 + p * 3) % 256
    pilots = dtv.PILOTS_ON if cfg["pilots"] else dtv.PILOTS_OFF
    chain = [
        dtv.dvb_bbheader_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.RO_0_20, dtv.INPUTMODE_NORMAL,
                            dtv.INBAND_OFF, 168, 4000000),
        dtv.dvb_bbscrambler_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, fs, rate),
        dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.MOD_OTHER),
        dtv.dvbs2_interleaver_bb(fs, rate, const),
        dtv.dvbs2_modulator_bc(fs, rate, const, dtv.INTERPOLATION_OFF),
        dtv.dvbs2_physical_cc(fs, rate, const, pilots, 0),
    ]
    # Gain 2: the zero after each symbol halves the level.
    shape = filter.fir_filter_ccf(1, firdes.root_raised_cosine(2.0, 2.0, 1.0, 0.2, 49))
    chan = channels.channel_model(noise_voltage=0.0, frequency_offset=cfg["cfo"] / 2.0,
                                  epsilon=cfg["epsilon"], taps=[1.0 + 0j], noise_seed=1,
                                  block_tags=False)
    nsamples = 2 * FRAMES * plframe_len(16200 if short else 64800, bits, cfg["pilots"])
    head = blocks.head(gr.sizeof_gr_complex, nsamples)
    sink = blocks.vector_sink_c()
    tb = gr.top_block()
    tb.connect(blocks.vector_source_b(ts.tolist(), False), *chain)
    tb.connect(chain[-1], shape, chan, head)
    resampler = cfg.get("resampler")
    if resampler is None:
        tb.connect(head, sink)
    else:
        if resampler[0] == "rational":
            rs = filter.rational_resampler_ccc(resampler[1], resampler[2])
        else:
            rs = filter.pfb.arb_resampler_ccf(cfg["sps"] / 2.0)
        tb.connect(head, rs, sink)
    tb.run()
    x = np.array(sink.data(), dtype=np.complex64)
    rng = np.random.default_rng(cfg["seed"])
    # Wiener phase noise, then AWGN: Es = sps samples x mean power, N0 = complex noise variance.
    phase = np.cumsum(rng.normal(0.0, cfg["phase_noise"], len(x)))
    x = x * np.exp(1j * phase).astype(np.complex64)
    power = float(np.mean(np.abs(x) ** 2))
    n0 = cfg["sps"] * power / 10 ** (cfg["esn0_db"] / 10.0)
    noise = (rng.normal(size=len(x)) + 1j * rng.normal(size=len(x))) * np.sqrt(n0 / 2.0)
    y = (x + noise.astype(np.complex64)).astype(np.complex64)
    y.tofile(os.path.join(out, cfg["name"] + ".cf32"))
    ts.tofile(os.path.join(out, cfg["name"] + ".ts"))


def configs(full):
    out = []
    seed = 0
    for cname, rates in TABLE13.items():
        for rname, threshold in rates.items():
            for frame in ("normal", "short"):
                if frame == "short" and rname == "9/10":
                    continue  # not defined for short FECFRAMEs
                if not full and (cname, rname) not in SUBSET:
                    continue
                for pilots in ((True, False) if full else (True,)):
                    seed += 1
                    name = "{}-{}_{}_{}".format(cname, rname.replace("/", "_"), frame,
                                                "pilots" if pilots else "nopilots")
                    out.append({
                        "name": name, "constellation": cname, "rate": rname,
                        "modcod": "{}-{}".format(cname, rname), "frame": frame,
                        "pilots": pilots,
                        "esn0_db": threshold + (MARGIN_SHORT if frame == "short" else MARGIN_NORMAL),
                        # Carrier offset in cycles per symbol (2 % of the symbol rate), clock
                        # ratio (40 ppm), phase noise (rad per sample, Wiener).
                        "cfo": CFO * (1 if seed % 2 else -1), "epsilon": 1.0 + 40e-6,
                        "phase_noise": PHASE_NOISE, "seed": seed, "sps": 2.0,
                    })
    return out


def rate_configs():
    """Short frames, pilots on, at other rates: (MODCOD, samples per symbol, resampler)."""
    out = []
    for seed, (cname, rname, sps, resampler) in enumerate([
            ("qpsk", "1/2", 2.5, ("rational", 5, 4)),
            ("8psk", "3/5", 3.37, ("arb",)),
            ("16apsk", "3/4", 1.7, ("arb",)),
            ("32apsk", "4/5", 4.0, ("rational", 2, 1)),
    ], start=200):
        name = "{}-{}_short_pilots_sps{}".format(cname, rname.replace("/", "_"), sps)
        out.append({
            "name": name, "constellation": cname, "rate": rname,
            "modcod": "{}-{}".format(cname, rname), "frame": "short", "pilots": True,
            "esn0_db": TABLE13[cname][rname] + MARGIN_SHORT,
            "cfo": CFO * (1 if seed % 2 else -1), "epsilon": 1.0 + 40e-6,
            "phase_noise": PHASE_NOISE, "seed": seed, "sps": sps, "resampler": resampler,
        })
    return out


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cfgs = rate_configs() if "--rates" in sys.argv[2:] else configs("--all" in sys.argv[2:])
    for cfg in cfgs:
        make(cfg, out)
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump({"frames": FRAMES, "configs": cfgs}, f, indent=1)


if __name__ == "__main__":
    main()
