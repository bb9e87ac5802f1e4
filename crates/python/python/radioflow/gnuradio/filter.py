"""GNU Radio's ``gnuradio.filter`` on radioflow: the constructors (generated from the GNU Radio
table and GNU Radio's block definitions, ``_names.py``), ``firdes``, ``window`` and ``pfb``."""

import types as _types

from ._constructors import namespace as _namespace
from ._firdes import firdes
from ._window import window

globals().update(_namespace("filter"))

#: ``from gnuradio.filter import pfb``
pfb = _types.ModuleType("radioflow.gnuradio.filter.pfb", "GNU Radio's gnuradio.filter.pfb")
pfb.__dict__.update(_namespace("filter.pfb"))

__all__ = sorted(k for k in globals() if not k.startswith("_") and k != "types")
