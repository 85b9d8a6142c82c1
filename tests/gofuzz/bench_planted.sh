#!/bin/sh
# Benchmark (not a test): time for go test -fuzz to find the planted bug in
# examples/go/planted, with package gofuzz's C coverage set-up and without it.
# Usage: tests/gofuzz/bench_planted.sh [fuzztime] [runs]   (default 60s, 1)
# Needs clang. Each run uses 2 workers for up to fuzztime.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
fuzztime=${1:-60s}
runs=${2:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root/examples/go/planted"
CC=clang CGO_CFLAGS_ALLOW='-fsanitize-coverage=.*' \
	go test -c -tags gofuzz_cover -fuzz=FuzzSum -o "$tmp/with.test" .
CC=clang go test -c -fuzz=FuzzSum -o "$tmp/without.test" .
cd "$tmp"
for mode in with without; do
	i=1
	while [ "$i" -le "$runs" ]; do
		rm -rf cache testdata
		start=$(date +%s.%N)
		if "./$mode.test" -test.run='^FuzzSum$' -test.fuzz='^FuzzSum$' \
			-test.fuzztime="$fuzztime" -test.fuzzcachedir="$tmp/cache" >out.txt 2>&1; then
			result="not found"
		elif grep -q 'Go and C disagree' out.txt; then
			result="found"
		else
			result="error"
			cat out.txt
		fi
		end=$(date +%s.%N)
		execs=$(grep -o 'execs: [0-9]*' out.txt | tail -n 1 || true)
		printf '%-8s run %d: %-9s after %.1f s (%s)\n' "$mode" "$i" "$result" \
			"$(echo "$end - $start" | bc)" "${execs:-execs: ?}"
		i=$((i + 1))
	done
done
