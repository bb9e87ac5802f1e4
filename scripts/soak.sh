#!/usr/bin/env bash
# Soak: keeps each soak graph running for DURATION seconds (default 120) in a release build,
# one after the other, sampling RSS, threads and throughput every second; fails if memory
# grows, the thread count changes or items stop. Samples go to target/soak-<graph>.jsonl.
#   scripts/soak.sh            two minutes per graph
#   scripts/soak.sh 25         25 s per graph, 75 s in all (what scripts/test.sh runs)
#   scripts/soak.sh 3600       an hour per graph
# Graphs: copy (a tagged stream through copies on the flow scheduler, messages through
# forwarders beside it), fm (the FM receiver, stereo and RDS, on the built-in station read
# again and again; its RDS messages counted), dvbs2 (the DVB-S2 transmitter feeding the
# receiver block: an endless TS stream through both).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-120}
scheduler=${SOAK_SCHEDULER:-flow}
# SOAK_BIN: a radioflow binary already built (scripts/test.sh passes its own copy).
bin=${SOAK_BIN:-}
if [ -z "$bin" ]; then
  cargo build --locked --release -q -p radioflow-cli
  bin=./target/release/radioflow
fi
status=0
for graph in copy fm dvbs2; do
  echo "soak: $graph for ${duration}s on $scheduler"
  if ! "$bin" soak --graph "$graph" --seconds "$duration" --every 1 \
       --scheduler "$scheduler" --json > "target/soak-$graph.jsonl"; then
    status=1
  fi
  tail -n 1 "target/soak-$graph.jsonl"
done
exit $status
