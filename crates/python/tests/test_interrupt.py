"""Ctrl-C stops a running graph cleanly."""

import os
import signal
import subprocess
import sys
import time

SCRIPT = r"""
import numpy as np, radioflow as rf, sys
from radioflow import blocks

class Slow(rf.SyncBlock):
    def __init__(self):
        super().__init__("slow", in_sig=[np.float32], out_sig=[np.float32])
    def work(self, i, o):
        o[0][:] = i[0]
        return len(o[0])

fg = rf.Flowgraph()
sink = blocks.null_sink()
fg.connect(blocks.null_source(), Slow(), sink)
print("running", flush=True)
try:
    fg.run(sys.argv[1])
except KeyboardInterrupt:
    print("interrupted", fg.is_running(), fg.stats(sink)["items_produced"] >= 0, flush=True)
"""


def test_ctrl_c_stops_the_graph(scheduler):
    p = subprocess.Popen([sys.executable, "-c", SCRIPT, scheduler], stdout=subprocess.PIPE,
                         text=True)
    try:
        assert p.stdout.readline().strip() == "running"
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert out.strip() == "interrupted False True"
    assert p.returncode == 0
