"""A DVB-T2 transmitter's bit chain as a GNU Radio script writes it, with gr-dtv's constants:
transport stream packets -> BB header -> BB scrambler -> BCH -> LDPC -> bit interleaver ->
rotated 64QAM cells (3 FEC frames), and the constants' numbers."""

import os
import sys

import numpy
from gnuradio import blocks, digital, dtv, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

# 80 packets of 188 bytes, each starting with the sync byte: 3 frames of 4850 bytes.
rng = numpy.random.RandomState(7)
packets = rng.randint(0, 256, size=(80, 188))
packets[:, 0] = 0x47
data = [int(x) for x in packets.flatten()]

tb = gr.top_block("dvbt2 chain")
src = blocks.vector_source_b(data, False)
bbheader = dtv.dvb_bbheader_bb(dtv.STANDARD_DVBT2, dtv.FECFRAME_NORMAL, dtv.C3_5,
                               dtv.RO_0_35, dtv.INPUTMODE_NORMAL, dtv.INBAND_OFF, 168, 4000000)
scrambler = dtv.dvb_bbscrambler_bb(dtv.STANDARD_DVBT2, dtv.FECFRAME_NORMAL, dtv.C3_5)
bch = dtv.dvb_bch_bb(dtv.STANDARD_DVBT2, dtv.FECFRAME_NORMAL, dtv.C3_5)
ldpc = dtv.dvb_ldpc_bb(dtv.STANDARD_DVBT2, dtv.FECFRAME_NORMAL, dtv.C3_5, dtv.MOD_OTHER)
interleaver = dtv.dvbt2_interleaver_bb(dtv.FECFRAME_NORMAL, dtv.C3_5, dtv.MOD_64QAM)
modulator = dtv.dvbt2_modulator_bc(dtv.FECFRAME_NORMAL, dtv.MOD_64QAM, dtv.ROTATION_ON)
sink = blocks.vector_sink_c()
tb.connect(src, bbheader, scrambler, bch, ldpc, interleaver, modulator, sink)
tb.run()

names = ["STANDARD_DVBT2", "FECFRAME_SHORT", "C3_5", "C2_5", "MOD_64QAM", "MOD_256QAM",
         "ROTATION_ON", "FFTSIZE_32K", "GI_19_256", "PILOT_PP7", "PREAMBLE_T2_MISO",
         "PAPR_TR", "VERSION_131", "CARRIERS_EXTENDED", "L1_MOD_16QAM", "INPUTMODE_HIEFF"]
_results.write({
    "cells": list(sink.data()),
    "dtv": {n: int(getattr(dtv, n)) for n in names},
    "digital": {n: int(getattr(digital, n)) for n in [
        "TED_GARDNER", "TED_MUELLER_AND_MULLER", "TED_SIGNUM_TIMES_SLOPE_ML", "IR_MMSE_8TAP",
        "IR_PFB_MF", "THRESHOLD_DYNAMIC", "THRESHOLD_ABSOLUTE", "DIFF_NRZI", "SNR_EST_M2M4"]},
})
