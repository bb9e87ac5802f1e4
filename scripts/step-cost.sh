#!/usr/bin/env bash
# Instructions per block step of the runtime, outside memcpy/memset: callgrind counts the
# instructions inside the `flow` worker loop (run_worker) of `buf --pipes 1 --stages 10` on one
# worker at two sizes; the difference over the difference of block steps leaves out every
# fixed cost (start, stop, the first and last chunks). Repeatable whatever else the machine
# does, unlike wall time (docs/notes/benchmarks-history.md, "Per-step instructions").
#
# usage: scripts/step-cost.sh [radioflow binary] [extra `bench buf` options, e.g. --no-regions]
set -eu
cd "$(dirname "$0")/.."
bin=${1:-./target/release/radioflow}
shift || true
out=${TMPDIR:-/tmp}/radioflow-step-cost
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "step-cost.sh: valgrind is needed" >&2; exit 1; }

# Prints "<instructions in run_worker> <of them in memcpy/memset/memmove> <block steps>".
count() {
    local n=$1 file=$out/callgrind.$1
    shift
    valgrind --tool=callgrind --toggle-collect='*run_worker*' --callgrind-out-file="$file" \
        "$bin" bench buf --pipes 1 --stages 10 --samples "$n" --runs 1 --scheduler flow \
        --workers 1 --json "$@" >/dev/null 2>"$out/valgrind.$n.log"
    local total mem steps
    total=$(callgrind_annotate "$file" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
    mem=$(callgrind_annotate "$file" 2>/dev/null | awk '/__mem(cpy|set|move)/ {gsub(",", "", $1); s += $1} END {print s + 0}')
    # Calls of BlockTask::step from the worker loop (callgrind's caller tree).
    steps=$(callgrind_annotate --inclusive=yes --tree=caller "$file" 2>/dev/null | awk '
        /< .*run_worker \([0-9,]+x\)/ { last = $0; next }
        /\* .*BlockTask::step/ && last != "" {
            match(last, /\([0-9,]+x\)/); v = substr(last, RSTART + 1, RLENGTH - 3)
            gsub(",", "", v); print v; exit
        }
        { last = "" }')
    echo "$total $mem $steps"
}

read -r t1 m1 s1 < <(count 2000000 "$@")
read -r t2 m2 s2 < <(count 8000000 "$@")
steps=$((s2 - s1))
if ((steps <= 0)); then
    echo "step-cost.sh: could not count steps (see $out)" >&2
    exit 1
fi
echo "instructions per block step outside memcpy/memset: $(((t2 - t1 - (m2 - m1)) / steps)) ($((t2 - t1 - (m2 - m1))) over $steps steps)"
