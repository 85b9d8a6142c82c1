/*
 * pcg.c: PCG-XSH-RR 64/32, the generator behind Go's fuzzing mutator.
 *
 * Invariants: every output costs exactly one LCG step (the output is taken
 * from the state *before* the step), and u32n consumes draws exactly like
 * Go's uint32n (Lemire's multiply-shift with a rejection loop that only runs
 * when the low half of the product is below n). A coordinator replays a
 * worker's chain from a saved (state, inc), so any extra or missing draw
 * would rebuild a different input.
 */
#include "pcg.h"

/* The 64-bit LCG multiplier from the PCG reference implementation. */
#define PCG_MULT 6364136223846793005ULL

static inline void pcg_step(cgofuzz_pcg *r) {
  r->state = r->state * PCG_MULT + r->inc;
}

void cgofuzz_pcg_seed(cgofuzz_pcg *r, uint64_t seed, uint64_t stream) {
  /* Go: state = seed, step, state += seed, step; the stream selects an odd
   * increment. */
  r->inc = (stream << 1) | 1;
  r->state = seed;
  pcg_step(r);
  r->state += seed;
  pcg_step(r);
}

void cgofuzz_pcg_restore(cgofuzz_pcg *r, uint64_t state, uint64_t inc) {
  r->state = state;
  r->inc = inc;
}

uint32_t cgofuzz_pcg_u32(cgofuzz_pcg *r) {
  uint64_t x = r->state;
  pcg_step(r);
  uint32_t xorshifted = (uint32_t)(((x >> 18) ^ x) >> 27);
  unsigned rot = (unsigned)(x >> 59);
  /* Rotate right by rot; (32 - rot) & 31 keeps rot == 0 well defined. */
  return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
}

uint32_t cgofuzz_pcg_u32n(cgofuzz_pcg *r, uint32_t n) {
  uint64_t prod = (uint64_t)cgofuzz_pcg_u32(r) * n;
  uint32_t low = (uint32_t)prod;
  /* For n == 0 low is 0 and never below n: one draw, result 0. */
  if (low < n) {
    uint32_t thresh = (0u - n) % n;
    while (low < thresh) {
      prod = (uint64_t)cgofuzz_pcg_u32(r) * n;
      low = (uint32_t)prod;
    }
  }
  return (uint32_t)(prod >> 32);
}

bool cgofuzz_pcg_bool(cgofuzz_pcg *r) {
  /* Go counts an even output as true. */
  return (cgofuzz_pcg_u32(r) & 1) == 0;
}
