"""GNU Radio's enumeration constants (``analog.GR_COS_WAVE``, ``window.WIN_HAMMING``, ...), the
ones ``.grc`` files name, from the native table (``_native.gnuradio_constants()``).

Each is an ``int`` equal to GNU Radio's number (``int(analog.GR_COS_WAVE) == 102``) that also
carries the word radioflow's blocks take for that choice (``"cosine"``)."""

from __future__ import annotations

from typing import Dict, List

from .. import _native
from ._names import ENUMS


class Constant(int):
    """An enumeration constant: GNU Radio's number, its Python name and radioflow's word."""

    word: str
    gr_name: str

    def __new__(cls, value: int, gr_name: str, word: str) -> "Constant":
        c = int.__new__(cls, value)
        c.word = word
        c.gr_name = gr_name
        return c

    def __repr__(self) -> str:
        return f"<{self.gr_name}: {int(self)}>"


def by_module() -> Dict[str, Dict[str, Constant]]:
    """``{module: {NAME: constant}}``; ``window`` constants under ``window``. The native
    table's constants first (their words are what radioflow's blocks take), then the rest of
    those GNU Radio's bindings export (``_names.ENUMS``: ``dtv.C3_5``, ``digital.THRESHOLD_DYNAMIC``),
    whose word is GNU Radio's name in lower case, as the native table writes the others."""
    out: Dict[str, Dict[str, Constant]] = {}
    for names, word, value in _native.gnuradio_constants():
        first = names[0]
        for name in names:
            module, _, attr = name.rpartition(".")
            out.setdefault(module, {})[attr] = Constant(value, first, word)
    for module, consts in ENUMS.items():
        mine = out.setdefault(module, {})
        for attr, value in consts.items():
            if attr not in mine:
                mine[attr] = Constant(value, f"{module}.{attr}", attr.lower())
    return out


CONSTANTS = by_module()


def words(value: object) -> object:
    """`value` with every constant in it replaced by its word (lists and tuples too)."""
    if isinstance(value, Constant):
        return value.word
    if isinstance(value, (list, tuple)):
        return type(value)(words(v) for v in value)
    return value


__all__: List[str] = ["CONSTANTS", "Constant", "words"]
