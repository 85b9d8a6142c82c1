#!/usr/bin/env bash
# check_symbols.sh LIB: the runtime library that is linked into users' fuzz
# targets must (1) define no global symbol outside the cgofuzz_ namespace
# (besides the SanitizerCoverage hooks, __sanitizer_cov_*), so it cannot
# clash with the code under test, and (2) need nothing but libc.
set -euo pipefail
lib=$1
[ -f "$lib" ] || { echo "no such library: $lib"; exit 1; }

bad=$(nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}' |
      grep -vE '^(cgofuzz_|__sanitizer_cov_)' || true)
if [ -n "$bad" ]; then
  echo "FAIL: $lib defines symbols outside the cgofuzz_ namespace:"
  echo "$bad"
  exit 1
fi
ndef=$(nm -g --defined-only "$lib" | awk 'NF == 3' | wc -l)
[ "$ndef" -gt 0 ] || { echo "FAIL: $lib defines no symbol at all"; exit 1; }

libc=$(ldd /bin/sh | awk '/libc\.so/ {print $3}')
[ -n "$libc" ] || libc=/lib/x86_64-linux-gnu/libc.so.6
# Symbols libc provides, plus what gcc may call implicitly.
avail=$(mktemp)
{ nm -D --defined-only "$libc" | awk '{print $3}' | sed 's/@.*//'
  echo _GLOBAL_OFFSET_TABLE_; echo __stack_chk_fail; } | sort -u > "$avail"
need=$(nm -u "$lib" | awk '{print $2}' | sed 's/@.*//' | sort -u)
missing=$(comm -23 <(echo "$need") "$avail" |
          grep -vE '^(cgofuzz_|__sanitizer_cov_)' || true)
rm -f "$avail"
if [ -n "$missing" ]; then
  echo "FAIL: $lib needs symbols that libc does not provide:"
  echo "$missing"
  exit 1
fi
echo "ok: $ndef global symbols, all cgofuzz_-prefixed; $(echo "$need" | wc -w) undefined, all from libc"
