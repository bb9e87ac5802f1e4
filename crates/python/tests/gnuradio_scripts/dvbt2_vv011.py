"""GNU Radio's DVB-T2 example vv011-1kfft (1K FFT, QPSK 1/2, PP3) as grcc writes it, with
gr-dtv's constants: the blocks' calls are grcc's, verbatim; its file source and SDR sink are
replaced by a vector source of one T2 frame's transport stream packets and a file sink
(``out.json.cfile``). Also the numbers of some dtv and digital constants."""

import os
import sys

import numpy
from gnuradio import blocks, digital, dtv, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402


class vv011_1kfft(gr.top_block):
    def __init__(self, packets, path):
        gr.top_block.__init__(self, "vv011-1kfft")
        self.dtv_dvbt2_pilotgenerator_cc_0 = dtv.dvbt2_pilotgenerator_cc(
            dtv.CARRIERS_NORMAL,
            dtv.FFTSIZE_1K,
            dtv.PILOT_PP3,
            dtv.GI_1_8,
            1966,
            dtv.PAPR_OFF,
            dtv.VERSION_111,
            dtv.PREAMBLE_T2_SISO,
            dtv.MISO_TX1,
            dtv.EQUALIZATION_OFF,
            dtv.BANDWIDTH_8_0_MHZ,
            1024
            )
        self.dtv_dvbt2_p1insertion_cc_0 = dtv.dvbt2_p1insertion_cc(
            dtv.CARRIERS_EXTENDED,
            dtv.FFTSIZE_1K,
            dtv.GI_1_8,
            1966,
            dtv.PREAMBLE_T2_SISO,
            dtv.SHOWLEVELS_OFF,
            3.3
            )
        self.dtv_dvbt2_modulator_bc_0 = dtv.dvbt2_modulator_bc(dtv.FECFRAME_NORMAL, dtv.MOD_QPSK, dtv.ROTATION_ON)
        self.dtv_dvbt2_interleaver_bb_0 = dtv.dvbt2_interleaver_bb(dtv.FECFRAME_NORMAL, dtv.C1_2, dtv.MOD_QPSK)
        self.dtv_dvbt2_freqinterleaver_cc_0 = dtv.dvbt2_freqinterleaver_cc(
            dtv.CARRIERS_NORMAL,
            dtv.FFTSIZE_1K,
            dtv.PILOT_PP3,
            dtv.GI_1_8,
            1966,
            dtv.PAPR_OFF,
            dtv.VERSION_111,
            dtv.PREAMBLE_T2_SISO
            )
        self.dtv_dvbt2_framemapper_cc_0 = dtv.dvbt2_framemapper_cc(
            dtv.FECFRAME_NORMAL,
            dtv.C1_2,
            dtv.MOD_QPSK,
            dtv.ROTATION_ON,
            48,
            3,
            dtv.CARRIERS_NORMAL,
            dtv.FFTSIZE_1K,
            dtv.GI_1_8,
            dtv.L1_MOD_BPSK,
            dtv.PILOT_PP3,
            2,
            1966,
            dtv.PAPR_OFF,
            dtv.VERSION_111,
            dtv.PREAMBLE_T2_SISO,
            dtv.INPUTMODE_NORMAL,
            dtv.RESERVED_OFF,
            dtv.L1_SCRAMBLED_OFF,
            dtv.INBAND_OFF)
        self.dtv_dvbt2_cellinterleaver_cc_0 = dtv.dvbt2_cellinterleaver_cc(dtv.FECFRAME_NORMAL, dtv.MOD_QPSK, 48, 3)
        self.dtv_dvb_ldpc_bb_0 = dtv.dvb_ldpc_bb(
            dtv.STANDARD_DVBT2,
            dtv.FECFRAME_NORMAL,
            dtv.C1_2,
            dtv.MOD_OTHER)
        self.dtv_dvb_bch_bb_0 = dtv.dvb_bch_bb(
            dtv.STANDARD_DVBT2,
            dtv.FECFRAME_NORMAL,
            dtv.C1_2
            )
        self.dtv_dvb_bbscrambler_bb_0 = dtv.dvb_bbscrambler_bb(
            dtv.STANDARD_DVBT2,
            dtv.FECFRAME_NORMAL,
            dtv.C1_2
            )
        self.dtv_dvb_bbheader_bb_0 = dtv.dvb_bbheader_bb(
        dtv.STANDARD_DVBT2,
        dtv.FECFRAME_NORMAL,
        dtv.C1_2,
        dtv.RO_0_35,
        dtv.INPUTMODE_NORMAL,
        dtv.INBAND_OFF,
        168,
        4000000)
        self.digital_ofdm_cyclic_prefixer_0 = digital.ofdm_cyclic_prefixer(
            1024,
            1024 + 1024 // 8,
            0,
            '')
        self.blocks_multiply_const_xx_0 = blocks.multiply_const_cc(0.2, 1)
        self.source = blocks.vector_source_b(packets, False)
        self.sink = blocks.file_sink(gr.sizeof_gr_complex, path, False)
        self.connect((self.source, 0), (self.dtv_dvb_bbheader_bb_0, 0))
        self.connect((self.blocks_multiply_const_xx_0, 0), (self.sink, 0))
        self.connect((self.digital_ofdm_cyclic_prefixer_0, 0), (self.dtv_dvbt2_p1insertion_cc_0, 0))
        self.connect((self.dtv_dvb_bbheader_bb_0, 0), (self.dtv_dvb_bbscrambler_bb_0, 0))
        self.connect((self.dtv_dvb_bbscrambler_bb_0, 0), (self.dtv_dvb_bch_bb_0, 0))
        self.connect((self.dtv_dvb_bch_bb_0, 0), (self.dtv_dvb_ldpc_bb_0, 0))
        self.connect((self.dtv_dvb_ldpc_bb_0, 0), (self.dtv_dvbt2_interleaver_bb_0, 0))
        self.connect((self.dtv_dvbt2_cellinterleaver_cc_0, 0), (self.dtv_dvbt2_framemapper_cc_0, 0))
        self.connect((self.dtv_dvbt2_framemapper_cc_0, 0), (self.dtv_dvbt2_freqinterleaver_cc_0, 0))
        self.connect((self.dtv_dvbt2_freqinterleaver_cc_0, 0), (self.dtv_dvbt2_pilotgenerator_cc_0, 0))
        self.connect((self.dtv_dvbt2_interleaver_bb_0, 0), (self.dtv_dvbt2_modulator_bc_0, 0))
        self.connect((self.dtv_dvbt2_modulator_bc_0, 0), (self.dtv_dvbt2_cellinterleaver_cc_0, 0))
        self.connect((self.dtv_dvbt2_p1insertion_cc_0, 0), (self.blocks_multiply_const_xx_0, 0))
        self.connect((self.dtv_dvbt2_pilotgenerator_cc_0, 0), (self.digital_ofdm_cyclic_prefixer_0, 0))


# One T2 frame: 48 BBFRAMEs of 4021 bytes, in packets of 188 bytes starting with 0x47.
rng = numpy.random.RandomState(7)
packets = rng.randint(0, 256, size=(48 * 4021 // 188 + 1, 188))
packets[:, 0] = 0x47
tb = vv011_1kfft([int(x) for x in packets.flatten()], sys.argv[1] + ".cfile")
tb.run()

names = ["STANDARD_DVBT2", "FECFRAME_SHORT", "C3_5", "C2_5", "MOD_64QAM", "MOD_256QAM",
         "ROTATION_ON", "FFTSIZE_32K", "GI_19_256", "PILOT_PP7", "PREAMBLE_T2_MISO",
         "PAPR_TR", "VERSION_131", "CARRIERS_EXTENDED", "L1_MOD_16QAM", "INPUTMODE_HIEFF"]
_results.write({
    "dtv": {n: int(getattr(dtv, n)) for n in names},
    "digital": {n: int(getattr(digital, n)) for n in [
        "TED_GARDNER", "TED_MUELLER_AND_MULLER", "TED_SIGNUM_TIMES_SLOPE_ML", "IR_MMSE_8TAP",
        "IR_PFB_MF", "THRESHOLD_DYNAMIC", "THRESHOLD_ABSOLUTE", "DIFF_NRZI", "SNR_EST_M2M4"]},
})
