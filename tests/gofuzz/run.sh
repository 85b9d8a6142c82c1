#!/bin/sh
# Tests of package gofuzz and its examples (examples/go): vet, go test ./...,
# short fuzzing runs of the example targets (counted, -fuzztime=Nx), and the
# same with clang's C coverage instrumentation (-tags gofuzz_cover).
#
# Needs: Go >= 1.22 (the reference is go1.26.8), gcc or clang for cgo,
# zlib and cJSON headers (Debian: zlib1g-dev, libcjson-dev). The gofuzz_cover runs need clang; they
# are skipped, with a note, when clang is missing.
# Usage: tests/gofuzz/run.sh [fuzz-count]   (default 2000)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
count=${1:-2000}

fail=0
step() { echo "== $*"; "$@" || { echo "FAILED: $*"; fail=1; }; }

unformatted=$(gofmt -l gofuzz examples/go tests/gofuzz bench/gofuzz)
if [ -n "$unformatted" ]; then
	echo "FAILED: gofmt: $unformatted"
	fail=1
fi
step go vet ./...
step go test ./...
step env CGO_ENABLED=0 go vet ./gofuzz

fuzz() { # dir target [extra go test args]
	dir=$1 target=$2
	shift 2
	step go test -run='^$' -fuzz="^$target\$" -fuzztime="${count}x" "$@" "./$dir"
}
for t in FuzzCRC32 FuzzAdler32 FuzzGoDeflateZlibInflate FuzzZlibDeflateGoInflate FuzzInflate; do
	fuzz examples/go/zlibdiff "$t"
done
# encoding/json against cJSON (libcjson-dev), known differences filtered.
for t in FuzzValid FuzzPrint FuzzRoundTrip; do
	fuzz examples/go/jsondiff "$t"
done

if command -v clang >/dev/null 2>&1; then
	export CC=clang CGO_CFLAGS_ALLOW='-fsanitize-coverage=.*'
	step go test -tags gofuzz_cover ./gofuzz ./examples/go/...
	# The planted bug must not be found by a short run: only the seeds and a
	# few hundred execs run here; bench/gofuzz_bench.py measures the time to
	# find it.
	fuzz examples/go/planted FuzzSum -tags gofuzz_cover -fuzztime=200x
	for t in FuzzValid FuzzPrint FuzzRoundTrip; do
		fuzz examples/go/jsondiff "$t" -tags gofuzz_cover
	done
else
	echo "note: clang not found; skipping the gofuzz_cover runs"
fi

# C targets (cgofuzz's C API) under go test's coordinator, through cgo and
# with the exec loop in C: counted runs, then failures found, written and
# reproduced (ctarget_e2e.sh uses clang's coverage when clang is there).
for t in FuzzUnescape FuzzUnescapeLoop; do
	fuzz examples/go/cunescape "$t"
done
step tests/gofuzz/ctarget_e2e.sh
# The README's complete example, as written.
step python3 tests/gofuzz/readme_example.py

if [ "$fail" -ne 0 ]; then
	echo "tests/gofuzz: FAILED"
	exit 1
fi
echo "tests/gofuzz: ok"
