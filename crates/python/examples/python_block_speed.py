"""How fast a block written in Python runs, per item, next to the same block in Rust.

null_source -> head(N) -> multiply by 2 -> null_sink, float32, with the multiply done by
``blocks.multiply_const`` (native) or by a ``SyncBlock`` whose work is one numpy call (and,
for scale, a pure-Python loop over a few items). Runs alternate; the medians are printed.

    python3 crates/python/examples/python_block_speed.py [--items 20000000] [--runs 5]
"""

import argparse
import statistics
import time

import numpy as np

import radioflow as rf
from radioflow import blocks


class NumpyScale(rf.SyncBlock):
    def __init__(self, k):
        super().__init__("numpy_scale", in_sig=[np.float32], out_sig=[np.float32])
        self.k = np.float32(k)

    def work(self, input_items, output_items):
        np.multiply(input_items[0], self.k, out=output_items[0])
        return len(output_items[0])


class LoopScale(rf.SyncBlock):
    def __init__(self, k):
        super().__init__("loop_scale", in_sig=[np.float32], out_sig=[np.float32])
        self.k = k

    def work(self, input_items, output_items):
        i, o = input_items[0], output_items[0]
        for n in range(len(o)):
            o[n] = i[n] * self.k
        return len(o)


def run(kind, items, scheduler):
    fg = rf.Flowgraph()
    block = {
        "native": lambda: blocks.multiply_const(2.0),
        "numpy": lambda: NumpyScale(2.0),
        "loop": lambda: LoopScale(2.0),
    }[kind]()
    sink = blocks.null_sink()
    fg.connect(blocks.null_source(), blocks.head(items), block, sink)
    t0 = time.perf_counter()
    fg.run(scheduler)
    seconds = time.perf_counter() - t0
    assert fg.stats(sink)["work_calls"] > 0
    return seconds, fg.stats(block)["work_calls"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=float, default=2e7)
    ap.add_argument("--loop-items", type=float, default=2e5)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scheduler", default="flow", choices=rf.SCHEDULERS)
    args = ap.parse_args()
    sizes = {"native": int(args.items), "numpy": int(args.items), "loop": int(args.loop_items)}
    times = {k: [] for k in sizes}
    calls = {}
    for _ in range(args.runs):
        for kind, n in sizes.items():
            s, c = run(kind, n, args.scheduler)
            times[kind].append(s)
            calls[kind] = c
    native = statistics.median(times["native"]) / sizes["native"]
    print(f"scheduler {args.scheduler}, median of {args.runs} alternated runs")
    print(f"{'block':<28}{'items':>12}{'work calls':>12}{'ns/item':>10}{'vs native':>11}")
    for kind, label in [("native", "native multiply_const"),
                        ("numpy", "Python SyncBlock (numpy)"),
                        ("loop", "Python SyncBlock (for loop)")]:
        per_item = statistics.median(times[kind]) / sizes[kind]
        print(f"{label:<28}{sizes[kind]:>12}{calls[kind]:>12}{per_item * 1e9:>10.2f}"
              f"{per_item / native:>10.1f}x")


if __name__ == "__main__":
    main()
