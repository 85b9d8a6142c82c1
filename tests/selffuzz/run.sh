#!/bin/sh
# run.sh: cgofuzz fuzzing its own decoders. Builds the libFuzzer-form
# harnesses (tests/fuzz/fuzz_corpus.c, fuzz_wire.c, tests/selffuzz/
# fuzz_flags.c, fuzz_dict.c) as cgofuzz C targets with `cgofuzz cc
# -fsanitize=address,undefined,fuzzer`, compiling the decoder sources into
# each target so that they are instrumented (the copies in libcgofuzz.a are
# then not pulled in), and fuzzes each with -test.fuzz for a bounded count.
#
#   tests/selffuzz/run.sh [COUNT]     # default 20000 execs per harness
#   KEEP=1 tests/selffuzz/run.sh 3000000   # campaign: new inputs are copied
#                                          # into testdata/selffuzz/<h>/
#   env: CGOFUZZ (default build/bin/cgofuzz), OUT (default build-selffuzz),
#        PARALLEL (default 2), HARNESSES (default: all four)
#
# The seeds and found inputs (go test fuzz v1 files) are in
# testdata/selffuzz/<harness>/; they are replayed first (regression), then
# fuzzed. Exit status: 0 if no harness found anything, 1 otherwise (the
# crasher is left in $OUT/run-<harness>/testdata/fuzz/FuzzLibFuzzer/).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
count=${1:-20000}
cgofuzz=${CGOFUZZ:-$root/build/bin/cgofuzz}
out=${OUT:-$root/build-selffuzz}
par=${PARALLEL:-2}
harnesses=${HARNESSES:-corpus wire flags dict}
mkdir -p "$out"
common="$root/csrc/base/buf.c $root/csrc/core/value.c $root/csrc/base/base64.c"
common="$common $root/csrc/core/isprint_table.c $root/csrc/core/quote.c"
common="$common $root/csrc/core/numfmt.c $root/csrc/base/sha256.c $root/csrc/base/text.c"
status=0
for h in $harnesses; do
  case $h in
  corpus) src=$root/tests/fuzz/fuzz_corpus.c
    extra="$root/csrc/core/codec_decode.c $root/csrc/core/codec_encode.c $root/csrc/core/codec_scan.c" ;;
  wire) src=$root/tests/fuzz/fuzz_wire.c
    extra="$root/csrc/core/json.c $root/csrc/core/wire.c" ;;
  flags) src=$root/tests/selffuzz/fuzz_flags.c
    extra="$root/csrc/cli/flags.c" ;;
  dict) src=$root/tests/selffuzz/fuzz_dict.c
    extra="$root/csrc/runtime/dict.c" ;;
  *) echo "unknown harness $h" >&2; exit 2 ;;
  esac
  bin=$out/selffuzz_$h
  if [ ! -x "$bin" ] || [ -n "$(find "$src" $extra "$cgofuzz" -newer "$bin" 2>/dev/null)" ]; then
    echo "building $bin"
    # shellcheck disable=SC2086
    "$cgofuzz" cc -std=c11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror \
      -fsanitize=address,undefined,fuzzer -fno-sanitize-recover=all \
      -fno-omit-frame-pointer -I"$root/include" -I"$root/csrc/base" -I"$root/csrc/core" -I"$root/csrc/runtime" \
      -I"$root/csrc/cli" "$src" $extra $common -o "$bin"
  fi
  run=$out/run-$h
  rm -rf "$run"
  mkdir -p "$run/testdata/fuzz" "$run/cache"
  cp -r "$root/testdata/selffuzz/$h" "$run/testdata/fuzz/FuzzLibFuzzer"
  echo "fuzzing $h: $count execs"
  rc=0
  (cd "$run" && ASAN_OPTIONS=detect_leaks=1 timeout -s INT $((60 + count / 2000)) \
    "$bin" -test.fuzz=. -test.fuzztime="${count}x" -test.parallel="$par" \
    -test.fuzzcachedir="$run/cache") >"$run/log" 2>&1 || rc=$?
  tail -n 3 "$run/log"
  execs=$(grep -o 'execs: [0-9]*' "$run/log" | tail -n 1 | cut -d' ' -f2)
  echo "selffuzz $h: rc=$rc execs=${execs:-0}"
  if [ $rc -ne 0 ]; then
    status=1
    cat "$run/log"
  fi
  if [ "${KEEP:-}" = 1 ] && [ -d "$run/cache/FuzzLibFuzzer" ]; then
    cp -n "$run/cache/FuzzLibFuzzer/"* "$root/testdata/selffuzz/$h/" 2>/dev/null || true
  fi
done
exit $status
