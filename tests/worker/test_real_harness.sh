#!/usr/bin/env bash
# test_real_harness.sh CGOFUZZ WORKDIR: a libFuzzer harness from a real
# project builds unchanged with `cgofuzz cc` and fuzzes. The project is
# cJSON, from Debian's source package (its fuzzing/cjson_read_fuzzer.c); the
# harness is built with ASan and UBSan the way libFuzzer users build it
# (-fsanitize=address,undefined,fuzzer) and must find new coverage from an
# empty corpus (it needs a 4-byte 0/1 prefix and a NUL terminator first).
set -euo pipefail
cgofuzz=$1
work=$2
mkdir -p "$work/src"
cd "$work/src"
src=$(ls -d cjson-*/ 2>/dev/null | head -n 1 || true)
if [ -z "$src" ]; then
  apt-get source --download-only -q cjson >/dev/null
  dpkg-source -q -x cjson_*.dsc >/dev/null
  src=$(ls -d cjson-*/ | head -n 1)
fi
src=$PWD/${src%/}
harness=$src/fuzzing/cjson_read_fuzzer.c
[ -f "$harness" ] || { echo "FAIL: no $harness"; exit 1; }

cd "$work"
rm -rf run && mkdir run && cd run
"$cgofuzz" cc -g -O1 -fsanitize=address,undefined,fuzzer -I"$src" \
  "$harness" "$src/cJSON.c" -o cjson_read.test
./cjson_read.test -test.list=. | grep -qx FuzzLibFuzzer
out=$(timeout 120 ./cjson_read.test -test.fuzz=. -test.fuzztime=200000x \
  -test.parallel=1 -test.fuzzcachedir="$PWD/cache" 2>&1) || {
  echo "$out"
  echo "FAIL: fuzzing cJSON's harness did not pass"
  exit 1
}
echo "$out" | tail -n 3
n=$(echo "$out" | sed -n 's/.*new interesting: \([0-9]*\).*/\1/p' | tail -n 1)
if [ -z "$n" ] || [ "$n" -lt 20 ]; then
  echo "FAIL: only ${n:-0} new interesting inputs from cJSON's harness"
  exit 1
fi
echo "ok: cJSON's upstream harness built with cgofuzz cc, $n new interesting inputs"
