"""GNU Radio's ``gnuradio.eng_arg``: argparse types that read SI suffixes."""

from __future__ import annotations

import argparse

from .eng_notation import str_to_num


def eng_float(value: str) -> float:
    try:
        return str_to_num(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid engineering notation value: {value!r}")


def intx(value: str) -> int:
    try:
        return int(value, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid integer value: {value!r}")
