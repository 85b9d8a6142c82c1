#!/usr/bin/env bash
# check_symbols.sh LIB: the runtime library that is linked into users' fuzz
# targets must (1) define no global symbol outside the cgofuzz_ namespace
# (besides the SanitizerCoverage hooks, __sanitizer_cov_*, and the sanitizer
# interceptor hooks, __sanitizer_weak_hook_*), so it cannot clash with the
# code under test, and (2) need nothing but libc, besides weak references to
# the sanitizer interface that the leak check and the malloc limit use when
# the target has a sanitizer (__lsan_*,
# __sanitizer_install_malloc_and_free_hooks, __sanitizer_print_stack_trace;
# runtime/leak.c, runtime/worker_watchdog.c; __msan_unpoison, for the cgo
# loop's mutants, runtime/cgo/cgo_loop.c): without one they are NULL.
#
# check_symbols.sh --interceptors LIB: libcgofuzz_interceptors.a must define
# exactly the libc functions it intercepts (memcmp, bcmp, strcmp, strncmp,
# strcasecmp, strncasecmp, strstr, strcasestr, memmem) and need nothing but
# libc and the runtime's __sanitizer_weak_hook_* (referenced weakly).
set -euo pipefail
mode=runtime
if [ "${1:-}" = --interceptors ]; then
  mode=interceptors
  shift
fi
lib=${1:-}
[ -f "$lib" ] || { echo "no such library: $lib"; exit 1; }

defined=$(nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}' | sort -u)
if [ "$mode" = interceptors ]; then
  want=$(printf '%s\n' memcmp bcmp strcmp strncmp strcasecmp strncasecmp \
                       strstr strcasestr memmem | sort)
  if [ "$defined" != "$want" ]; then
    echo "FAIL: $lib must define exactly the intercepted functions:"
    diff <(echo "$want") <(echo "$defined") || true
    exit 1
  fi
  allowed='^__sanitizer_weak_hook_'
else
  bad=$(echo "$defined" |
        grep -vE '^(cgofuzz_|__sanitizer_cov_|__sanitizer_weak_hook_)' || true)
  if [ -n "$bad" ]; then
    echo "FAIL: $lib defines symbols outside the cgofuzz_ namespace:"
    echo "$bad"
    exit 1
  fi
  allowed='^(cgofuzz_|__sanitizer_cov_|__sanitizer_weak_hook_)'
fi
ndef=$(echo "$defined" | grep -c . || true)
[ "$ndef" -gt 0 ] || { echo "FAIL: $lib defines no symbol at all"; exit 1; }

libc=$(ldd /bin/sh | awk '/libc\.so/ {print $3}')
[ -n "$libc" ] || libc=/lib/x86_64-linux-gnu/libc.so.6
# Symbols libc provides, plus what gcc may call implicitly.
avail=$(mktemp)
{ nm -D --defined-only "$libc" | awk '{print $3}' | sed 's/@.*//'
  echo _GLOBAL_OFFSET_TABLE_; echo __stack_chk_fail; } | sort -u > "$avail"
need=$(nm -u "$lib" |
       awk '!($1 == "w" && $2 ~ /^(__lsan_|__msan_unpoison$|__sanitizer_install_malloc_and_free_hooks$|__sanitizer_print_stack_trace$)/) {print $2}' |
       sed 's/@.*//' | sort -u)
missing=$(comm -23 <(echo "$need") "$avail" | grep -vE "$allowed" || true)
rm -f "$avail"
if [ -n "$missing" ]; then
  echo "FAIL: $lib needs symbols that libc does not provide:"
  echo "$missing"
  exit 1
fi
if [ "$mode" = interceptors ]; then
  # The hooks must be weak references: the library works without the
  # runtime (then it only forwards).
  strong=$(nm -u "$lib" | awk '$1 == "U" && $2 ~ /^__sanitizer_weak_hook_/' \
           | sort -u)
  if [ -n "$strong" ]; then
    echo "FAIL: $lib references hooks strongly:"
    echo "$strong"
    exit 1
  fi
  echo "ok: $lib defines exactly the $ndef intercepted functions;" \
       "$(echo "$need" | wc -w) undefined, from libc or weak hooks"
else
  echo "ok: $ndef global symbols, all cgofuzz_- or __sanitizer_-prefixed;" \
       "$(echo "$need" | wc -w) undefined, all from libc"
fi
