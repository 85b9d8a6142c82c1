/* Receives the ranges of clang's inline 8-bit coverage counters.
 *
 * Code compiled with -fsanitize-coverage=inline-8bit-counters calls
 * __sanitizer_cov_8bit_counters_init(start, stop) from a constructor, once per
 * instrumented object file, before the Go runtime starts. Under external
 * linking all objects of the executable share one output section, so the same
 * range usually arrives many times; it is recorded once.
 */
#include <stddef.h>
#include <stdint.h>

#include "gofuzz_cov.h"

#if defined(__clang__)
#define GOFUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define GOFUZZ_NO_COVERAGE
#endif

static struct {
  uint8_t *lo;
  uint8_t *hi;
} ranges[GOFUZZ_MAX_RANGES];
static int nranges;
static int dropped;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);

GOFUZZ_NO_COVERAGE
void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) {
  if (start == NULL || stop <= start)
    return;
  for (int i = 0; i < nranges; i++)
    if (ranges[i].lo == start && ranges[i].hi == stop)
      return;
  if (nranges == GOFUZZ_MAX_RANGES) {
    dropped++;
    return;
  }
  ranges[nranges].lo = start;
  ranges[nranges].hi = stop;
  nranges++;
}

GOFUZZ_NO_COVERAGE
int gofuzz_cov_nranges(void) { return nranges; }

GOFUZZ_NO_COVERAGE
int gofuzz_cov_dropped(void) { return dropped; }

GOFUZZ_NO_COVERAGE
void *gofuzz_cov_range(int i, size_t *len) {
  if (i < 0 || i >= nranges) {
    *len = 0;
    return NULL;
  }
  *len = (size_t)(ranges[i].hi - ranges[i].lo);
  return ranges[i].lo;
}
