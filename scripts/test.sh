#!/usr/bin/env bash
# test.sh: installs what is needed, then builds and runs every test twice:
# a normal build (build/) and an ASan+UBSan build (build-asan/). Each case
# counts once (gtest cases and pytest cases alike, see scripts/tally.py);
# skipped cases are listed with their reason. Its last line is
# "N passed, N failed, N skipped" over both builds.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
skipped=0
run_suite() { # NAME BUILDDIR CMAKE_ARGS...
  local name=$1 dir=$2
  shift 2
  echo "=== $name: building in $dir"
  if ! ./scripts/build.sh "$dir" "$@"; then
    echo "=== $name: build failed"
    failed=$((failed + 1))
    return
  fi
  rm -rf "$dir/pytest" "$dir/ctest.xml"
  mkdir -p "$dir/pytest"
  # ctest schedules by each test's PROCESSORS, so fuzzing suites that use
  # two cores do not run beside each other on a two-core machine.
  (cd "$dir" && ctest --output-on-failure -j2 --timeout 900 \
    --output-junit ctest.xml)
  local out line p f s
  # (Not `tee /dev/stderr`: when stderr is a file, that reopens and
  # truncates it.)
  out=$(python3 scripts/tally.py "$dir/ctest.xml" "$dir/pytest" "$name")
  echo "$out"
  line=$(echo "$out" | tail -n 1)
  read -r p f s <<<"$(echo "$line" | sed -E 's/^[^:]*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/')"
  if ! [[ "$p" =~ ^[0-9]+$ && "$f" =~ ^[0-9]+$ && "$s" =~ ^[0-9]+$ ]]; then
    echo "=== $name: could not tally the results"
    p=0 f=1 s=0
  elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
    echo "=== $name: ran no test"
    f=1
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
}

start=$(date +%s)
run_suite "release" build -DCMAKE_BUILD_TYPE=RelWithDebInfo
run_suite "asan+ubsan" build-asan -DCMAKE_BUILD_TYPE=Debug -DCGOFUZZ_SANITIZE=ON
echo "=== wall time: $(( $(date +%s) - start ))s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
