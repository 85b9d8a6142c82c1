/*
 * typed.c: Go-style C fuzz targets for the worker tests.
 *
 * FuzzBytes has the planted bug the Go coordinator must find (an input
 * starting with "FUZ"); it checks byte by byte so that coverage guides the
 * search. FuzzPass never fails (for throughput figures). FuzzMulti takes
 * every kind of argument, to check decoding and typing end to end.
 */
#include <string.h>

#include "cgofuzz/target.h"

static void bytes_seeds(cgofuzz_f *f) { cgofuzz_add(f, "hello", (size_t)5); }

static void fuzz_bytes(cgofuzz_t *t, const cgofuzz_value *v) {
  const uint8_t *b = v[0].s.data;
  size_t n = v[0].s.len;
  if (n > 0 && b[0] == 'F')
    if (n > 1 && b[1] == 'U')
      if (n > 2 && b[2] == 'Z')
        cgofuzz_fatalf(t, "found the bug: %zu bytes", n);
}
CGOFUZZ_TARGET(FuzzBytes, bytes_seeds, fuzz_bytes, CGOFUZZ_BYTES)

static void fuzz_pass(cgofuzz_t *t, const cgofuzz_value *v) {
  (void)t;
  (void)v;
}
CGOFUZZ_TARGET(FuzzPass, bytes_seeds, fuzz_pass, CGOFUZZ_BYTES)

static void multi_seeds(cgofuzz_f *f) {
  cgofuzz_add(f, "s", (size_t)1, (int64_t)1, 1, "\x01", (size_t)1, (uint64_t)3,
              1.5, (int64_t)'x');
}

static void fuzz_multi(cgofuzz_t *t, const cgofuzz_value *v) {
  if (v[0].s.len == 3 && memcmp(v[0].s.data, "BAD", 3) == 0)
    cgofuzz_errorf(t, "bad string, int %lld", (long long)v[1].i);
  if (v[1].i == -7)
    cgofuzz_skip(t);
  cgofuzz_logf(t, "rune %d", (int)v[6].i);
}
CGOFUZZ_TARGET(FuzzMulti, multi_seeds, fuzz_multi, CGOFUZZ_STRING, CGOFUZZ_INT,
               CGOFUZZ_BOOL, CGOFUZZ_BYTES, CGOFUZZ_BYTE, CGOFUZZ_FLOAT64,
               CGOFUZZ_RUNE)
