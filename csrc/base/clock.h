/* clock.h: the one monotonic clock every layer times itself with
 * (time-outs, progress lines, hang watchdogs). Wall-clock time is never
 * used for durations: it jumps. */
#ifndef CGOFUZZ_CLOCK_H
#define CGOFUZZ_CLOCK_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CLOCK_MONOTONIC in nanoseconds / milliseconds / seconds. */
int64_t cgofuzz_mono_ns(void);
int64_t cgofuzz_mono_ms(void);
double cgofuzz_mono_s(void);

#ifdef __cplusplus
}
#endif
#endif
