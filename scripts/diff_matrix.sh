#!/usr/bin/env bash
# diff_matrix.sh: the differential test (tests/core/diff/difftest.py) against every
# Go release cgofuzz follows, go1.18 ... go1.27, and a table of how many
# corpus cases (encode + decode) and mutation replays agree with each
# release's own internal/fuzz. Toolchains missing from the module cache are
# fetched through GOTOOLCHAIN (about 100 MB each, once).
#
# Usage: scripts/diff_matrix.sh [--cdriver PATH] [--cases N] [--seed N]
#                               [--releases "go1.18.10 go1.27.4"]
# Exit status 0 when every case of every release agrees, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cdriver="$here/build/tests/cgofuzz_cdriver"
cases=4000
seed=$(( (RANDOM << 30) ^ (RANDOM << 15) ^ RANDOM ))
releases="go1.18.10 go1.19.13 go1.20.14 go1.21.13 go1.22.12 go1.23.12 go1.24.13 go1.25.14 go1.26.11 go1.27.4"
while [ $# -gt 0 ]; do
  case "$1" in
    --cdriver) cdriver=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --releases) releases=$2; shift 2 ;;
    *) echo "usage: $0 [--cdriver PATH] [--cases N] [--seed N] [--releases LIST]" >&2; exit 2 ;;
  esac
done
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
status=0
rows=()
for rel in $releases; do
  log="$logdir/$rel.txt"
  python3 "$here/tests/core/diff/difftest.py" --cdriver "$cdriver" --goversion "$rel" \
    --seed "$seed" --cases "$cases" >"$log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  # "category: N cases, M agree" lines -> the table's counts.
  row=$(awk -v rel="$rel" -v rc="$rc" '
    /^(encode|decode|mutate|minimize|pcg|wire): [0-9]+ cases, [0-9]+ agree$/ {
      n[$1] = $2; a[$1] = $4 }
    END {
      ct = n["encode:"] + n["decode:"]; ca = a["encode:"] + a["decode:"]
      mt = n["mutate:"]; ma = a["mutate:"]
      ot = n["minimize:"] + n["pcg:"] + n["wire:"]; oa = a["minimize:"] + a["pcg:"] + a["wire:"]
      pc = ct ? 100 * ca / ct : 0; pm = mt ? 100 * ma / mt : 0
      printf "%-10s %7d / %-7d %6.2f%%  %6d / %-6d %6.2f%%  %6d / %-6d  %s\n", rel, ca, ct, pc, \
        ma, mt, pm, oa, ot, rc == 0 ? "ok" : (rc == 1 ? "DISAGREE" : "ERROR")
    }' "$log")
  rows+=("$row")
  echo "$row" >&2
  if [ $rc -ne 0 ]; then
    echo "--- $rel (exit $rc):" >&2
    grep -v '^  ' "$log" | tail -20 >&2
  fi
done
echo "cgofuzz diff matrix: seed $seed, --cases $cases, C driver $cdriver"
printf "%-10s %-25s %-25s %-15s %s\n" release "corpus cases agreeing" "mutation replays agree" "min+pcg+wire" status
for r in "${rows[@]}"; do echo "$r"; done
exit $status
