"""GNU Radio's ``gnuradio.zeromq`` on radioflow: its constructors (names, arguments, defaults) are
generated from the GNU Radio table and GNU Radio's block definitions (``_names.py``); each
makes radioflow's native block. A parameter value radioflow does not run raises ValueError
naming the block and parameter."""

from ._constructors import namespace as _namespace

globals().update(_namespace("zeromq"))
