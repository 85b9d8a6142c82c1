#!/usr/bin/env bash
# prove.sh [QUIET [LOADED]]: the suite passes every time. Clones the
# committed HEAD into a fresh directory and runs ./scripts/test.sh there
# QUIET times in a row (default 5), then LOADED times (default 5) while two
# busy loops keep both cores of the machine busy. Each run's closing line
# and wall time go to stdout and to $PROVE_LOG (default
# /tmp/cgofuzz-prove.log); the last line is "N passed, N failed" counting
# whole suite runs. Exit status 0 only if every run passed.
set -uo pipefail
quiet=${1:-5}
loaded=${2:-5}
log=${PROVE_LOG:-/tmp/cgofuzz-prove.log}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/cgofuzz-prove.XXXXXX)
git clone -q "$top" "$work/clone" || exit 1
cd "$work/clone" || exit 1
echo "prove: $(git log --oneline -1) in $work/clone" | tee "$log"

ok=0
bad=0
load_pids=()
stop_load() {
  for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null; done
  load_pids=()
}
trap 'stop_load' EXIT

one_run() { # LABEL
  local t0 t1 rc last
  t0=$(date +%s)
  ./scripts/test.sh >"$work/run.log" 2>&1
  rc=$?
  t1=$(date +%s)
  last=$(tail -n 1 "$work/run.log")
  if [ "$rc" -eq 0 ]; then
    ok=$((ok + 1))
  else
    bad=$((bad + 1))
    cp "$work/run.log" "$work/failed-$1.log"
    grep -E '^(FAILED|SKIPPED) ' "$work/run.log" | head -n 20 | tee -a "$log"
  fi
  echo "prove: $1: rc=$rc in $((t1 - t0))s: $last" | tee -a "$log"
}

for i in $(seq 1 "$quiet"); do one_run "quiet-$i"; done
for i in $(seq 1 "$loaded"); do
  # Two busy loops at normal priority: both cores busy all run long.
  for _ in 1 2; do
    ( while :; do :; done ) &
    load_pids+=($!)
  done
  one_run "loaded-$i"
  stop_load
done
echo "prove: logs of failed runs (if any) are in $work" | tee -a "$log"
echo "$ok passed, $bad failed" | tee -a "$log"
[ "$bad" -eq 0 ]
