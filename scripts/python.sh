#!/usr/bin/env bash
# Builds the Python package (crates/python, with maturin) and installs it into the default
# python3, with what it needs from PyPI (maturin, numpy; pytest and matplotlib with --dev).
# Usage: scripts/python.sh [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
command -v "$py" >/dev/null || { echo "python3 not found: install CPython >= 3.9 with pip" >&2; exit 1; }
need=(maturin numpy)
[ "${1:-}" = "--dev" ] && need+=(pytest matplotlib)
missing=()
for m in "${need[@]}"; do
  "$py" -c "import $m" 2>/dev/null || missing+=("$m")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} with pip"
  "$py" -m pip install -q --disable-pip-version-check --root-user-action=ignore "${missing[@]}"
fi
bash scripts/system-deps.sh
rm -rf target/wheels
# The wheel is for this machine: it links the system's libzmq rather than bundling a copy
# (repairing patches the library cargo keeps in place, and a second build without changes then
# finds it patched and fails).
"$py" -m maturin build --release --quiet --interpreter "$py" --auditwheel skip \
  -m crates/python/Cargo.toml -o target/wheels
"$py" -m pip install -q --disable-pip-version-check --root-user-action=ignore \
  --force-reinstall --no-deps target/wheels/radioflow-*.whl
"$py" -c "import radioflow; print('radioflow Python package installed:', radioflow.__file__)"
