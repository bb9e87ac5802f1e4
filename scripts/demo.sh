#!/usr/bin/env bash
# Builds radioflow and runs the demo benchmark: the seed's stream (buf) and message (msg)
# experiments on every scheduler, verified, as a table. Then builds and installs the Python
# package into python3 and runs its receiver example (plot in target/receiver.png).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo not found: install a Rust toolchain (rustup)" >&2; exit 1; }
cargo build --release --locked -p radioflow-cli
./target/release/radioflow bench --runs "${RUNS:-3}" "$@"
bash scripts/python.sh --dev
python3 crates/python/examples/receiver.py --out target/receiver.png
