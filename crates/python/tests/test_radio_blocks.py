"""The radio blocks reach Python through the registry with nothing written for them: the
DVB-S2 transmitter and the FM receiver's blocks, used from Python."""

import numpy as np

import radioflow as rf
from radioflow import blocks


def test_dvbs2_tx_frames_ts_packets_into_shaped_plframes():
    ts = np.zeros(188 * 40, np.uint8)
    ts[::188] = 0x47
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.complex64)
    fg.connect(blocks.vector_source(ts), blocks.dvbs2_tx(modcod="qpsk-8/9", frame="short"), sink)
    fg.run()
    # QPSK 8/9 short with pilots: 90 + 8100 + 5 * 36 symbols per PLFRAME, 2 samples each;
    # 40 packets fill 4 BBFRAMEs and part of a fifth, which is padded; then the RRC filter's
    # tail (±10 symbols, 40 samples).
    assert len(sink.data()) == 5 * 2 * (90 + 8100 + 5 * 36) + 40
    power = np.mean(np.abs(sink.data()) ** 2)
    # Unit-energy symbols through an RRC interpolator whose branches have unit gain.
    assert 0.8 < power < 1.2


def test_dvbs2_rx_reads_back_what_dvbs2_tx_sent():
    npackets = 300
    ts = np.zeros((npackets, 188), np.uint8)
    ts[:, 0] = 0x47
    ts[:, 4:8] = np.arange(npackets, dtype=">u4").view(np.uint8).reshape(npackets, 4)
    ts[:, 8:] = (np.arange(180) * 7 % 256).astype(np.uint8)
    sent = ts.ravel()
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.uint8)
    fg.connect(
        blocks.vector_source(sent),
        blocks.dvbs2_tx(modcod="16apsk-3/4", frame="short"),
        blocks.dvbs2_rx(rolloff="0.2"),
        sink,
    )
    fg.run()
    got = sink.data()
    assert len(got) % 188 == 0 and len(got) >= 200 * 188
    first = int(got[4:8].view(">u4")[0])
    # After lock, the packets sent, in order, none lost.
    assert np.array_equal(got, sent[first * 188 : first * 188 + len(got)])


def test_an_fm_demodulator_chain_from_python_recovers_a_tone():
    fs, f_tone, dev = 480e3, 1e3, 50e3
    n = np.arange(96_000)
    phase = 2 * np.pi * np.cumsum(dev * np.sin(2 * np.pi * f_tone * n / fs)) / fs
    iq = (np.exp(1j * phase) * np.exp(2j * np.pi * 100e3 * n / fs)).astype(np.complex64)
    taps = np.hamming(101) * np.sinc(2 * 80e3 / fs * (np.arange(101) - 50)) * 2 * 80e3 / fs
    fg = rf.Flowgraph()
    sink = blocks.vector_sink(np.float32)
    fg.connect(
        blocks.vector_source(iq),
        blocks.freq_xlating_fir_filter(taps, centre=100e3, sample_rate=fs, decimation=2),
        blocks.quadrature_demod(gain=(fs / 2) / (2 * np.pi * dev)),
        sink,
    )
    fg.run()
    audio = sink.data()[1000:]
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(len(audio))))
    peak_hz = np.argmax(spectrum) * (fs / 2) / len(audio)
    assert abs(peak_hz - f_tone) < 20
    assert 0.8 < np.max(np.abs(audio)) < 1.2  # the demodulator's gain makes the deviation 1
