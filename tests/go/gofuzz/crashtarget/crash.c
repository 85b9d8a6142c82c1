/* C targets that crash on some inputs (see crashtarget.go). */
#include <stdlib.h>
#include <string.h>

#include "cgofuzz/target.h"

static void seeds(cgofuzz_f *f) { cgofuzz_add(f, "ab", (size_t)2, (int64_t)1); }

/* A wild write through a pointer the input controls, once the input has
 * grown past 6 bytes and n is odd: easy for the mutator to reach. */
static void segv(cgofuzz_t *t, const cgofuzz_value *v) {
  (void)t;
  if (v[0].s.len > 6 && (v[1].i & 1)) {
    volatile int *p = (volatile int *)(uintptr_t)v[0].s.len;
    *p = 1;
  }
}
CGOFUZZ_TARGET(FuzzSegv, seeds, segv, CGOFUZZ_BYTES, CGOFUZZ_INT)

/* abort() on inputs starting with 'Z'. */
static void do_abort(cgofuzz_t *t, const cgofuzz_value *v) {
  (void)t;
  if (v[0].s.len > 0 && v[0].s.data[0] == 'Z')
    abort();
}
CGOFUZZ_TARGET(FuzzAbort, seeds, do_abort, CGOFUZZ_BYTES, CGOFUZZ_INT)

/* A leak (for builds with -asan): inputs starting with 'L' allocate a block
 * and drop it. A leak-free input frees what it allocates, so the counting
 * of mallocs and frees sees a leak only on the planted path. */
static void leak(cgofuzz_t *t, const cgofuzz_value *v) {
  (void)t;
  char *volatile p = malloc(16 + v[0].s.len);
  if (!p)
    return;
  p[0] = 0;
  if (v[0].s.len > 0 && v[0].s.data[0] == 'L')
    return;
  free(p);
}
CGOFUZZ_TARGET(FuzzLeak, seeds, leak, CGOFUZZ_BYTES, CGOFUZZ_INT)

/* The same leak for a Go fuzz function that calls C through cgo inside
 * gofuzz.Cover (crashtarget.go's Leak). */
void crashtarget_leak(const unsigned char *p, size_t n) {
  char *volatile q = malloc(16 + n);
  if (!q)
    return;
  q[0] = 0;
  if (n > 0 && p[0] == 'L')
    return;
  free(q);
}
