"""``python3 -m radioflow.gnuradio script.py [args]``: runs a GNU Radio script on radioflow,
its ``gnuradio`` imports resolved to ``radioflow.gnuradio``."""

import os
import runpy
import sys

from . import install


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python3 -m radioflow.gnuradio script.py [args]")
    install()
    sys.argv = sys.argv[1:]
    # As `python3 script.py` does: the script's folder first (grcc writes a flowgraph's
    # embedded Python blocks beside it, and the script imports them).
    sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
    runpy.run_path(sys.argv[0], run_name="__main__")


main()
