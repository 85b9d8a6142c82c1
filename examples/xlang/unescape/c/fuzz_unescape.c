/*
 * fuzz_unescape.c: FuzzUnescape as a C target, the twin of the Go target in
 * ../unescape_test.go (same name, same arguments: string, bool; same checks;
 * same "xlang-result:" log line). Run from ../ it reads the shared corpus
 * ../testdata/fuzz/FuzzUnescape. XLANG_C_BUG=1 or 2 plants a bug (see
 * unescape.h) for the runner's tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgofuzz/target.h"
#include "unescape.h"

__attribute__((constructor)) static void read_bug(void) {
  const char *bug = getenv("XLANG_C_BUG");
  xl_bug = bug ? atoi(bug) : 0;
}

static void seeds(cgofuzz_f *f) { cgofuzz_add(f, "a%20b", (size_t)5, 0); }

static void fuzz_unescape(cgofuzz_t *t, const cgofuzz_value *v) {
  const char *s = (const char *)v[0].s.data;
  size_t n = v[0].s.len;
  int plus = v[1].b;
  uint8_t *b = malloc(n + 1);
  char *hex = malloc(2 * n + 1);
  char *esc = malloc(3 * n + 1);
  uint8_t *again = malloc(3 * n + 1);
  if (!b || !hex || !esc || !again) {
    cgofuzz_errorf(t, "out of memory");
    goto out;
  }
  size_t off = 0;
  long len = xl_unescape(s, n, plus, b, &off);
  if (len < 0) {
    cgofuzz_logf(t, "xlang-result: err %zu", off);
    goto out;
  }
  for (long i = 0; i < len; i++)
    snprintf(hex + 2 * i, 3, "%02x", b[i]);
  hex[2 * len] = 0;
  cgofuzz_logf(t, "xlang-result: ok [%s]", hex);
  if ((size_t)len > n) {
    cgofuzz_errorf(t, "decoded %ld bytes from %zu", len, n);
    goto out;
  }
  size_t elen = xl_escape(b, (size_t)len, esc);
  size_t off2 = 0;
  long len2 = xl_unescape(esc, elen, 0, again, &off2);
  if (len2 != len || memcmp(again, b, (size_t)len) != 0)
    cgofuzz_errorf(t, "round trip: %.*s -> [%s] -> %ld bytes", (int)n, s, hex,
                   len2);
out:
  free(b);
  free(hex);
  free(esc);
  free(again);
}
CGOFUZZ_TARGET(FuzzUnescape, seeds, fuzz_unescape, CGOFUZZ_STRING, CGOFUZZ_BOOL)
