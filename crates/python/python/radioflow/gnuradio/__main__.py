"""``python3 -m radioflow.gnuradio script.py [args]``: runs a GNU Radio script on radioflow,
its ``gnuradio`` imports resolved to ``radioflow.gnuradio``."""

import runpy
import sys

from . import install


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python3 -m radioflow.gnuradio script.py [args]")
    install()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")


main()
