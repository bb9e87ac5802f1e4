#!/usr/bin/env bash
# The whole test suite: formatting, lints, docs, unit/integration/doc tests, the Python
# package's pytest suite, the scheduler conformance suite (also in release), loom model checks,
# valgrind (memcheck + race detection), Miri where a nightly toolchain with Miri can be
# installed, libFuzzer on the parsers of outside input (scripts/fuzz.sh, 6 s per target), a benchmark smoke
# run and 75 s of soak (scripts/soak.sh, in the background of valgrind and Miri). Installs what it needs (libzmq, SoapySDR and its Red Pitaya module for the device tests, ALSA via scripts/system-deps.sh, valgrind and chromium via apt when missing). Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
log=target/test-log.txt
mkdir -p target
: > "$log"
t0=$SECONDS
# Each step names itself with the seconds since the start, so a slow step shows in CI's log.
step() { printf '\n==> [%ss] %s\n' "$((SECONDS - t0))" "$*"; }
# Waits for a background job and shows its output file; a job that failed counts as one
# failure, named. With `counted`, the output also goes to the log, whose test results count.
finish() {
  local pid=$1 out=$2 what=$3 counted=${4:-} ok=true
  wait "$pid" || ok=false
  if [ -n "$counted" ]; then tee -a "$log" < "$out" | { $ok && tail -n 5 || cat; }; else cat "$out"; fi
  $ok || echo "1 failed ($what)" | tee -a "$log"
}

command -v cargo >/dev/null || { echo "cargo not found: install a Rust toolchain (rustup)" >&2; exit 1; }
if [ "${CI:-}" = "true" ]; then
  # A clean clone builds everything once: no incremental caches to write, and line tables
  # (file:line in backtraces, valgrind and panics) instead of full debug info, whose generation
  # and linking take a good part of the build. The suite is CPU-bound from start to end on 2
  # cores (/proc/stat sampled every 5 s: under 5% idle in every minute), so build work saved is
  # wall time saved. Not set for local runs, whose target directory these settings would rebuild.
  export CARGO_INCREMENTAL=0
  export CARGO_PROFILE_DEV_DEBUG=line-tables-only
  export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
  # The release builds here are the conformance suite's and loom's test binaries (nothing that
  # ships: the benchmarks and the soak run the debug CLI), whose results do not depend on
  # cross-crate inlining; thin LTO's link-time work is left to `scripts/demo.sh`'s build.
  export CARGO_PROFILE_RELEASE_LTO=false
fi
bash scripts/system-deps.sh
if ! command -v valgrind >/dev/null; then
  step "installing valgrind"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind) >/dev/null
fi
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  step "installing chromium (the live view's browser tests: crates/control/tests/browser.rs, crates/cli/tests/fm_browser.rs)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 \
    || echo "no chromium could be installed: the live view's browser tests SKIP (they say so)"
fi
if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  step "installing fonts-dejavu-core (text in PNG plots)"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-dejavu-core) \
    >/dev/null 2>&1 || echo "no fonts-dejavu-core: plot tests skip"
fi

# The fuzz targets (nightly, instrumented: ~140 CPU-seconds, their own target directory and
# cargo lock; at opt-level 0, which builds in 139 CPU-seconds where fuzz/Cargo.toml's level 1
# took 197, for 7-14x fewer executions in the 6 s each target is fuzzed here: the regression
# inputs are replayed all the same, and `scripts/fuzz.sh --long` is where fuzzing finds things)
# build from the start, in the background of the lints and the debug build: the
# lints' check follows the crates' dependency chain and leaves a core idle for much of its
# time. Fuzzing them waits for the end (fuzz.sh then finds them built).
# Then Miri's test builds (its sysroot, the runtime's and the framed crate's tests, in
# target/miri), which the Miri step at the end would otherwise do in a phase where both cores
# are busy; here they fill what the lints and the debug tests leave idle. A failure here only
# means the Miri step builds (and reports) them itself.
(bash scripts/fuzz.sh --opt-level 0 --build-only > target/fuzz-build.log 2>&1
 if cargo +nightly miri --version >/dev/null 2>&1 \
    || timeout 300 rustup component add miri rust-src --toolchain nightly >/dev/null 2>&1; then
   CARGO_TARGET_DIR=target/miri cargo +nightly miri test --locked -q --no-run \
     -p radioflow-runtime --lib --test threads
   CARGO_TARGET_DIR=target/miri cargo +nightly miri test --locked -q --no-run \
     -p radioflow-framed --test sequence --test pipeline --test stream_task
 fi > target/miri-build.log 2>&1) &

step "format, lints, docs, import circles"
cargo fmt --all -- --check
cargo clippy --locked --workspace --all-targets -- -D warnings
# rustdoc reads the workspace crates' metadata from a check build; with clippy's driver as the
# workspace's rustc wrapper and clippy's arguments (what `cargo clippy` sets), that is the check
# clippy just did, where plain rustc would check every crate of the workspace again. Where the
# driver cannot be found, the docs check the crates themselves.
clippy_driver=$(rustup which clippy-driver 2>/dev/null || true)
if [ -x "$clippy_driver" ]; then
  RUSTC_WORKSPACE_WRAPPER=$clippy_driver CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__ \
    RUSTDOCFLAGS="-D warnings" cargo doc --locked --workspace --no-deps --quiet
else
  RUSTDOCFLAGS="-D warnings" cargo doc --locked --workspace --no-deps --quiet
fi
# No file of any crate imports one that imports it back (`python3 scripts/import-cycles.py
# --help`): what several files share has a file of its own.
python3 scripts/import-cycles.py crates/*/

step "tests (debug: overflow checks and debug assertions on)"
# The release conformance suite checks the runtime's schedulers optimized; of the blocks crate
# it uses a few trivial blocks (copies, heads, sinks), so that crate and the DSP it pulls in
# (dsp, the FFT planner, rustfft) are built at opt-level 0 there: 70 CPU-seconds to build
# where all at 3 took 121, for a run of 14 CPU-seconds instead of 6.
light=(--config 'profile.release.package.radioflow-blocks.opt-level=0'
       --config 'profile.release.package.radioflow-dsp.opt-level=0'
       --config 'profile.release.package.radioflow-fftplan.opt-level=0'
       --config 'profile.release.package.rustfft.opt-level=0')
cargo test --locked --workspace --no-run -q
# The builds of the steps below (the counters compiled out, valgrind's test binaries, release
# tests, loom's model checks: their own feature sets) compile while the debug tests run (cargo
# holds its build lock only while compiling, and many test binaries leave a core idle); each
# step then finds its build done. Were one to fail here, its step builds again and shows why.
(cargo test --locked -q -p radioflow-runtime -p radioflow-blocks \
       --features radioflow-runtime/no-counters --lib --test conformance --test no_loss --no-run \
  && cargo test --locked -q -p radioflow-runtime --features valgrind --lib --test threads --no-run \
  && cargo test --locked --release -q -p radioflow-blocks --test conformance --no-run "${light[@]}" \
  && cargo test --locked --release -q -p radioflow-runtime --features loom --lib --no-run) \
  > target/background-builds.log 2>&1 &
builds_pid=$!
# The test binaries run three at a time (scripts/run-tests.py): one at a time, as `cargo test`
# runs them, left most of a core idle (many wait on GNU Radio's Python, a browser or a server).
python3 scripts/run-tests.py -- --locked --workspace 2>&1 | tee -a "$log"
# The CLI the tests above ran (counters on): the soak and the benchmarks' quick mode below run
# it. Not a release build of its own: that compiled every crate above the runtime a second time
# (~350 CPU-seconds, a sixth of the suite) for runs of a few seconds whose times mean nothing
# in quick mode; the kernels the receivers spend their time in (dsp, dvbs2, rds, rustfft) are
# optimized in the dev profile, and optimized code with real timing stays under test in the
# release conformance run. `bash scripts/demo.sh` builds and runs the release binary.
cp target/debug/radioflow target/radioflow-counters
# Counters compiled out (feature `no-counters`): the runtime's own tests and the scheduler
# suites, and the CLI built with it. In the dev profile: a release build of the runtime and
# of every crate above it a second time (radioflow-dvbs2 among them) costs ~170 CPU-seconds
# of the suite's budget against ~50 here, and the counters-on release run below keeps the
# optimized code and real timing under test. The CLI is built here, not in the background: it
# replaces target/debug/radioflow, which the CLI's tests above run.
cargo test --locked -p radioflow-runtime -p radioflow-blocks --features radioflow-runtime/no-counters \
  --lib --test conformance --test no_loss 2>&1 | tee -a "$log"
cargo build --locked -q -p radioflow-cli --features radioflow-runtime/no-counters
cp target/debug/radioflow target/radioflow-no-counters

# The fuzzers (libFuzzer, 6 s per target after the regressions; `scripts/fuzz.sh --long` for
# hours) are single-threaded: they run from here on, beside the Python step (maturin and pytest
# leave a core idle much of the time) and the steps after it, instead of after the conformance
# suite, where they ended the suite (their build was done in the background at the start).
step "fuzzing in the background (scripts/fuzz.sh: regressions, 6 s per target)"
bash scripts/fuzz.sh --opt-level 0 --seconds 6 > target/fuzz.log 2>&1 &
fuzz_pid=$!

step "Python package: build with maturin, install into python3, pytest (warnings are errors)"
bash scripts/python.sh --test-build
(cd crates/python && python3 -m pytest -q -p no:cacheprovider) 2>&1 | tee -a "$log"

step "conformance suite in release (more random graphs, real timing)"
wait "$builds_pid" || echo "the background builds failed (target/background-builds.log); each step builds again"
# 75 s of soak (scripts/soak.sh: 25 s for each of its three graphs) on one worker, in
# the background of the steps below (at the end it would leave a core idle), on the CLI with
# counters (the soak reads them; memory, threads and items over time, not speed).
SOAK_BIN=$PWD/target/radioflow-counters SOAK_SCHEDULER=flow:workers=1 bash scripts/soak.sh 25 \
  > target/soak.log 2>&1 &
soak_pid=$!
cargo test --locked --release -p radioflow-blocks --test conformance "${light[@]}" 2>&1 | tee -a "$log"

# Valgrind and loom run in the background of Miri (the fuzzers too, started earlier): each is
# single-threaded (valgrind runs one thread at a time and mostly waits), so together they keep
# the two cores busy, where one after the other would leave a core idle. Their builds were
# done in the background earlier (loom's with feature `loom`: only the runtime built again,
# over the release build's crates; the fuzzers' and Miri's in target directories of their
# own): no one waits for another's cargo lock.
step "valgrind in the background (memcheck, helgrind, DRD on the runtime's threaded tests)"
bash scripts/valgrind.sh > target/valgrind.log 2>&1 &
valgrind_pid=$!
step "loom model checks of buffer positions and wake-ups (background)"
# One test at a time: loom maps and unmaps a stack for every thread of every execution, and two
# models in one process make each unmap interrupt the other core (75 CPU-seconds alone, 150
# side by side, two thirds of it in the kernel).
(cargo test --locked --release -p radioflow-runtime --features loom --lib loom -- --test-threads=1 \
  > target/loom.log 2>&1) &
loom_pid=$!
step "benchmarks in quick mode in the background (tiny sizes; every experiment runs and verifies)"
# One process at a time, beside Miri, valgrind, loom and the fuzzers: after them they ran with
# a core idle (the suite's last half minute).
(
  # On the debug CLI the tests ran (see above). `bench counters` compares it with the same CLI
  # built with its counters compiled out (after the debug tests).
  bin=$PWD/target/radioflow-counters
  export RADIOFLOW_NO_COUNTERS_BIN=$PWD/target/radioflow-no-counters
  "$bin" bench --quick
  "$bin" bench opti --quick --sweep --json > /dev/null
  "$bin" bench resched --quick --compare gnuradio  # GNU Radio rows where it is installed
  "$bin" bench items --quick --compare gnuradio
  "$bin" bench counters --quick --json > /dev/null && "$bin" bench workload --quick --json > /dev/null \
    && "$bin" profile fir --samples 1e5 --trace target/profile-trace.json > /dev/null
  "$bin" bench tasks --quick --json > /dev/null && "$bin" bench pipeline --quick --json > /dev/null
  # The receivers and the transmitter: the FM benchmark's chain, the DVB-S2 transmitter's,
  # and the FM receiver on its built-in station (stereo, RDS printed as decoded).
  "$bin" bench fm --quick --json > /dev/null
  "$bin" bench dvbs2-tx --quick --json > /dev/null
  "$bin" bench dvbs2-rx --quick --json > /dev/null
  "$bin" bench dvbs2-fer --quick --json > /dev/null
  # GNU Radio's example flowgraphs: the first two that compare, beside GNU Radio where installed.
  if [ -d /usr/share/gnuradio/examples ]; then
    "$bin" bench grc /usr/share/gnuradio/examples --quick --compare gnuradio --json > /dev/null
  else
    echo "SKIPPED: bench grc --quick (GNU Radio's examples are not installed)"
  fi
  mkdir -p target/demo && "$bin" fm --demo --wav target/demo/station.wav
) > target/bench.log 2>&1 &
bench_pid=$!

step "miri (unsafe buffer code, threads, framed pipelines)"
if cargo +nightly miri --version >/dev/null 2>&1 \
   || timeout 300 rustup component add miri rust-src --toolchain nightly >/dev/null 2>&1; then
  # The buffer unit tests, then real threads through both schedulers (Miri's race detector
  # on), in the background of the framed tests: Miri interprets on one thread, and the two run
  # side by side once the others above are done (one after the other, the last ~80 s of the
  # suite left a core idle). Cargo's lock serializes their builds only.
  export CARGO_TARGET_DIR=target/miri
  (cargo +nightly miri test --locked -p radioflow-runtime --lib buffer \
     && cargo +nightly miri test --locked -p radioflow-runtime --test threads) \
    > target/miri-runtime.log 2>&1 &
  miri_runtime_pid=$!
  # Framed execution: sequences, pipelines with their adaptors (unsafe frame hand-over).
  MIRIFLAGS=-Zmiri-disable-isolation cargo +nightly miri test --locked -p radioflow-framed \
    --test sequence --test pipeline --test stream_task -- --skip plan_from 2>&1 | tee -a "$log"
  finish "$miri_runtime_pid" target/miri-runtime.log "miri: the runtime's tests" counted
  unset CARGO_TARGET_DIR
else
  echo "miri: no nightly toolchain with Miri can be installed here; skipped (valgrind ran instead)"
fi

step "valgrind: results"
finish "$valgrind_pid" target/valgrind.log "valgrind: see the logs named above"

step "loom: results"
finish "$loom_pid" target/loom.log loom counted

step "benchmarks: results"
finish "$bench_pid" target/bench.log "benchmarks: an experiment failed or did not verify"

step "fuzzing: results"
finish "$fuzz_pid" target/fuzz.log "fuzzing: a crash, or the targets did not build"

step "soak: results"
finish "$soak_pid" target/soak.log "soak: memory grew, threads changed or items stopped"

passed=$(grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{s+=$4} END {print s+0}')
# pytest's summary line: "N passed in 2.1s" or "N passed, M skipped in ...".
pytest_passed=$(grep -oE '[0-9]+ passed(,| in)' "$log" | awk '{s+=$1} END {print s+0}')
passed=$((passed + pytest_passed))
failed=$(grep -oE '[0-9]+ failed' "$log" | awk '{s+=$1} END {print s+0}')
printf '\nall checks done in %ss\n' "$((SECONDS - t0))"
echo "radioflow: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
