/* clock.c: CLOCK_MONOTONIC, read once per call (see clock.h). */
#include "clock.h"

#include <time.h>

int64_t cgofuzz_mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t cgofuzz_mono_ms(void) { return cgofuzz_mono_ns() / 1000000; }

double cgofuzz_mono_s(void) { return (double)cgofuzz_mono_ns() / 1e9; }
