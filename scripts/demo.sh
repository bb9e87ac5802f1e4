#!/usr/bin/env bash
# Builds radioflow and runs the demo benchmark: the seed's stream (buf) and message (msg)
# experiments on every scheduler, verified, as a table.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo not found: install a Rust toolchain (rustup)" >&2; exit 1; }
cargo build --release --locked -p radioflow-cli
exec ./target/release/radioflow bench --runs "${RUNS:-3}" "$@"
