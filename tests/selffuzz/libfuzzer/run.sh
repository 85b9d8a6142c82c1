#!/bin/sh
# run.sh [RUNS]: builds the libFuzzer harnesses of the decoders
# (tests/selffuzz/libfuzzer/fuzz_*.c) and runs each for RUNS inputs (default 200000)
# through the pytest suite tests/selffuzz/libfuzzer/test_fuzz_harnesses.py, as ctest does
# (selffuzz/libfuzzer). env: BUILD (default build).
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "${BUILD:-$root/build}" && pwd)
export CGOFUZZ_SOURCE_DIR="$root" CGOFUZZ_BINARY_DIR="$build"
export CGOFUZZ_CLI="${CGOFUZZ:-$build/bin/cgofuzz}"
export CGOFUZZ_FUZZ_RUNS="${1:-200000}"
exec python3 -m pytest "$root/tests/selffuzz/libfuzzer/test_fuzz_harnesses.py" -v
