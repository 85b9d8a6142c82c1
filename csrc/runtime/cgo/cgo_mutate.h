/*
 * cgo_mutate.h: the cgo loop's mutations (cgo_mutate.c), one per call, on
 * bytes the loop owns. The loop (cgo_loop.c) stacks them into libFuzzer's
 * chains; tests/unit/test_cgo_mutate.cc checks their invariants.
 */
#ifndef CGOFUZZ_CGO_MUTATE_H
#define CGOFUZZ_CGO_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes kept elsewhere (the loop's pool of finds). */
typedef struct cgofuzz_cgo_bytes {
  uint8_t *b;
  size_t n;
} cgofuzz_cgo_bytes;

typedef struct cgofuzz_cgo_mut {
  uint8_t *p; /* n bytes, room for cap; n at least 1 */
  size_t n, cap;
  int fixed;     /* set: the length may not change */
  uint64_t *rng; /* the xorshift state the mutations draw from, not 0 */
  const cgofuzz_cgo_bytes *others; /* parts to cross in; n_others of them */
  size_t n_others;
} cgofuzz_cgo_mut;

/* One mutation of m's bytes; their new length, also left in m->n. */
size_t cgofuzz_cgo_mutate(cgofuzz_cgo_mut *m);

/* The next xorshift64 value of *state (never 0 when *state is not). */
uint64_t cgofuzz_cgo_rand(uint64_t *state);

#ifdef __cplusplus
}
#endif

#endif
