#!/usr/bin/env python3
"""CPU seconds of one run (the test suite, a step) from Linux process accounting.

usage: python3 scripts/acct-summary.py ACCT_FILE ROOT_PID [START_EPOCH]

Counts every process descended from ROOT_PID (the shell that ran `bash .ci/run`, or one of its
steps) in ACCT_FILE (written by `accton ACCT_FILE`, read with dump-acct), and prints the total,
the total by command name, by direct child of ROOT_PID (the suite's steps, with their start
and elapsed seconds since START_EPOCH) and by minute. Other processes on the machine (other
builds) are left out, which is why CPU seconds stay comparable on a shared machine where wall
time does not. A process is accounted when it exits: run this after the run has ended.

PIDs are reused on a busy machine within minutes, so a record's parent is the record of its
parent PID whose lifetime covers the child's start, not merely the last process with that PID.
See docs/notes/suite-time.md for how the suite was measured.
"""
import collections
import datetime
import subprocess
import sys


def records(path):
    out = subprocess.run(["dump-acct", path], capture_output=True, text=True, check=True).stdout
    recs = []
    for line in out.splitlines():
        f = [x.strip() for x in line.split("|")]
        if len(f) < 15:
            continue
        start = datetime.datetime.strptime(f[14], "%a %b %d %H:%M:%S %Y").timestamp()
        recs.append(dict(i=len(recs), comm=f[0], cpu=(float(f[2]) + float(f[3])) / 100,
                         sys=float(f[3]) / 100, el=float(f[4]) / 100, pid=int(f[9]),
                         ppid=int(f[10]), t=start))
    return recs


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    recs = records(sys.argv[1])
    root = int(sys.argv[2])
    t0 = float(sys.argv[3]) if len(sys.argv) > 3 else min(r["t"] for r in recs)
    bypid = collections.defaultdict(list)
    for r in recs:
        bypid[r["pid"]].append(r)

    def parent(r):
        # Start times have a resolution of one second.
        found = [p for p in bypid.get(r["ppid"], [])
                 if p is not r and p["t"] - 1 <= r["t"] <= p["t"] + p["el"] + 2]
        return max(found, key=lambda p: p["t"]) if found else None

    memo = {}

    def chain(r):
        """r and its ancestors up to the child of root, or None if root is not an ancestor."""
        if r["i"] not in memo:
            memo[r["i"]] = None
            if r["ppid"] == root:
                memo[r["i"]] = [r]
            else:
                p = parent(r)
                up = chain(p) if p is not None else None
                memo[r["i"]] = [r] + up if up is not None else None
        return memo[r["i"]]

    sel = [(r, c) for r in recs if r["t"] >= t0 - 5 for c in [chain(r)] if c is not None]
    total = sum(r["cpu"] for r, _ in sel)
    print(f"{len(sel)} processes, {total:.0f} CPU-s ({sum(r['sys'] for r, _ in sel):.0f} in the kernel)")
    by = collections.Counter()
    for r, _ in sel:
        by[r["comm"]] += r["cpu"]
    print("by command:", ", ".join(f"{k} {v:.0f}" for k, v in by.most_common(20)))
    top = collections.Counter()
    sub = collections.defaultdict(collections.Counter)
    for r, c in sel:
        top[c[-1]["i"]] += r["cpu"]
        sub[c[-1]["i"]][r["comm"]] += r["cpu"]
    print(f"by child of {root} (start s, elapsed s, CPU-s, its commands):")
    for i in sorted(top, key=lambda i: recs[i]["t"]):
        if top[i] >= 2:
            t = recs[i]
            print(f"  {t['comm']:15s} @{t['t'] - t0:5.0f} {t['el']:5.0f} {top[i]:6.0f}  "
                  + ", ".join(f"{k} {v:.0f}" for k, v in sub[i].most_common(4)))
    minute = collections.Counter()
    for r, _ in sel:
        # Each process's CPU spread evenly over its lifetime.
        a = r["t"] - t0
        b = a + max(r["el"], 0.01)
        m = int(a // 60)
        while m * 60 < b:
            minute[m] += r["cpu"] * (min(b, (m + 1) * 60) - max(a, m * 60)) / (b - a)
            m += 1
    print("CPU-s by minute (120 = both cores busy):",
          " ".join(f"{m}:{v:.0f}" for m, v in sorted(minute.items())))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # piped into head
        sys.exit(0)
