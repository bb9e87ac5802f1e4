#!/usr/bin/env bash
# Build the FutureSDR peer (fsdr_bench) in release mode.
# Standalone cargo project (own [workspace]); not part of radioflow's workspace.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v cargo >/dev/null 2>&1; then
    echo "futuresdr peer: cargo not found; install a Rust toolchain (stable >= 1.89) to build fsdr_bench" >&2
    exit 1
fi
if ! cargo build --release "$@"; then
    echo "futuresdr peer: 'cargo build --release' failed in $(pwd)." >&2
    echo "  It needs crates.io access (futuresdr =0.0.40 and its dependencies) and rustc >= 1.89." >&2
    exit 1
fi
echo "futuresdr peer: built $(pwd)/target/release/fsdr_bench" >&2
