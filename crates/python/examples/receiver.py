"""A small receiver: tune to one of two stations, filter it, plot the spectrum.

    vector_source (1 MS/s complex "antenna" signal: two AM stations + noise)
        -> multiply <- signal_source (local oscillator at -station frequency)
        -> fir_filter (101-tap low-pass, windowed sinc)
        -> vector_sink

The antenna signal is made with numpy, the graph runs in radioflow, and matplotlib plots the
spectrum before and after to a PNG. The script checks its own result: the wanted station ends
up at 0 Hz, the other one is attenuated by the filter.

    python3 crates/python/examples/receiver.py [--out receiver.png] [--scheduler flow]
"""

import argparse

import numpy as np

import radioflow as rf
from radioflow import blocks

FS = 1_000_000.0  # samples per second
N = 1 << 18
WANTED, OTHER = 150_000.0, -250_000.0  # station carriers, Hz
TONE = 1_000.0  # audio tone on the wanted station, Hz


def antenna(rng):
    t = np.arange(N) / FS
    wanted = (1 + 0.5 * np.cos(2 * np.pi * TONE * t)) * np.exp(2j * np.pi * WANTED * t)
    other = 2.0 * np.exp(2j * np.pi * OTHER * t)
    noise = 0.05 * (rng.standard_normal(N) + 1j * rng.standard_normal(N))
    return (wanted + other + noise).astype(np.complex64)


def lowpass(cutoff, taps=101):
    n = np.arange(taps) - (taps - 1) / 2
    h = np.sinc(2 * cutoff / FS * n) * np.hamming(taps)
    return (h / h.sum()).astype(np.float32)


def spectrum_db(x, nfft=4096):
    frames = x[: len(x) // nfft * nfft].reshape(-1, nfft) * np.hanning(nfft)
    p = np.mean(np.abs(np.fft.fftshift(np.fft.fft(frames, axis=1), axes=1)) ** 2, axis=0)
    f = np.fft.fftshift(np.fft.fftfreq(nfft, 1 / FS))
    return f, 10 * np.log10(p + 1e-20)


def power_at(f, p_db, freq):
    return p_db[np.argmin(np.abs(f - freq))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="receiver.png", help="PNG file for the plot")
    ap.add_argument("--scheduler", default="flow", choices=rf.SCHEDULERS)
    args = ap.parse_args()

    x = antenna(np.random.default_rng(1))
    fg = rf.Flowgraph()
    src = blocks.vector_source(x)
    lo = blocks.signal_source(FS, "cosine", -WANTED, dtype=np.complex64)
    mixer = blocks.multiply(np.complex64)
    fir = blocks.fir_filter(lowpass(20_000.0), np.complex64)
    sink = blocks.vector_sink(np.complex64)
    fg.connect(src, (mixer, 0))
    fg.connect(lo, (mixer, 1))
    fg.connect(mixer, fir, sink)
    fg.run(args.scheduler)
    y = sink.data()
    assert y.size == N, f"expected {N} samples, got {y.size}"

    f, before = spectrum_db(x)
    _, after = spectrum_db(y)
    wanted = power_at(f, after, 0.0)
    other = power_at(f, after, OTHER - WANTED)
    print(f"{y.size} samples through {', '.join(fg.block_names())} ({args.scheduler})")
    print(f"after: wanted carrier at 0 Hz {wanted:.1f} dB, other station {other:.1f} dB "
          f"({wanted - other:.0f} dB apart)")
    assert wanted - other > 40, "the filter should suppress the other station"

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.plot(f / 1e3, before, label="antenna", linewidth=0.8)
    ax.plot(f / 1e3, after, label="mixed down + FIR low-pass", linewidth=0.8)
    ax.set_xlabel("frequency (kHz)")
    ax.set_ylabel("power (dB)")
    ax.set_title("radioflow receiver: station at 150 kHz tuned to 0 Hz")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"spectrum plot: {args.out}")


if __name__ == "__main__":
    main()
