/*
 * godebug.c: GODEBUG parsing shared by the C workers and the coordinator
 * (the code came from runtime/worker.c; the coordinator needs the same
 * seed, and coord may not call the runtime layer).
 */
#include "godebug.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *cgofuzz_godebug_with_fuzzseed(const char *godebug, uint64_t seed) {
  size_t cap = (godebug ? strlen(godebug) : 0) + 32; /* ",fuzzseed=" + 20 */
  char *out = malloc(cap), *w = out;
  if (!out)
    return NULL;
  for (const char *p = godebug; p && *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && strncmp(p, "fuzzseed=", 9) != 0) {
      memcpy(w, p, n);
      w += n;
      *w++ = ',';
    }
    p = e ? e + 1 : NULL;
  }
  snprintf(w, cap - (size_t)(w - out), "fuzzseed=%" PRIu64, seed);
  return out;
}

bool cgofuzz_godebug_fuzzseed(const char *godebug, uint64_t *seed) {
  *seed = 0;
  for (const char *p = godebug; p && *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    /* "fuzzseed=" with no value is skipped rather than read as 0, so that
     * an empty setting does not silently pin every run to one seed. */
    if (n > 9 && strncmp(p, "fuzzseed=", 9) == 0) {
      *seed = strtoull(p + 9, NULL, 10);
      return true;
    }
    p = e ? e + 1 : NULL;
  }
  return false;
}

bool cgofuzz_godebug_fuzzdebug(const char *godebug) {
  bool on = false;
  for (const char *p = godebug; p && *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n >= 10 && strncmp(p, "fuzzdebug=", 10) == 0)
      on = n == 11 && p[10] == '1';
    p = e ? e + 1 : NULL;
  }
  return on;
}
