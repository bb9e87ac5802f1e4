"""GNU Radio's ``gnuradio.network`` on radioflow: the constructors (generated, ``_names.py``)."""

import types as _types

from ._constructors import namespace as _namespace

globals().update(_namespace("network"))

tcp_source = _types.ModuleType(
    "radioflow.gnuradio.network.tcp_source", "GNU Radio's gnuradio.network.tcp_source"
)
tcp_source.__dict__.update(_namespace("network.tcp_source"))
