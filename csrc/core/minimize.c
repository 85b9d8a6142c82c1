/*
 * minimize.c: Go's minimizeBytes, candidate for candidate.
 *
 * Phases, in Go's order: (1) cut the tail by 1024, 512, ..., 1 bytes while
 * that stays interesting; (2) remove single bytes, re-trying the same index
 * after a success; (3) remove ranges v[i:j), j from the end down to i+2,
 * where after a success j restarts from the new end minus one (Go's loop
 * sets j = len(v) and then decrements); (4) replace each byte by the first
 * of Go's printable characters that stays interesting.
 *
 * should_stop() is polled exactly where Go polls it (before every candidate
 * of phases 1-3 and before each byte of phase 4), and try() sees the same
 * candidates, so a try() that counts executions stops at the same point.
 *
 * Result: Go's caller ends up holding the last successful candidate; Go's
 * deferred copy of v into its temporary buffer makes that equal to v, so
 * the result is v[0..returned length) whichever phase succeeded last.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "minimize.h"

/* Tried in this order; the first one that stays interesting wins. */
static const char printable[] = "012789ABCXYZabcxyz !\"#$%&'()*+,.";

size_t cgofuzz_minimize_bytes(uint8_t *v, size_t len,
                              cgofuzz_minimize_try_fn try_fn,
                              cgofuzz_minimize_stop_fn stop_fn, void *ctx) {
  uint8_t *tmp = malloc(len ? len : 1);
  if (!tmp)
    return (size_t)-1;

  /* Phase 1: tail cuts; the candidate is a prefix of v itself. */
  for (size_t n = 1024; n != 0; n /= 2) {
    while (len > n) {
      if (stop_fn(ctx))
        goto out;
      if (!try_fn(ctx, v, len - n))
        break;
      len -= n;
    }
  }

  /* Phase 2: drop v[i]; on success stay at i, which now holds a new byte. */
  for (size_t i = 0; i + 1 < len;) {
    if (stop_fn(ctx))
      goto out;
    memcpy(tmp, v, i);
    memcpy(tmp + i, v + i + 1, len - i - 1);
    if (try_fn(ctx, tmp, len - 1)) {
      memmove(v + i, v + i + 1, len - i - 1);
      len--;
    } else {
      i++;
    }
  }

  /* Phase 3: drop v[i:j). tmp keeps v[:i] for the whole inner loop. */
  for (size_t i = 0; i + 1 < len; i++) {
    memcpy(tmp, v, i);
    /* Signed: after removing everything from i == 0, j becomes -1. */
    for (ptrdiff_t j = (ptrdiff_t)len; j > (ptrdiff_t)i + 1; j--) {
      if (stop_fn(ctx))
        goto out;
      size_t tail = len - (size_t)j;
      memcpy(tmp + i, v + j, tail);
      if (!try_fn(ctx, tmp, i + tail))
        continue;
      memmove(v + i, v + j, tail);
      len = i + tail;
      j = (ptrdiff_t)len; /* the loop's decrement makes the next j len - 1 */
    }
  }

  /* Phase 4: make bytes printable where that stays interesting. */
  for (size_t i = 0; i < len; i++) {
    if (stop_fn(ctx))
      goto out;
    uint8_t orig = v[i];
    for (const char *pc = printable; *pc; pc++) {
      v[i] = (uint8_t)*pc;
      if (try_fn(ctx, v, len))
        break;
      v[i] = orig;
    }
  }

out:
  free(tmp);
  return len;
}
