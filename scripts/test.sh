#!/usr/bin/env bash
# test.sh: installs what is needed, then builds and runs every test twice:
# a normal build (build/) and an ASan+UBSan build (build-asan/). Its last
# line is "N passed, N failed" over both runs.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
run_suite() { # NAME BUILDDIR CMAKE_ARGS...
  local name=$1 dir=$2
  shift 2
  echo "=== $name: building in $dir"
  if ! ./scripts/build.sh "$dir" "$@"; then
    echo "=== $name: build failed"
    failed=$((failed + 1))
    return
  fi
  local log
  log=$(mktemp)
  (cd "$dir" && ctest --output-on-failure -j2 --timeout 900) 2>&1 | tee "$log"
  local p f
  p=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' "$log")
  f=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*|Failed|Not Run|Timeout)' "$log")
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
    echo "=== $name: ran no test"
    f=1
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  rm -f "$log"
}

run_suite "release" build -DCMAKE_BUILD_TYPE=RelWithDebInfo
run_suite "asan+ubsan" build-asan -DCMAKE_BUILD_TYPE=Debug -DCGOFUZZ_SANITIZE=ON

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
