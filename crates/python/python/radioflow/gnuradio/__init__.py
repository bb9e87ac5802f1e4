"""GNU Radio 3.10's Python API on radioflow: a GNU Radio script runs with its imports changed
(``from gnuradio import gr, blocks`` -> ``from radioflow.gnuradio import gr, blocks``), or
unchanged with the import hook: ``radioflow.gnuradio.install()`` first, or
``python3 -m radioflow.gnuradio script.py [args]``.

Modules: ``gr`` (top_block, sync/decim/interp blocks, tag_t, io_signature, sizeof_*), ``pmt``,
``blocks``, ``analog``, ``filter`` (``firdes``, ``window``, ``pfb``), ``fft`` (``window``),
``digital``, ``channels``, ``pdu``, ``network``, ``zeromq``, ``audio``, ``dtv``, ``fec``,
``qtgui`` (raises: no Qt), ``eng_notation``, ``eng_arg``. The blocks' constructors are generated
from the GNU Radio table (the one the ``.grc`` loader reads) and GNU Radio's own block
definitions, so they take GNU Radio's arguments; each makes radioflow's native block.
docs/python.md ("Coming from GNU Radio") lists what differs.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Optional, Sequence

MODULES = (
    "gr", "pmt", "blocks", "analog", "filter", "fft", "digital", "channels", "pdu", "network",
    "zeromq", "audio", "qtgui", "dtv", "fec", "eng_notation", "eng_arg",
)


class _Alias(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        pass


class _Finder(importlib.abc.MetaPathFinder):
    """Resolves ``gnuradio`` and ``gnuradio.X`` to ``radioflow.gnuradio`` and its ``X``."""

    def find_spec(
        self, fullname: str, path: Optional[Sequence[str]] = None, target: object = None
    ) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname == "pmt":  # GNU Radio installs pmt as a top-level module too
            return importlib.machinery.ModuleSpec(fullname, _Alias("radioflow.gnuradio.pmt"))
        if fullname != "gnuradio" and not fullname.startswith("gnuradio."):
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias("radioflow." + fullname))


_FINDER = _Finder()


def _ours(name: str) -> bool:
    return name in ("gnuradio", "pmt") or name.startswith("gnuradio.")


def install() -> None:
    """Makes ``import gnuradio``, ``from gnuradio import X`` and ``import pmt`` give radioflow's
    (opt-in: call it before the script's imports). A GNU Radio module radioflow lacks raises
    ImportError naming it."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    for name in [n for n in sys.modules if _ours(n)]:
        if not getattr(sys.modules[name], "__name__", "").startswith("radioflow."):
            del sys.modules[name]


def uninstall() -> None:
    """Undoes :func:`install` (GNU Radio's own modules import again)."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for name in [n for n in sys.modules if _ours(n)]:
        del sys.modules[name]


def __getattr__(name: str) -> ModuleType:
    if name in MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'radioflow.gnuradio' has no attribute {name!r}")


__all__ = ["MODULES", "install", "uninstall"]
