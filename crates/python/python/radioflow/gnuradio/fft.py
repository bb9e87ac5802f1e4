"""GNU Radio's ``gnuradio.fft`` on radioflow: the constructors (generated, ``_names.py``) and
``window``."""

from ._constructors import namespace as _namespace
from ._window import window

globals().update(_namespace("fft"))
