"""GNU Radio's ``gnuradio.fec`` on radioflow: its constructors (names, arguments, defaults) are
generated from the GNU Radio table and GNU Radio's block definitions (``_names.py``); each
makes radioflow's native block. A parameter value radioflow does not run raises ValueError
naming the block and parameter."""

from ._constructors import namespace as _namespace

globals().update(_namespace("fec"))


def __getattr__(name: str) -> object:
    """GNU Radio's functions that make the objects GRC variables hold
    (``fec.cc_encoder_make``), from radioflow's GRC evaluator."""
    from . import _grc_objects

    made = None if name.startswith("_") else _grc_objects.function("fec", name)
    if made is None:
        raise AttributeError(f"module 'radioflow.gnuradio.fec' has no attribute {name!r}")
    globals()[name] = made
    return made
