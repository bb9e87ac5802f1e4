#!/usr/bin/env bash
# Runs radioflow-runtime's unit tests and its threaded integration test (tests/threads.rs) under
# valgrind: memcheck (memory errors, definite leaks) and both race detectors, helgrind and DRD.
#
# The tests are built with the `valgrind` feature, which annotates the happens-before edges that
# radioflow builds from atomics (crates/runtime/src/valgrind.rs); scripts/valgrind.supp hides
# reports from std and crossbeam internals only. Prints one line per tool and exits non-zero if
# any tool reported an error. Logs: target/valgrind/<tool>-<test binary>.log.
set -euo pipefail

cd "$(dirname "$0")/.."
supp=scripts/valgrind.supp
logs=${CARGO_TARGET_DIR:-target}/valgrind

if ! command -v valgrind >/dev/null; then
    apt-get install -y valgrind || { apt-get update && apt-get install -y valgrind; }
fi

# The annotations are x86_64 client requests; elsewhere the race detectors would only report
# radioflow's (correct but unannotated) atomics.
tools=(memcheck)
if [[ $(uname -m) == x86_64 ]]; then
    tools+=(helgrind drd)
else
    echo "valgrind.sh: $(uname -m) has no annotations; running memcheck only" >&2
fi

mapfile -t bins < <(
    cargo test -p radioflow-runtime --features valgrind --lib --test threads --no-run \
        --message-format=json |
        grep -o '"executable":"[^"]*"' | cut -d'"' -f4
)
if ((${#bins[@]} != 2)); then
    echo "valgrind.sh: expected 2 test binaries, got: ${bins[*]}" >&2
    exit 1
fi

common=(--error-exitcode=9 --num-callers=30 --fair-sched=yes)
declare -A options=(
    [memcheck]="--leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite"
    [helgrind]="--suppressions=$supp"
    [drd]="--suppressions=$supp"
)

# Where the first report of each tool starts in its log.
first_error='Possible data race|Conflicting (load|store)|Invalid |uninitialised|definitely lost|Lock order|unlocked'

mkdir -p "$logs"
failed=0
for tool in "${tools[@]}"; do
    errors=0
    bad=()
    for bin in "${bins[@]}"; do
        name=$(basename "$bin")
        name=${name%-*}
        log=$logs/$tool-$name.log
        # shellcheck disable=SC2086 # options[$tool] is a list of words
        if ! valgrind --tool="$tool" "${common[@]}" ${options[$tool]} --log-file="$log" \
            "$bin" --test-threads=1 >"$log.out" 2>&1; then
            bad+=("$log")
        fi
        n=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -n1)
        errors=$((errors + ${n:-0}))
    done
    if ((${#bad[@]} == 0)); then
        printf '%-9s ok    %d errors\n' "$tool" "$errors"
    else
        printf '%-9s FAIL  %d errors, see %s\n' "$tool" "$errors" "${bad[*]}"
        for log in "${bad[@]}"; do
            echo "--- $log.out (end)"
            tail -n 30 "$log.out"
            echo "--- $log (first error)"
            first=$(grep -n -m1 -E "$first_error" "$log" | cut -d: -f1) || true
            sed -n "${first:-1},+60p" "$log"
        done
        failed=1
    fi
done
exit "$failed"
