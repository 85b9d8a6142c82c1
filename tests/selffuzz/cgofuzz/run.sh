#!/bin/sh
# run.sh [COUNT]: cgofuzz fuzzing its own decoders, flags, dictionaries and
# readers of files from outside
# through the pytest suite tests/selffuzz/cgofuzz/test_selffuzz.py (registered with
# ctest as selffuzz/cgofuzz), COUNT execs per harness (default 20000).
# env: CGOFUZZ (default build/bin/cgofuzz).
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
cli=${CGOFUZZ:-$root/build/bin/cgofuzz}
export CGOFUZZ_SOURCE_DIR="$root" CGOFUZZ_CLI="$cli"
export CGOFUZZ_BINARY_DIR="${CGOFUZZ_BINARY_DIR:-$(dirname "$(dirname "$cli")")}"
export CGOFUZZ_SELFFUZZ_COUNT="${1:-20000}"
exec python3 -m pytest "$root/tests/selffuzz/cgofuzz/test_selffuzz.py" -v
