"""GNU Radio's ``filter.firdes``: the windowed FIR designs, computed by the same code radioflow's
blocks design their taps with."""

from __future__ import annotations

from typing import Any, List

from .. import _native
from ._window import _word, window

_HAMMING = window.WIN_HAMMING  # type: ignore[attr-defined]


def _real(design: str, numbers: List[Any], win: Any, beta: float) -> List[float]:
    return _native.firdes_real(design, [float(x) for x in numbers], _word(win), float(beta))


class firdes:  # noqa: N801 - GNU Radio's name
    """``firdes.low_pass(gain, sampling_freq, cutoff_freq, transition_width, window=
    window.WIN_HAMMING, param=6.76)`` and the others, with GNU Radio's arguments."""

    @staticmethod
    def low_pass(gain, sampling_freq, cutoff_freq, transition_width, window=_HAMMING, param=6.76):
        return _real("low_pass", [gain, sampling_freq, cutoff_freq, transition_width], window, param)

    @staticmethod
    def high_pass(gain, sampling_freq, cutoff_freq, transition_width, window=_HAMMING, param=6.76):
        return _real("high_pass", [gain, sampling_freq, cutoff_freq, transition_width], window, param)

    @staticmethod
    def band_pass(gain, sampling_freq, low_cutoff_freq, high_cutoff_freq, transition_width,
                  window=_HAMMING, param=6.76):
        return _real("band_pass", [gain, sampling_freq, low_cutoff_freq, high_cutoff_freq,
                                   transition_width], window, param)

    @staticmethod
    def band_reject(gain, sampling_freq, low_cutoff_freq, high_cutoff_freq, transition_width,
                    window=_HAMMING, param=6.76):
        return _real("band_reject", [gain, sampling_freq, low_cutoff_freq, high_cutoff_freq,
                                     transition_width], window, param)

    @staticmethod
    def low_pass_2(gain, sampling_freq, cutoff_freq, transition_width, attenuation_dB,
                   window=_HAMMING, param=6.76):
        return _real("low_pass_2", [gain, sampling_freq, cutoff_freq, transition_width,
                                    attenuation_dB], window, param)

    @staticmethod
    def high_pass_2(gain, sampling_freq, cutoff_freq, transition_width, attenuation_dB,
                    window=_HAMMING, param=6.76):
        return _real("high_pass_2", [gain, sampling_freq, cutoff_freq, transition_width,
                                     attenuation_dB], window, param)

    @staticmethod
    def band_pass_2(gain, sampling_freq, low_cutoff_freq, high_cutoff_freq, transition_width,
                    attenuation_dB, window=_HAMMING, param=6.76):
        return _real("band_pass_2", [gain, sampling_freq, low_cutoff_freq, high_cutoff_freq,
                                     transition_width, attenuation_dB], window, param)

    @staticmethod
    def band_reject_2(gain, sampling_freq, low_cutoff_freq, high_cutoff_freq, transition_width,
                      attenuation_dB, window=_HAMMING, param=6.76):
        return _real("band_reject_2", [gain, sampling_freq, low_cutoff_freq, high_cutoff_freq,
                                       transition_width, attenuation_dB], window, param)

    @staticmethod
    def complex_band_pass(gain, sampling_freq, low_cutoff_freq, high_cutoff_freq,
                          transition_width, window=_HAMMING, param=6.76):
        return _native.firdes_complex_band_pass(
            float(gain), float(sampling_freq), float(low_cutoff_freq), float(high_cutoff_freq),
            float(transition_width), _word(window), float(param))

    @staticmethod
    def root_raised_cosine(gain, sampling_freq, symbol_rate, alpha, ntaps):
        return _real("root_raised_cosine", [gain, sampling_freq, symbol_rate, alpha, ntaps],
                     _HAMMING, 0.0)

    @staticmethod
    def gaussian(gain, spb, bt, ntaps):
        return _real("gaussian", [gain, spb, bt, ntaps], _HAMMING, 0.0)

    @staticmethod
    def hilbert(ntaps=19, windowtype=_HAMMING, param=6.76):
        return _real("hilbert", [ntaps], windowtype, param)
