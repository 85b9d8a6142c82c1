#!/bin/sh
# End-to-end tests of gofuzz.FuzzC: C targets (cgofuzz's C API) fuzzed by
# go test's own coordinator, through cgo per exec and with the exec loop in C
# (gofuzz.ExecLoopInC). Each failure must be written to testdata and
# reproduce with -test.run=Target/name; the test binaries run in a scratch
# directory so nothing is written into the repository.
# With $CGOFUZZ (the cgofuzz tool), cgofuzz's coordinator drives the same
# Go binary with the exec loop in C too.
# Usage: [CGOFUZZ=build/bin/cgofuzz] tests/gofuzz/ctarget_e2e.sh
# (prints "N passed, N failed")
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${CGOFUZZ:-}" ]; then # absolute: the runs below change directory
	CGOFUZZ=$(cd "$(dirname "$CGOFUZZ")" && pwd)/$(basename "$CGOFUZZ")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }

cd "$root"
if command -v clang >/dev/null 2>&1; then
	export CC=clang CGO_CFLAGS_ALLOW='-fsanitize-coverage=.*'
	tags=-tags=gofuzz_cover
else
	tags=
fi
go test $tags -c -fuzz=. -o "$work/cu.test" ./examples/go/cunescape || exit 1
go test $tags -c -fuzz=. -o "$work/crash.test" ./tests/gofuzz/crashtarget || exit 1
# Without -fuzz Go code has no counters: Go's coordinator sends no mask and
# would panic on any CoverageData.
go test -c -o "$work/cu0.test" ./examples/go/cunescape || exit 1

# fuzz_fails NAME BIN TARGET EXPECT [ENV...]: fuzzing must fail, write one
# file, print EXPECT, and the file must reproduce the failure.
fuzz_fails() {
	name=$1 bin=$2 target=$3 expect=$4
	shift 4
	dir="$work/$name"
	mkdir -p "$dir"
	(cd "$dir" && env "$@" timeout 120 "$bin" -test.run='^$' -test.fuzz="^$target\$" \
		-test.fuzztime=60s -test.parallel=2 -test.fuzzcachedir="$dir/cache" >out 2>&1)
	st=$?
	files=$(ls "$dir/testdata/fuzz/$target" 2>/dev/null)
	if [ "$st" -ne 1 ] || [ -z "$files" ] || ! grep -q "Failing input written to testdata/fuzz/$target/" "$dir/out"; then
		bad "$name: fuzzing exit $st, files [$files]"
		sed 's/^/    /' "$dir/out" | tail -20
		return
	fi
	if ! grep -q "$expect" "$dir/out"; then
		bad "$name: fuzzing output lacks '$expect'"
		sed 's/^/    /' "$dir/out" | tail -20
		return
	fi
	f=$(echo "$files" | head -1)
	(cd "$dir" && env "$@" "$bin" -test.run="^$target\$/^$f\$" >rerun 2>&1)
	st=$?
	if [ "$st" -eq 0 ]; then
		bad "$name: testdata/fuzz/$target/$f does not reproduce"
		sed 's/^/    /' "$dir/testdata/fuzz/$target/$f"
		return
	fi
	ok "$name: found, written, reproduces (exit $st)"
}

for t in FuzzUnescape FuzzUnescapeLoop; do
	fuzz_fails "$t-bug2" "$work/cu.test" "$t" "round trip: " XLANG_C_BUG=2
	# Without the planted bug the same file passes: the failure was the
	# C code's, not the harness's.
	f=$(ls "$work/$t-bug2/testdata/fuzz/$t" 2>/dev/null | head -1)
	if [ -n "$f" ]; then
		if (cd "$work/$t-bug2" && "$work/cu.test" -test.run="^$t\$/^$f\$" >/dev/null 2>&1); then
			ok "$t: the written input passes without the bug"
		else
			bad "$t: the written input fails without the bug too"
		fi
	fi
done
for t in FuzzSegv FuzzSegvLoop; do
	fuzz_fails "$t" "$work/crash.test" "$t" "fuzzing process hung or terminated unexpectedly"
	f=$(ls "$work/$t/testdata/fuzz/$t" 2>/dev/null | head -1)
	if [ -n "$f" ] && grep -q "SIGSEGV" "$work/$t/rerun"; then
		ok "$t: the rerun dies of SIGSEGV"
	else
		bad "$t: the rerun does not show SIGSEGV"
	fi
done
fuzz_fails FuzzAbortLoop "$work/crash.test" FuzzAbortLoop "fuzzing process hung or terminated unexpectedly"
if grep -q "SIGABRT" "$work/FuzzAbortLoop/rerun" 2>/dev/null; then
	ok "FuzzAbortLoop: the rerun dies of SIGABRT"
else
	bad "FuzzAbortLoop: the rerun does not show SIGABRT"
fi

# cgofuzz's coordinator on the same Go binary, loop in C.
if [ -n "${CGOFUZZ:-}" ]; then
	d="$work/cgofuzz-loop"
	mkdir -p "$d"
	(cd "$d" && XLANG_C_BUG=2 timeout 120 "$CGOFUZZ" fuzz -fuzz='^FuzzUnescapeLoop$' \
		-fuzztime=60s -fuzzcachedir="$d/cache" "$work/cu.test" >out 2>&1)
	st=$?
	f=$(ls "$d/testdata/fuzz/FuzzUnescapeLoop" 2>/dev/null | head -1)
	if [ "$st" -eq 1 ] && [ -n "$f" ] && grep -q "round trip: " "$d/out" &&
		! (cd "$d" && XLANG_C_BUG=2 "$work/cu.test" -test.run="^FuzzUnescapeLoop\$/^$f\$" >/dev/null 2>&1); then
		ok "cgofuzz fuzz, loop in C: found, written, reproduces"
	else
		bad "cgofuzz fuzz, loop in C: exit $st, file [$f]"
		sed 's/^/    /' "$d/out" | tail -20
	fi
else
	echo "note: CGOFUZZ not set; skipping cgofuzz's coordinator on the Go binary"
fi

# Counted runs pass, with and without Go counters in the binary.
for bin in cu.test cu0.test; do
	d="$work/count-$bin"
	mkdir -p "$d"
	# Go's coordinator may overshoot a count by a few dozen execs (it does
	# with its own Go workers too: 20008-20029 in 6 of 25 runs), so the
	# check is 20000 <= execs < 20100.
	(cd "$d" && "$work/$bin" -test.run='^$' -test.fuzz='^FuzzUnescapeLoop$' \
		-test.fuzztime=20000x -test.fuzzcachedir="$d/cache" >out 2>&1)
	st=$?
	n=$(grep -o 'execs: [0-9]*' "$d/out" | tail -1 | cut -d' ' -f2)
	if [ "$st" -eq 0 ] && grep -q "^PASS" "$d/out" && [ "${n:-0}" -ge 20000 ] && [ "$n" -lt 20100 ]; then
		ok "$bin: 20000x in C passes"
	else
		bad "$bin: 20000x in C"
		sed 's/^/    /' "$d/out" | tail -20
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
