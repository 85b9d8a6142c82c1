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

/* Bytes kept elsewhere (the loop's pool, below). */
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

/* The parts crossed into mutants, as libFuzzer crosses in any input of
 * its corpus: the worker's finds and the coordinator's picks (its corpus
 * as its schedule samples it), each held once, at most POOL_MAX entries
 * and POOL_BYTES bytes; when full, a random entry makes room. */
#define CGOFUZZ_CGO_POOL_MAX 1024
#define CGOFUZZ_CGO_POOL_BYTES (8u << 20)
typedef struct cgofuzz_cgo_pool {
  cgofuzz_cgo_bytes e[CGOFUZZ_CGO_POOL_MAX];
  size_t n, bytes;
} cgofuzz_cgo_pool;

/* Adds a copy of b's n bytes unless an entry holds them: 1 added, 0 held
 * already (or longer than the pool's bytes), -1 out of memory. */
int cgofuzz_cgo_pool_add(cgofuzz_cgo_pool *p, const uint8_t *b, size_t n,
                         uint64_t *rng);
void cgofuzz_cgo_pool_free(cgofuzz_cgo_pool *p);

/* One mutation of m's bytes; their new length, also left in m->n. */
size_t cgofuzz_cgo_mutate(cgofuzz_cgo_mut *m);

/* The next xorshift64 value of *state (never 0 when *state is not). */
uint64_t cgofuzz_cgo_rand(uint64_t *state);

#ifdef __cplusplus
}
#endif

#endif
