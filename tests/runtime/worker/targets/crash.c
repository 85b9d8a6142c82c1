/*
 * crash.c: every way a target can die, selected by $CRASH_MODE (workers
 * inherit the coordinator's environment). An input starting with 'X' and at
 * least 3 bytes long triggers it, found in a fraction of a second even
 * without coverage; the seed "hello" is harmless, so the crash happens
 * mid-fuzzing and the coordinator must recover the exact input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgofuzz/target.h"

static void crash_seeds(cgofuzz_f *f) { cgofuzz_add(f, "hello", (size_t)5); }

static volatile int sink;
static void *volatile keep; /* so the allocations are not optimised away */

static int recurse(int n) {
  volatile char pad[256];
  pad[0] = (char)n;
  if (sink == -12345) /* never: keeps the compiler quiet about recursion */
    return 0;
  return recurse(n + 1) + pad[0];
}

static void fuzz_crash(cgofuzz_t *t, const cgofuzz_value *v) {
  const unsigned char *d = v[0].s.data;
  if (v[0].s.len < 3 || d[0] != 'X')
    return;
  const char *m = getenv("CRASH_MODE");
  m = m ? m : "";
  if (strcmp(m, "segv") == 0)
    sink = *(volatile int *)(uintptr_t)sink;
  else if (strcmp(m, "abort") == 0)
    abort();
  else if (strcmp(m, "exit0") == 0)
    exit(0);
  else if (strcmp(m, "exit3") == 0)
    exit(3);
  else if (strcmp(m, "stack") == 0)
    sink = recurse(0);
  else if (strcmp(m, "hang") == 0)
    for (;;)
      sink++;
  else if (strcmp(m, "oom") == 0)
    for (;;) {
      char *p = malloc(1 << 20);
      if (p)
        memset(p, 1, 1 << 20);
      keep = p;
    }
  else
    cgofuzz_fatalf(t, "planted failure");
}
CGOFUZZ_TARGET(FuzzCrash, crash_seeds, fuzz_crash, CGOFUZZ_BYTES)
