"""GNU Radio's ``gnuradio.digital`` on radioflow: the constructors (generated from the GNU
Radio table and GNU Radio's block definitions, ``_names.py``), with ``digital.psk``."""

import types as _types

from ._constructors import namespace as _namespace

globals().update(_namespace("digital"))

psk = _types.ModuleType("radioflow.gnuradio.digital.psk", "GNU Radio's gnuradio.digital.psk")
psk.__dict__.update(_namespace("digital.psk"))
