#!/usr/bin/env bash
# demo.sh: installs what is needed, builds cgofuzz, and runs its main job on
# the built-in example corpus in examples/corpus/FuzzRecord:
#   1. `cgofuzz corpus fmt` prints each seed file in the canonical form Go
#      itself writes (hex, comments and trailing commas normalised);
#   2. `cgofuzz mutate` replays Go's mutator from a PCG state, as the
#      coordinator does to rebuild the input that crashed a worker.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh build >/dev/null
bin=build/bin/cgofuzz
dir=examples/corpus/FuzzRecord

for f in "$dir"/*; do
  echo "== $f, as written:"
  cat "$f"
  echo "== cgofuzz corpus fmt $f:"
  "$bin" corpus fmt "$f"
done
echo "== cgofuzz mutate: chained mutations 1..5 of $dir/hand-written from one PCG state"
for n in 1 2 3 4 5; do
  echo "-- -n $n"
  "$bin" mutate -rand-state 0x853c49e6748fea9b -rand-inc 0xda3e39cb94b95bdb -n "$n" \
    "$dir/hand-written" | tail -n +2
done
