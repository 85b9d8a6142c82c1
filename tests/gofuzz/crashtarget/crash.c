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
