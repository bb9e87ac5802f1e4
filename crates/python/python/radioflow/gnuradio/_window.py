"""GNU Radio's ``fft.window``: the window types (``window.WIN_HAMMING``...) and their
coefficients, radioflow's firdes windows."""

from __future__ import annotations

from typing import List

from .. import _native
from ._constants import CONSTANTS, Constant


class window:  # noqa: N801 - GNU Radio's name
    """``window.WIN_HAMMING`` and the others; ``window.build(type, ntaps, beta)``,
    ``window.hamming(ntaps)``..."""

    @staticmethod
    def build(type: Constant, ntaps: int, beta: float = 6.76, param: float = 0.0) -> List[float]:
        return _native.window_coefficients(_word(type), int(ntaps), float(beta))

    @staticmethod
    def rectangular(ntaps: int) -> List[float]:
        return _native.window_coefficients("rectangular", int(ntaps), 0.0)

    @staticmethod
    def hamming(ntaps: int) -> List[float]:
        return _native.window_coefficients("hamming", int(ntaps), 0.0)

    @staticmethod
    def hann(ntaps: int) -> List[float]:
        return _native.window_coefficients("hann", int(ntaps), 0.0)

    hanning = hann

    @staticmethod
    def blackman(ntaps: int) -> List[float]:
        return _native.window_coefficients("blackman", int(ntaps), 0.0)

    @staticmethod
    def blackman_harris(ntaps: int, atten: int = 92) -> List[float]:
        return _native.window_coefficients("blackman_harris", int(ntaps), 0.0)

    @staticmethod
    def kaiser(ntaps: int, beta: float) -> List[float]:
        return _native.window_coefficients("kaiser", int(ntaps), float(beta))


for _name, _c in CONSTANTS.get("window", {}).items():
    setattr(window, _name, _c)


def _word(w: object) -> str:
    if isinstance(w, Constant):
        return w.word
    if isinstance(w, int):
        for c in CONSTANTS.get("window", {}).values():
            if int(c) == int(w):
                return c.word
    raise ValueError(f"{w!r} is not a window (window.WIN_HAMMING, ...)")
