#!/usr/bin/env bash
# Builds the Python package (crates/python, with maturin) and installs it into the default
# python3, with what it needs from PyPI (maturin, numpy; pytest and matplotlib with --dev).
# `--test-build` (scripts/test.sh) is `--dev` with the module built in the dev profile with the
# features `cargo test --workspace` resolves (feature `test-build` of crates/python, and
# radioflow-library's defaults, which name interop's and fm's): it reuses
# the debug test build's artifacts, compiles only pyo3, numpy and the bindings, and runs with
# debug assertions and overflow checks on, where the release wheel would compile every
# radioflow crate a second time.
# Usage: scripts/python.sh [--dev | --test-build]
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
command -v "$py" >/dev/null || { echo "python3 not found: install CPython >= 3.9 with pip" >&2; exit 1; }
need=(maturin numpy)
profile=(--release)
case "${1:-}" in
  --dev) need+=(pytest matplotlib) ;;
  --test-build) need+=(pytest matplotlib); profile=(--profile dev --features test-build,radioflow-library/default) ;;
  "") ;;
  *) echo "usage: scripts/python.sh [--dev | --test-build]" >&2; exit 2 ;;
esac
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
"$py" -m maturin build "${profile[@]}" --quiet --interpreter "$py" --auditwheel skip \
  -m crates/python/Cargo.toml -o target/wheels
"$py" -m pip install -q --disable-pip-version-check --root-user-action=ignore \
  --force-reinstall --no-deps target/wheels/radioflow-*.whl
"$py" -c "import radioflow; print('radioflow Python package installed:', radioflow.__file__)"
