"""GNU Radio's ``gnuradio.digital`` on radioflow: the constructors (generated from the GNU
Radio table and GNU Radio's block definitions, ``_names.py``), with ``digital.psk``, the
constants, and the objects GRC variables make (``digital.constellation_qpsk()``,
``digital.header_format_default(...)``: ``_grc_objects.py``)."""

import types as _types

from .. import _native

from ._constructors import namespace as _namespace

globals().update(_namespace("digital"))

psk = _types.ModuleType("radioflow.gnuradio.digital.psk", "GNU Radio's gnuradio.digital.psk")
psk.__dict__.update(_namespace("digital.psk"))

# GNU Radio's digital.constellation class holds the normalizations constellation_calcdist and
# constellation_rect take (digital.constellation.AMPLITUDE_NORMALIZATION).
constellation = _types.SimpleNamespace(**_namespace("digital.constellation"))
packet_utils = _types.SimpleNamespace(
    default_access_code=_native.gnuradio_eval("digital.packet_utils.default_access_code")[1]
)


def __getattr__(name: str) -> object:
    """GNU Radio's functions that make the objects GRC variables hold
    (``digital.constellation_qpsk``), from radioflow's GRC evaluator."""
    from . import _grc_objects

    made = None if name.startswith("_") else _grc_objects.function("digital", name)
    if made is None:
        raise AttributeError(f"module 'radioflow.gnuradio.digital' has no attribute {name!r}")
    globals()[name] = made
    return made
