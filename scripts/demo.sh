#!/usr/bin/env bash
# demo.sh: installs what is needed, builds cgofuzz, and runs its main job on
# the built-in examples:
#   1. `go test -fuzz=FuzzParseRecord -exec=cgofuzz` fuzzes the example Go
#      package examples/goparse (a record parser with a planted bug): go test
#      builds the test binary and hands it to cgofuzz, whose coordinator
#      fuzzes with the binary's own Go workers, finds the bug and writes the
#      failing input where go test looks for it; then plain
#      `go test -run=FuzzParseRecord/<name>` reproduces it;
#   2. `cgofuzz corpus fmt` prints a hand-written seed file in the canonical
#      form Go writes, and `cgofuzz mutate` replays Go's mutator from a PCG
#      state, as the coordinator does to rebuild the input a worker died on.
# The example package is copied to a temporary directory, so the repository
# is left as it was.
#
# It installs only what this needs (install-deps.sh --minimal: cmake, ninja,
# a C compiler, and Go when there is none) and builds only the cgofuzz
# command in build/ (scripts/test.sh installs the rest and builds all).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --minimal
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH=$PATH:/usr/local/go/bin
fi
# A new build directory gets Ninja (make without it); an existing one keeps
# its generator. Configure's output is shown only when it fails.
gen=()
if [ ! -f build/CMakeCache.txt ]; then
  if command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); else gen=(-G "Unix Makefiles"); fi
fi
log=$(mktemp)
if ! cmake -S . -B build "${gen[@]}" >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
rm -f "$log"
echo "== building cgofuzz in build/"
cmake --build build --target cgofuzz_cli >/dev/null
bin=$PWD/build/bin/cgofuzz

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r examples/goparse "$work/goparse"
cd "$work/goparse"
echo "== go test -fuzz=FuzzParseRecord -fuzztime=60s -exec=cgofuzz .   (in a copy of examples/goparse)"
set +e
go test -fuzz=FuzzParseRecord -fuzztime=60s -exec="$bin" . 2>&1 |
  grep -vE '^\s+(/|goroutine |runtime/|reflect\.|testing\.[(t]|created by|panic\(|example\.com/)' # trim the stack
rc=${PIPESTATUS[0]}
set -e
echo "== go test exited with status $rc (1: a failure was found)"
crash=$(ls testdata/fuzz/FuzzParseRecord/ 2>/dev/null | head -n 1)
if [ -z "$crash" ]; then
  echo "no failing input was written"
  exit 1
fi
echo "== testdata/fuzz/FuzzParseRecord/$crash:"
cat "testdata/fuzz/FuzzParseRecord/$crash"
echo "== go test -run=FuzzParseRecord/$crash   (plain go test reproduces it)"
set +e
go test -run="FuzzParseRecord/$crash" . 2>&1 | head -n 4
set -e
cd - >/dev/null

echo
f=examples/corpus/FuzzRecord/hand-written
echo "== $f, as written:"
cat "$f"
echo "== cgofuzz corpus fmt $f   (Go's canonical form):"
"$bin" corpus fmt "$f"
echo "== cgofuzz mutate -n 3 $f   (3 of Go's chained mutations from one PCG state):"
"$bin" mutate -rand-state 0x853c49e6748fea9b -rand-inc 0xda3e39cb94b95bdb -n 3 "$f"
