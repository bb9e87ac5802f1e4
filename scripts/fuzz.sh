#!/usr/bin/env bash
# Fuzzes radioflow's parsers of outside input with libFuzzer (fuzz/: PMT deserialization,
# graph files, GRC flowgraphs and their expressions, scheduler specs, the framed pipeline's
# adaptors under random schedules, the RDS decoder on any multiplex, DVB-S2 BBFRAME headers and
# depacketizing, SigMF metadata and archives, the gr-zeromq tag header and received frames, WAV
# files, the control protocol of graphs across hosts, the command line's numeric values).
# Builds the targets with a nightly toolchain (installed if missing) and coverage
# instrumentation, replays every committed regression input, then runs each target for a
# bounded time from its seed corpus (fuzz/corpus/<target>; what it finds goes to
# target/fuzz-corpus, not into the repository).
#   scripts/fuzz.sh                   30 s per target (scripts/test.sh runs --opt-level 0 --seconds 6)
#   scripts/fuzz.sh --seconds 120     another bound
#   scripts/fuzz.sh --long            an hour per target
#   scripts/fuzz.sh ... pmt_deserialize graph_file   only these targets
#   scripts/fuzz.sh --build-only      build the targets, run nothing (scripts/test.sh builds
#                                     early, in the background, and fuzzes later)
#   scripts/fuzz.sh --opt-level 0 ... every crate at this level (scripts/test.sh: 0, see there)
# A crash leaves its input in target/fuzz-artifacts/<target>/; copy it into
# fuzz/regressions/<target>/ with the fix, so it is replayed on every run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=30
build_only=false
level=
opt=()
while [ $# -gt 0 ]; do
  case "$1" in
    # An hour per target: built at opt-level 3 (fuzz/Cargo.toml's 1 and 0 keep the suite's build
    # short) for more executions per second.
    --long) seconds=3600; level=3; shift ;;
    --seconds) seconds=$2; shift 2 ;;
    --build-only) build_only=true; shift ;;
    --opt-level) level=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ -n "$level" ]; then
  export CARGO_PROFILE_RELEASE_OPT_LEVEL=$level
  # The crates fuzz/Cargo.toml sets a level of its own for too (a config's profile overrides
  # the manifest's).
  for p in radioflow-fftplan rustfft radioflow-blocks radioflow-digital radioflow-channels \
           radioflow-fec radioflow-library; do
    opt+=(--config "profile.release.package.$p.opt-level=$level")
  done
fi
all=(pmt_deserialize graph_file grc_file grc_expr scheduler_spec framed_pipeline rds_decoder bbframe sigmf_meta sigmf_archive zmq_tag_header wav_file hosts_control cli_values)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: installing a nightly toolchain (rustup)"
  rustup toolchain install nightly --profile minimal >/dev/null
fi
triple=$(rustc -vV | sed -n 's/^host: //p')
# The instrumentation cargo-fuzz uses (without AddressSanitizer: the parsers are safe code,
# and a panic, an overflow or a failed assertion is the crash looked for).
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
# Not --locked: fuzz/Cargo.lock pins what it lists, and a dependency the workspace gained
# since it was last committed is resolved here rather than failing the run (commit the
# updated lock file with such a change).
if ! (cd fuzz && cargo +nightly build "${opt[@]}" --release --bins --target "$triple" -q); then
  echo "fuzz: building the targets failed (not a crash found by fuzzing)" >&2
  exit 3
fi
$build_only && exit 0
bin=fuzz/target/$triple/release

status=0
for t in "${targets[@]}"; do
  [ -x "$bin/$t" ] || { echo "fuzz: no target '$t' (targets: ${all[*]})" >&2; exit 2; }
  if compgen -G "fuzz/regressions/$t/*" >/dev/null; then
    "$bin/$t" fuzz/regressions/$t/* 2>&1 | tail -n 1
  fi
  work=target/fuzz-corpus/$t
  artifacts=target/fuzz-artifacts/$t
  mkdir -p "$work" "$artifacts"
  echo "fuzz: $t for ${seconds}s"
  if ! "$bin/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -artifact_prefix="$artifacts/" "$work" "fuzz/corpus/$t" > "target/fuzz-$t.log" 2>&1; then
    echo "fuzz: $t FAILED; input in $artifacts, log in target/fuzz-$t.log" >&2
    tail -n 30 "target/fuzz-$t.log" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "target/fuzz-$t.log" \
      | sed "s/^/fuzz: $t /"
  fi
done
exit $status
