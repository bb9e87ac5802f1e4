"""``python3 -m radioflow.gnuradio script.py [args]``: runs a GNU Radio script on radioflow,
its ``gnuradio`` imports resolved to ``radioflow.gnuradio``.

``python3 -m radioflow.gnuradio [--seconds N] FLOWGRAPH.grc``: runs a GNU Radio Companion
flowgraph, its embedded Python (``epy_block``, ``epy_module``, snippets) included (see
:mod:`radioflow.gnuradio.grc`); with ``--seconds``, stopped after N seconds if it has not
ended. Both run the Python the file holds: run only files you trust."""

import os
import runpy
import sys

from . import install

USAGE = "usage: python3 -m radioflow.gnuradio script.py [args] | [--seconds N] flowgraph.grc"


def _grc(args: list) -> None:
    from .grc import GrcError, run

    seconds = None
    if args[0] == "--seconds":
        if len(args) < 3:
            sys.exit(USAGE)
        try:
            seconds = float(args[1])
        except ValueError:
            sys.exit(f"--seconds {args[1]}: not a number of seconds")
        if not seconds > 0:
            sys.exit(f"--seconds {args[1]}: the time limit must be positive")
        args = args[2:]
    if len(args) != 1 or not args[0].endswith(".grc"):
        sys.exit(USAGE)
    try:
        fg = run(args[0], seconds)
    except GrcError as e:
        sys.exit(str(e))
    if fg.stopped:
        print(f"{args[0]}: stopped after {seconds:g} s")


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(USAGE)
    if sys.argv[1] == "--seconds" or sys.argv[1].endswith(".grc"):
        _grc(sys.argv[1:])
        return
    install()
    sys.argv = sys.argv[1:]
    # As `python3 script.py` does: the script's folder first (grcc writes a flowgraph's
    # embedded Python blocks beside it, and the script imports them).
    sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
    runpy.run_path(sys.argv[0], run_name="__main__")


main()
