"""Ctrl-C stops a running graph cleanly."""

import os
import signal
import subprocess
import sys
import time

SCRIPT = r"""
import faulthandler, signal
faulthandler.register(signal.SIGUSR1, all_threads=True)  # the test's diagnosis of a hang
# Ctrl-C raises KeyboardInterrupt as in a terminal, also when the test suite runs in the
# background (a background job of a shell starts with SIGINT ignored, and Python then leaves
# it ignored: the Ctrl-C below would never arrive).
signal.signal(signal.SIGINT, signal.default_int_handler)
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


def native_stacks(pid):
    """Every thread's native stack of process `pid` (gdb), or why there are none."""
    try:
        r = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                           capture_output=True, text=True, timeout=120)
        return r.stdout[-20000:]
    except (OSError, subprocess.SubprocessError) as e:
        return f"(no native stacks: {e})"


def test_ctrl_c_stops_the_graph(scheduler):
    p = subprocess.Popen([sys.executable, "-c", SCRIPT, scheduler], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "running"
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            # A hang: fail with the Python and native stacks of every thread, so that it
            # says where it waits.
            stacks = native_stacks(p.pid)
            p.send_signal(signal.SIGUSR1)
            time.sleep(1)
            p.kill()
            out, err = p.communicate()
            raise AssertionError(
                f"no exit 60 s after Ctrl-C ({scheduler})\npython stacks:\n{err}\n"
                f"native stacks:\n{stacks}"
            )
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert out.strip() == "interrupted False True", err
    assert p.returncode == 0, err
