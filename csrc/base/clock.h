/* clock.h: the one monotonic clock every layer times itself with
 * (time-outs, progress lines, hang watchdogs). Wall-clock time is never
 * used for durations: it jumps. Inline, because a C worker reads it around
 * every exec (millions per second). */
#ifndef CGOFUZZ_CLOCK_H
#define CGOFUZZ_CLOCK_H
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CLOCK_MONOTONIC in nanoseconds / milliseconds / seconds. */
static inline int64_t cgofuzz_mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline int64_t cgofuzz_mono_ms(void) {
  return cgofuzz_mono_ns() / 1000000;
}

static inline double cgofuzz_mono_s(void) {
  return (double)cgofuzz_mono_ns() / 1e9;
}

#ifdef __cplusplus
}
#endif
#endif
