#!/usr/bin/python3
"""GNU Radio's side of `radioflow bench grc`: a flowgraph that `grcc` compiled (from the
rewritten .grc: heads after the sources, sinks of the rewrite's own) imported once and run
on request, timed around start()/wait() only (construction, Python startup and the import
excluded), as radioflow's side is timed around its run.

    /usr/bin/python3 peers/gnuradio/grc_bench.py DIR MODULE SINK[,SINK...]

DIR holds MODULE.py (the class MODULE inside). For each line `run` on stdin: a new top block
is made, started and waited for, and one JSON line is printed: {"seconds": s, "items":
{sink: items read}}. Any other line (or the end of stdin) ends the program. Errors are one
JSON line {"error": "..."}.
"""

import importlib
import json
import sys
import time


def main():
    folder, module, sinks = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    sys.path.insert(0, folder)
    try:
        top = getattr(importlib.import_module(module), module)
    except Exception as e:  # any import error is reported, not raised
        print(json.dumps({"error": f"import {module}: {e}"}), flush=True)
        return
    for line in sys.stdin:
        if line.strip() != "run":
            break
        try:
            tb = top()
            t0 = time.perf_counter()
            tb.start()
            tb.wait()
            seconds = time.perf_counter() - t0
            items = {}
            for name in sinks:
                sink = getattr(tb, name)
                items[name] = sink.nitems_read(0)
                # A file sink writes through a buffer: flushed before the files are read.
                if hasattr(sink, "close"):
                    sink.close()
            del tb
            print(json.dumps({"seconds": seconds, "items": items}), flush=True)
        except Exception as e:
            print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
            return


if __name__ == "__main__":
    main()
