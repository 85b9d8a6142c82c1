#!/bin/sh
# run.sh: runs the gofuzz pytest suites (tests/go/gofuzz/test_*.py: package
# gofuzz and its examples, gofuzz.FuzzC end to end, docs/gofuzz.md's example)
# against a build directory, as ctest does (tests/CMakeLists.txt, go/gofuzz).
#
#   tests/go/gofuzz/run.sh [PYTEST_ARGS...]   # env: BUILD (default build)
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "${BUILD:-$root/build}" && pwd)
export CGOFUZZ_SOURCE_DIR="$root" CGOFUZZ_BINARY_DIR="$build"
export CGOFUZZ_CLI="${CGOFUZZ:-$build/bin/cgofuzz}"
exec python3 -m pytest "$root/tests/go/gofuzz" -v "$@"
