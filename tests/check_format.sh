#!/usr/bin/env bash
# check_format.sh: every tracked C/C++ source is clang-format clean
# (LLVM style, .clang-format at the root).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "SKIP: clang-format is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
bad=0
n=0
for f in $(git ls-files '*.c' '*.h' '*.cc'); do
  n=$((n + 1))
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not clang-formatted: $f (run clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
[ "$n" -gt 0 ] || { echo "no sources found"; exit 1; }
echo "$((n - bad)) of $n files formatted"
[ "$bad" -eq 0 ]
