/*
 * ctarget.c: a C target binary with two Go-style fuzz targets, built by
 * tests/cli/campaign with `cgofuzz cc`: CBug fails on inputs starting with
 * "FUZZ" (seed "hello"; a memcmp, whose operands cgofuzz's comparison
 * feedback sees), CPass never fails.
 */
#include <string.h>

#include "cgofuzz/target.h"

static void seeds(cgofuzz_f *f) { cgofuzz_add(f, "hello", (size_t)5); }

static void fuzz_bug(cgofuzz_t *t, const cgofuzz_value *v) {
  const uint8_t *b = v[0].s.data;
  size_t n = v[0].s.len;
  if (n >= 4 && memcmp(b, "FUZZ", 4) == 0)
    cgofuzz_fatalf(t, "planted bug in CBug: %zu bytes", n);
}
CGOFUZZ_TARGET(FuzzCBug, seeds, fuzz_bug, CGOFUZZ_BYTES)

static void fuzz_pass(cgofuzz_t *t, const cgofuzz_value *v) {
  (void)t;
  (void)v;
}
CGOFUZZ_TARGET(FuzzCPass, seeds, fuzz_pass, CGOFUZZ_BYTES)
