"""Runs the top_block class that grcc wrote to a file, with a vector sink on each output
named: ``run_example.py out.json generated.py ClassName attr[:port]:type ...`` (type f, c, b,
s, i as vector_sink_X). The example's own main() is not called (it may wait for Enter)."""

import importlib.util
import os
import sys

from gnuradio import blocks

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _results  # noqa: E402

path, cls_name, outputs = sys.argv[2], sys.argv[3], sys.argv[4:]
spec = importlib.util.spec_from_file_location("example", path)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)
tb = getattr(example, cls_name)()
sinks = {}
for out in outputs:
    attr, _, rest = out.partition(":")
    port, _, kind = rest.rpartition(":")
    sink = getattr(blocks, "vector_sink_" + kind)()
    tb.connect((getattr(tb, attr), int(port or 0)), sink)
    sinks[out] = sink
tb.run()
_results.write({k: {"data": list(s.data()), "tags": sorted(_results.tags(s))} for k, s in sinks.items()})
