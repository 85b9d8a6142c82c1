/*
 * godebug.h: the GODEBUG settings cgofuzz honours, parsed once here so
 * that the C workers (runtime layer) and the coordinator (coord layer) read
 * them the same way.
 */
#ifndef CGOFUZZ_GODEBUG_H
#define CGOFUZZ_GODEBUG_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fuzzseed=N setting of godebug (the value of $GODEBUG, which may be
 * NULL): a comma-separated list of key=value settings. As Go's
 * internal/fuzz godebugSeed, the first fuzzseed= setting counts; N is read
 * as an unsigned decimal (a negative N wraps as Go's uint64(int) does).
 * Returns true and sets *seed when it is present with a value, false (and
 * *seed = 0) otherwise. */
bool cgofuzz_godebug_fuzzseed(const char *godebug, uint64_t *seed);

/* The value of GODEBUG with its settings kept but any fuzzseed= replaced
 * by fuzzseed=seed (appended last), malloc'd; NULL when out of memory. */
char *cgofuzz_godebug_with_fuzzseed(const char *godebug, uint64_t seed);

/* Whether godebug sets fuzzdebug=1 (the last fuzzdebug setting counts, as
 * in Go's internal/godebug): Go's coordinator then logs "DEBUG" lines. */
bool cgofuzz_godebug_fuzzdebug(const char *godebug);

#ifdef __cplusplus
}
#endif
#endif
