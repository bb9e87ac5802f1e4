"""GNU Radio's ``gnuradio.eng_notation``: numbers with SI suffixes (``"10k"``, ``"2.4G"``)."""

from __future__ import annotations

_SUFFIXES = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1, ""), (1e-3, "m"),
             (1e-6, "u"), (1e-9, "n"), (1e-12, "p"), (1e-15, "f")]
_SCALE = {"T": 1e12, "G": 1e9, "M": 1e6, "k": 1e3, "m": 1e-3, "u": 1e-6, "n": 1e-9,
          "p": 1e-12, "f": 1e-15}


def num_to_str(n: float, precision: int = 6) -> str:
    """`n` with an SI suffix, GNU Radio's way (``num_to_str(10e3) == "10k"``)."""
    m = abs(n)
    for scale, suffix in _SUFFIXES:
        if m >= scale:
            return f"{n / scale:.{precision}g}{suffix}"
    return f"{n:.{precision}g}"


def str_to_num(value: str) -> float:
    """``"10k"`` as 10000.0."""
    value = value.strip()
    if value and value[-1] in _SCALE:
        return float(value[:-1]) * _SCALE[value[-1]]
    return float(value)
