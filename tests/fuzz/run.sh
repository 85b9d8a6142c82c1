#!/bin/sh
# run.sh: runs each harness built by build.sh for a bounded time or count,
# starting from the seeds in testdata/fuzz-seeds/<harness>/.
#
#   tests/fuzz/run.sh            # 60 seconds per harness
#   tests/fuzz/run.sh 300        # 300 seconds per harness
#   tests/fuzz/run.sh -runs=N    # N inputs per harness
#
# New inputs go to build-fuzz/corpus/<harness>/ (the seed directory is only
# read); crashes are written to build-fuzz/crashes/. Exits non-zero if any
# harness fails.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/build-fuzz}
limit=${1:-60}
case $limit in
-*) bound=$limit ;;
*) bound=-max_total_time=$limit ;;
esac
status=0
ran=0
for bin in "$out"/fuzz_*; do
  [ -x "$bin" ] || continue
  ran=$((ran + 1))
  name=$(basename "$bin")
  seeds=$root/testdata/fuzz-seeds/$name
  work=$out/corpus/$name
  mkdir -p "$work" "$out/crashes"
  dict=
  [ -f "$root/tests/fuzz/$name.dict" ] && dict=-dict=$root/tests/fuzz/$name.dict
  echo "== $name ($bound)"
  # shellcheck disable=SC2086
  if ! "$bin" $bound $dict -max_len=65536 -timeout=30 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$out/crashes/$name-" \
    "$work" "$seeds"; then
    echo "!! $name FAILED"
    status=1
  fi
done
if [ "$ran" -eq 0 ]; then
  echo "no harness found in $out: run tests/fuzz/build.sh first"
  exit 1
fi
exit $status
