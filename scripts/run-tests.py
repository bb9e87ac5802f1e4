#!/usr/bin/env python3
"""Runs the workspace's test binaries several at a time (what `cargo test --workspace` runs).

`cargo test` runs its test binaries one after the other: most hold a few tests, many of them
waiting on a subprocess (GNU Radio's Python, a browser, a server), so one binary at a time used
about 1.1 of the 2 cores of CI's machine (181 CPU-seconds in 165 s of wall time). Here the same
binaries, built by `cargo test --no-run` with the same options, run from a queue, JOBS at a time
(the longest first where an earlier run left their durations), each in its package's directory
with the environment cargo gives a test (CARGO, CARGO_MANIFEST_DIR, CARGO_PKG_*, the library
path), and the doc tests through `cargo test --doc` beside them. Each binary's output is printed
whole when it ends (with cargo's `Running` header), so `test result:` lines count as before.
Exits non-zero if any binary failed, naming each.

    scripts/run-tests.py [--jobs N] [-- CARGO TEST ARGS]   e.g. -- --locked --workspace
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DURATIONS = ROOT / "target" / "test-durations.json"


def cargo_env():
    """What cargo puts in every test's environment besides the package's own variables."""
    cargo = os.environ.get("CARGO") or shutil.which("cargo") or "cargo"
    sysroot = subprocess.run(
        ["rustc", "--print", "sysroot"], capture_output=True, text=True, check=True
    ).stdout.strip()
    triple = next(
        line.split(": ", 1)[1]
        for line in subprocess.run(
            ["rustc", "-vV"], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        if line.startswith("host: ")
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")).resolve()
    paths = [
        str(target / "debug"),
        str(target / "debug" / "deps"),
        f"{sysroot}/lib/rustlib/{triple}/lib",
        f"{sysroot}/lib",
    ]
    if os.environ.get("LD_LIBRARY_PATH"):
        paths.append(os.environ["LD_LIBRARY_PATH"])
    return {"CARGO": cargo, "LD_LIBRARY_PATH": ":".join(paths)}


def test_binaries(cargo_args):
    """(name, source, manifest, package, version, executable) of every test binary, built."""
    build = subprocess.run(
        ["cargo", "test", "--no-run", "--message-format=json-render-diagnostics", *cargo_args],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    if build.returncode != 0:
        sys.exit("run-tests: the test build failed (its errors are above)")
    found = []
    for line in build.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
            continue
        if not msg["profile"]["test"]:
            continue
        manifest = Path(msg["manifest_path"])
        src = Path(msg["target"]["src_path"])
        try:
            src = src.relative_to(manifest.parent)
        except ValueError:
            pass
        kind = msg["target"]["kind"][0]
        label = f"unittests {src}" if kind in ("lib", "bin", "proc-macro") else str(src)
        found.append((label, manifest, msg["executable"]))
    return found


def package_env(manifest):
    """CARGO_MANIFEST_DIR, CARGO_PKG_NAME and CARGO_PKG_VERSION of the package at `manifest`."""
    name = version = ""
    section = None
    for line in manifest.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[package]" and "=" in line:
            key, value = (s.strip() for s in line.split("=", 1))
            if key == "name":
                name = value.strip('"')
            elif key == "version" and value.startswith('"'):
                version = value.strip('"')
    if not version:
        # `version.workspace = true`: the workspace's.
        for line in (ROOT / "Cargo.toml").read_text().splitlines():
            if line.strip().startswith("version") and '"' in line:
                version = line.split('"')[1]
                break
    return {
        "CARGO_MANIFEST_DIR": str(manifest.parent),
        "CARGO_MANIFEST_PATH": str(manifest),
        "CARGO_PKG_NAME": name,
        "CARGO_PKG_VERSION": version,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=(os.cpu_count() or 2) + 1)
    parser.add_argument("cargo_args", nargs="*")
    args = parser.parse_args()

    binaries = test_binaries(args.cargo_args)
    base = dict(os.environ, **cargo_env())
    durations = {}
    if DURATIONS.exists():
        durations = json.loads(DURATIONS.read_text())
    # The doc tests compile as they run: through cargo, in the same queue.
    jobs = [("doc-tests", "Doc-tests", ["cargo", "test", "--doc", *args.cargo_args], ROOT, dict(os.environ))]
    for label, manifest, exe in binaries:
        env = dict(base, **package_env(manifest))
        key = f"{env['CARGO_PKG_NAME']} {label}"
        jobs.append((key, f"Running {label} ({exe})", [exe], manifest.parent, env))
    # The longest first, so that the last to start are short; unknown ones first of all (a
    # new test binary may be long).
    jobs.sort(key=lambda j: -durations.get(j[0], 1e9))

    lock = threading.Lock()
    failed = []
    taken = {}
    queue = list(jobs)

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                key, header, cmd, cwd, env = queue.pop(0)
            start = time.monotonic()
            with tempfile.TemporaryFile() as out:
                code = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
                out.seek(0)
                text = out.read().decode(errors="replace")
            spent = time.monotonic() - start
            with lock:
                taken[key] = round(spent, 2)
                print(f"     {header} [{spent:.1f}s]\n{text}", flush=True)
                if code != 0:
                    failed.append(header)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    DURATIONS.parent.mkdir(exist_ok=True)
    DURATIONS.write_text(json.dumps(taken, indent=0, sort_keys=True))
    if failed:
        print("run-tests: failed:\n  " + "\n  ".join(failed), file=sys.stderr)
        sys.exit(101)


if __name__ == "__main__":
    main()
