/*
 * mutator.h: Go's fuzzing mutator, step for step.
 *
 * One call of cgofuzz_mutate picks one value and mutates it the way Go's
 * mutator.mutate does: integers and floats by bounded add/subtract
 * (multiply/divide for floats), bools by a coin flip, and []byte/string by
 * one of Go's 18 byte-slice mutators, retried until one applies.
 *
 * Scratch sharing: Go mutates []byte and string values inside one scratch
 * buffer owned by the mutator, and a mutated []byte value is left pointing
 * at that buffer. When a chain later mutates another []byte or string, the
 * earlier []byte value sees the new bytes (up to its own length). This is
 * visible in the corpus files Go writes, so it is reproduced here: mutated
 * BYTES values borrow m->scratch (flags without CGOFUZZ_VAL_OWNED) and stay
 * valid until cgofuzz_mutator_free. When a call needs a bigger scratch than
 * the current one (max_bytes/n grew), a new one is allocated as in Go and the
 * old one is kept alive for its borrowers until cgofuzz_mutator_free.
 *
 * Ownership of []byte/string values passed in: an OWNED value's bytes belong
 * to the value and this module frees them (BYTES: once copied into the
 * scratch) or reallocates them (STRING: mutated strings are always OWNED).
 * Borrowed bytes are never freed. So a worker that resets its values from
 * the originals before each chain must release owned strings first and copy
 * the originals in as borrowed (flags cleared).
 */
#ifndef CGOFUZZ_MUTATOR_H
#define CGOFUZZ_MUTATOR_H

#include <stddef.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "pcg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Go's shared-memory value capacity (100 MiB): the max_bytes a Go worker
 * passes to mutate, and so the default for replays. */
#define CGOFUZZ_SHM_VALUE_CAP ((size_t)100 << 20)

/* Go applies this many chained mutations before resetting the input. */
#define CGOFUZZ_CHAINED_MUTATIONS 5

typedef struct cgofuzz_mutator {
  cgofuzz_pcg r;
  uint8_t *scratch;
  size_t scratch_cap;
} cgofuzz_mutator;

/* Initialises m with a generator state; scratch starts empty. */
void cgofuzz_mutator_init(cgofuzz_mutator *m, uint64_t state, uint64_t inc);
void cgofuzz_mutator_free(cgofuzz_mutator *m);

/* Applies one mutation to one of vals[0..n). max_bytes is the capacity of
 * the shared-memory value area. Returns 0, or -1 with err set where Go
 * panics (a []byte/string longer than max_bytes/n - 100: "cannot mutate
 * bytes of length N"; n == 0), where Go would loop forever (an empty
 * []byte/string with a scratch capacity below 2), or when out of memory. The
 * generator has then advanced by the draw that picked the value (if n > 0). */
int cgofuzz_mutate(cgofuzz_mutator *m, cgofuzz_value *vals, size_t n,
                   size_t max_bytes, cgofuzz_err *err);

/* Mutates the byte slice b[0..*len) in place with one of Go's byte-slice
 * mutators (retrying until one applies); cap is the room available at b
 * (Go never fills it: a mutation needs len + n < cap). Exposed for C targets
 * that fuzz raw bytes. With *len == 0 and cap < 2 no mutator can apply (Go
 * would loop forever): b is left unchanged. No allocation. */
void cgofuzz_mutate_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                          size_t cap);

#ifdef __cplusplus
}
#endif
#endif
