"""radioflow: a dataflow runtime for software-defined radio, driven from Python.

Build a graph of blocks, connect them, run it; the graph runs natively with the interpreter
released, on the scheduler you choose::

    import numpy as np
    import radioflow as rf
    from radioflow import blocks

    fg = rf.Flowgraph()
    src = blocks.signal_source(48_000, "cosine", 1_000, dtype=np.complex64)
    head = blocks.head(48_000, dtype=np.complex64)
    sink = blocks.vector_sink(np.complex64)
    fg.connect(src, head, sink)
    fg.run()                      # or fg.run("tpb"), fg.run(rf.Scheduler("flow", workers=2))
    samples = sink.data()         # numpy.ndarray, complex64, no copy

The same graph runs across machines: give each block a host (``fg.set_host(block, "a")``)
and call ``fg.run_on_hosts({"a": "10.0.0.1:7300", ...}, token)``; each machine runs
``radioflow serve`` (or a :class:`HostServer` in a Python process).

GNU Radio 3.10 scripts run with their imports changed to :mod:`radioflow.gnuradio` (or
unchanged: ``python3 -m radioflow.gnuradio script.py``). Blocks written in Python subclass
:class:`SyncBlock`; PMT messages map to Python values (see
:mod:`radioflow.pmt`). Errors raised by the runtime are :class:`Error` subclasses whose
message names the block and port at fault.
"""

from ._native import (
    DTYPES,
    SCHEDULERS,
    Block,
    ConnectError,
    Error,
    HostServer,
    Pair,
    RunError,
    Scheduler,
)
from ._flowgraph import Flowgraph
from ._sync_block import WORK_DONE, DecimBlock, InterpBlock, SyncBlock
from . import blocks, pmt

__all__ = [
    "DTYPES",
    "SCHEDULERS",
    "WORK_DONE",
    "Block",
    "DecimBlock",
    "ConnectError",
    "Error",
    "Flowgraph",
    "HostServer",
    "InterpBlock",
    "Pair",
    "RunError",
    "Scheduler",
    "SyncBlock",
    "blocks",
    "pmt",
]
