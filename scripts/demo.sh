#!/usr/bin/env bash
# The main job on a fresh machine: builds radioflow and runs the FM broadcast receiver on its
# built-in station (5 s of a stereo station with RDS, frequency modulated 200 kHz off the centre
# of a 2.4 Msps rtl_sdr-style recording): prints the RDS station name and text as they are
# decoded and a summary, and writes target/demo/station.wav (1 kHz left, 1.5 kHz right).
# Then builds and installs the Python package into python3 and runs its receiver example
# (plot in target/receiver.png). `RADIOFLOW_DEMO_BENCH=1` also runs the benchmark demo.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo not found: install a Rust toolchain (rustup)" >&2; exit 1; }
bash scripts/system-deps.sh
cargo build --release --locked -p radioflow-cli
mkdir -p target/demo
./target/release/radioflow fm --demo --wav target/demo/station.wav
if [ "${RADIOFLOW_DEMO_BENCH:-0}" = 1 ]; then
  ./target/release/radioflow bench --runs "${RUNS:-3}" "$@"
fi
bash scripts/python.sh --dev
python3 crates/python/examples/receiver.py --out target/receiver.png
