/*
 * pcg.h: the PCG-XSH-RR 64/32 generator that Go's fuzzing mutator uses.
 *
 * A worker saves (state, inc) in shared memory before every chain of
 * mutations; a coordinator restores the same pair and replays the chain to
 * rebuild the input that crashed a worker. Every draw below therefore has
 * to consume generator steps exactly as Go's does, including the rejection
 * loop of uint32n and the single draw made for n == 0.
 */
#ifndef CGOFUZZ_PCG_H
#define CGOFUZZ_PCG_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgofuzz_pcg {
  uint64_t state;
  uint64_t inc; /* always odd */
} cgofuzz_pcg;

/* Seeds the generator the way Go seeds a new one from a time value and a
 * stream number (Go uses a process-wide counter starting at 1). */
void cgofuzz_pcg_seed(cgofuzz_pcg *r, uint64_t seed, uint64_t stream);

/* Sets the raw state, as read from shared memory. */
void cgofuzz_pcg_restore(cgofuzz_pcg *r, uint64_t state, uint64_t inc);

uint32_t cgofuzz_pcg_u32(cgofuzz_pcg *r);
/* Uniform in [0, n); n == 0 returns 0 after one draw, as Go does. */
uint32_t cgofuzz_pcg_u32n(cgofuzz_pcg *r, uint32_t n);
bool cgofuzz_pcg_bool(cgofuzz_pcg *r);

#ifdef __cplusplus
}
#endif
#endif
