#!/usr/bin/python3
"""Golden data for radioflow-dvbs2 from GNU Radio's gr-dtv (the independent oracle).

Run with Debian's GNU Radio 3.10:  /usr/bin/python3 crates/dvbs2/golden/generate.py [OUTDIR]
Writes OUTDIR/gr_dtv.txt (OUTDIR defaults to this script's directory) (per MODCOD x frame x pilots: FNV-1a-64 of every bit
stage over FRAMES frames, a weighted sum of the PL symbols, the first/last symbols) and a few
full first PLFRAMEs as little-endian complex64 files (*.cf32).

The TS input is deterministic and reproduced by the Rust tests (`ts_byte` below).
"""
import json
import os
import sys

import numpy as np
from gnuradio import blocks, dtv, gr

FRAMES = 2
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else HERE
# Extra cases with other PL scrambling Gold code indices (every other case uses 0).
GOLD_CASES = [("qpsk-3/4", "short", True, 7), ("8psk-2/3", "normal", False, 131071),
              ("32apsk-4/5", "short", True, 262141)]

RATES = {
    "1/4": dtv.C1_4, "1/3": dtv.C1_3, "2/5": dtv.C2_5, "1/2": dtv.C1_2, "3/5": dtv.C3_5,
    "2/3": dtv.C2_3, "3/4": dtv.C3_4, "4/5": dtv.C4_5, "5/6": dtv.C5_6, "8/9": dtv.C8_9,
    "9/10": dtv.C9_10,
}
CONST = {
    "qpsk": (dtv.MOD_QPSK, list(RATES)),
    "8psk": (dtv.MOD_8PSK, ["3/5", "2/3", "3/4", "5/6", "8/9", "9/10"]),
    "16apsk": (dtv.MOD_16APSK, ["2/3", "3/4", "4/5", "5/6", "8/9", "9/10"]),
    "32apsk": (dtv.MOD_32APSK, ["3/4", "4/5", "5/6", "8/9", "9/10"]),
}
FRAMESIZES = {"normal": dtv.FECFRAME_NORMAL, "short": dtv.FECFRAME_SHORT}
# Kbch per code rate, ETSI EN 302 307-1 Table 5a (normal) and 5b (short).
KBCH = {
    "normal": {"1/4": 16008, "1/3": 21408, "2/5": 25728, "1/2": 32208, "3/5": 38688,
               "2/3": 43040, "3/4": 48408, "4/5": 51648, "5/6": 53840, "8/9": 57472,
               "9/10": 58192},
    "short": {"1/4": 3072, "1/3": 5232, "2/5": 6312, "1/2": 7032, "3/5": 9552, "2/3": 10632,
              "3/4": 11712, "4/5": 12432, "5/6": 13152, "8/9": 14232},
}
# Nbch = Kldpc, same tables.
NBCH = {
    "normal": dict(zip(KBCH["normal"], [16200, 21600, 25920, 32400, 38880, 43200, 48600, 51840,
                                         54000, 57600, 58320])),
    "short": dict(zip(KBCH["short"], [3240, 5400, 6480, 7200, 9720, 10800, 11880, 12600, 13320,
                                       14400])),
}
BITS = {"qpsk": 2, "8psk": 3, "16apsk": 4, "32apsk": 5}
# Full first PLFRAMEs committed for these (modcod, frame, pilots).
FULL = [("qpsk-1/4", "short", True), ("8psk-3/5", "normal", False),
        ("16apsk-2/3", "short", True), ("32apsk-9/10", "normal", True)]


def ts_byte(packet, j):
    """Byte j (0..187) of TS packet number `packet`: sync byte, then a fixed LCG-like pattern."""
    if j == 0:
        return 0x47
    return (packet * 131 + j * 29 + ((packet * j) >> 3)) & 0xFF


def ts_stream(npackets):
    p = np.arange(npackets, dtype=np.int64)[:, None]
    j = np.arange(188, dtype=np.int64)[None, :]
    s = (p * 131 + j * 29 + ((p * j) >> 3)) & 0xFF
    s[:, 0] = 0x47
    return s.astype(np.uint8).ravel()


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in bytes(data):
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def bits_hash(bits):
    return fnv1a64(np.packbits(np.asarray(bits, dtype=np.uint8)))


def run(const_name, rate_name, fs_name, pilots, gold):
    const, _ = CONST[const_name]
    rate = RATES[rate_name]
    fs = FRAMESIZES[fs_name]
    # Enough TS packets for FRAMES BBFRAMEs (Kbch <= 58192 bits) plus slack.
    src = blocks.vector_source_b(ts_stream(FRAMES * 40 + 2).tolist(), False)
    bbh = dtv.dvb_bbheader_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.RO_0_20, dtv.INPUTMODE_NORMAL,
                              dtv.INBAND_OFF, 168, 4000000)
    scr = dtv.dvb_bbscrambler_bb(dtv.STANDARD_DVBS2, fs, rate)
    bch = dtv.dvb_bch_bb(dtv.STANDARD_DVBS2, fs, rate)
    ldpc = dtv.dvb_ldpc_bb(dtv.STANDARD_DVBS2, fs, rate, dtv.MOD_OTHER)
    il = dtv.dvbs2_interleaver_bb(fs, rate, const)
    mod = dtv.dvbs2_modulator_bc(fs, rate, const, dtv.INTERPOLATION_OFF)
    phy = dtv.dvbs2_physical_cc(fs, rate, const,
                                dtv.PILOTS_ON if pilots else dtv.PILOTS_OFF, gold)
    chain = [bbh, scr, bch, ldpc, il, mod, phy]
    sinks = []
    tb = gr.top_block()
    prev = src
    for b in chain:
        tb.connect(prev, b)
        s = blocks.vector_sink_c() if b in (mod, phy) else blocks.vector_sink_b()
        tb.connect(b, s)
        sinks.append(s)
        prev = b
    tb.run()
    return [np.array(s.data()) for s in sinks]


def main():
    out = {"generator": "gr-dtv " + gr.version(), "cases": []}
    todo = []
    for const_name, (_, rates) in CONST.items():
        for rate_name in rates:
            for fs_name in FRAMESIZES:
                if fs_name == "short" and rate_name == "9/10":
                    continue
                for pilots in (False, True):
                    todo.append(("%s-%s" % (const_name, rate_name), fs_name, pilots, 0))
    todo += GOLD_CASES
    for modcod, fs_name, pilots, gold in todo:
        const_name, rate_name = modcod.split("-")
        bbh, scr, bch, ldpc, il, mod, phy = run(const_name, rate_name, fs_name,
                                                pilots, gold)
        nfec = 64800 if fs_name == "normal" else 16200
        kbch = KBCH[fs_name][rate_name]
        nsym = nfec // BITS[const_name]
        slots = nsym // 90
        plen = 90 + nsym + (((slots - 1) // 16) * 36 if pilots else 0)
        # gr-dtv's dvbs2_physical_cc writes each symbol followed by a zero sample.
        plsym = phy[0::2]
        assert np.all(phy[1::2] == 0)
        assert len(bbh) >= FRAMES * kbch and len(ldpc) >= FRAMES * nfec
        w = (np.arange(FRAMES * plen) % 97 + 1).astype(np.float64)
        s = plsym[: FRAMES * plen].astype(np.complex128)
        case = {
            "modcod": modcod, "frame": fs_name, "pilots": pilots, "gold": gold,
            "kbch": kbch, "plframe_len": plen,
            "bbheader": bits_hash(bbh[: FRAMES * kbch]),
            "bbscrambler": bits_hash(scr[: FRAMES * kbch]),
            "bch": bits_hash(bch[: FRAMES * NBCH[fs_name][rate_name]]),
            "ldpc": bits_hash(ldpc[: FRAMES * nfec]),
            "interleaver": fnv1a64(il[: FRAMES * nsym].astype(np.uint8)),
            "modulator_wsum": [float(np.sum(w[: FRAMES * nsym] * mod[: FRAMES * nsym].real)),
                               float(np.sum(w[: FRAMES * nsym] * mod[: FRAMES * nsym].imag))],
            "wsum": [float(np.sum(w * s.real)), float(np.sum(w * s.imag))],
            "first": [[float(c.real), float(c.imag)] for c in plsym[:8]],
            "last": [[float(c.real), float(c.imag)] for c in plsym[FRAMES * plen - 8: FRAMES * plen]],
        }
        out["cases"].append(case)
        if (modcod, fs_name, pilots) in FULL and gold == 0:
            name = "%s_%s_%s.cf32" % (modcod.replace("/", "_"), fs_name,
                                      "pilots" if pilots else "nopilots")
            plsym[:plen].astype(np.complex64).tofile(os.path.join(OUT, name))
        print(modcod, fs_name, pilots, kbch, plen, file=sys.stderr)
    # One case per line, whitespace separated, parsed by tests/gr_dtv.rs:
    # modcod frame pilots gold kbch plframe_len bbheader bbscrambler bch ldpc interleaver
    # modulator_wsum(re im) wsum(re im) first[8](re im) last[8](re im)
    with open(os.path.join(OUT, "gr_dtv.txt"), "w") as f:
        f.write("# %s frames=%d rolloff=0.20 (generated by generate.py)\n"
                % (out["generator"], FRAMES))
        for c in out["cases"]:
            fields = [c["modcod"], c["frame"], "on" if c["pilots"] else "off", str(c["gold"]),
                      str(c["kbch"]),
                      str(c["plframe_len"]), c["bbheader"], c["bbscrambler"], c["bch"],
                      c["ldpc"], c["interleaver"]]
            fields += [repr(x) for x in c["modulator_wsum"] + c["wsum"]]
            fields += [repr(x) for pair in c["first"] + c["last"] for x in pair]
            f.write(" ".join(fields) + "\n")

if __name__ == "__main__":
    main()
