"""GNU Radio's ``gnuradio.qtgui``: radioflow draws no Qt widgets. Every name raises an error
that says so and where radioflow shows the same: a ``.grc`` file run with ``radioflow grc run``
puts its GUI blocks on the live page; from Python, ``top_block.flowgraph().serve()`` serves the
live page with probes."""

from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(
        f"qtgui.{name}: radioflow.gnuradio draws no Qt widgets; run the .grc file with "
        "'radioflow grc run' (GUI blocks go to the live page) or serve the live page from "
        "Python with top_block.flowgraph().serve(probes=[...])"
    )
