"""Runs a .grc flowgraph with a vector sink on each output named: ``run_grc.py out.json
FLOWGRAPH.grc attr[:port]:type ...`` (type f, c, b, s, i as vector_sink_X). With GNU Radio's
Python, grcc writes the flowgraph's script (and its embedded blocks' modules) to a temporary
folder and its top_block class runs; through ``python3 -m radioflow.gnuradio`` (the import
hook on), ``radioflow.gnuradio.grc.load`` builds it. Only the top block runs in both (not
GRC's ``main``, nor its snippets)."""

import importlib.util
import os
import subprocess
import sys
import tempfile

from gnuradio import blocks, gr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

path, outputs = sys.argv[2], sys.argv[3:]
if gr.__name__.startswith("radioflow."):
    from radioflow.gnuradio import grc

    tb = grc.load(path).tb
else:
    folder = tempfile.mkdtemp()
    subprocess.run(["grcc", "-o", folder, path], check=True, capture_output=True)
    # The test flowgraphs' ids are their file names: grcc names the script and class so.
    name = os.path.splitext(os.path.basename(path))[0]
    sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tb = getattr(module, name)()
sinks = {}
for out in outputs:
    attr, _, rest = out.partition(":")
    port, _, kind = rest.rpartition(":")
    sink = getattr(blocks, "vector_sink_" + kind)()
    tb.connect((getattr(tb, attr), int(port or 0)), sink)
    sinks[out] = sink
tb.run()
_results.write({k: {"data": list(s.data()), "tags": sorted(_results.tags(s))} for k, s in sinks.items()})
