/*
 * ctarget.c: a libFuzzer-style C target with one way for its worker to die
 * per input prefix (tests/coord/deaths/test_deaths.py builds it with `cgofuzz
 * cc -fsanitize=address,fuzzer`): "HEAP" reads past a heap block (an ASan
 * report), "ABORT" calls abort() (SIGABRT, no report), "HANG" never
 * returns, "OOM" keeps 2 GiB resident, "LEAK" loses 32 bytes (a leak,
 * for LeakSanitizer). Other inputs pass.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *volatile keep[2048];
static char *volatile lost;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  if (n >= 4 && memcmp(d, "HEAP", 4) == 0) {
    char *p = malloc(n);
    memcpy(p, d, n);
    volatile char c = p[n + 8];
    (void)c;
    free(p);
  }
  if (n >= 4 && memcmp(d, "LEAK", 4) == 0) {
    lost = malloc(32); /* escapes, then is lost */
    lost = NULL;
  }
  if (n >= 5 && memcmp(d, "ABORT", 5) == 0)
    abort();
  if (n >= 4 && memcmp(d, "HANG", 4) == 0)
    for (volatile int spin = 0;; spin++)
      ;
  if (n >= 3 && memcmp(d, "OOM", 3) == 0)
    for (size_t i = 0; i < 2048; i++) {
      keep[i] = malloc(1 << 20);
      memset(keep[i], 1, 1 << 20);
    }
  return 0;
}
