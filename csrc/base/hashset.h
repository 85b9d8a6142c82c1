/*
 * hashset.h: a set of 64-bit hashes (open addressing, linear probing),
 * for "seen this before?" over many keys: candidates already queued,
 * comparisons already tried, COMDAT groups already kept.
 *
 * Invariants: the values are hashes and their low bit is ignored (set
 * before storing, so 0 can mark an empty slot); the table is a power of two
 * at most half full. The zero struct is an empty set.
 */
#ifndef CGOFUZZ_HASHSET_H
#define CGOFUZZ_HASHSET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgofuzz_hashset {
  uint64_t *slot;
  size_t n, cap;
} cgofuzz_hashset;

/* Adds h: 1 when it was not there, 0 when it was, -1 when out of memory
 * (the set as it was). */
int cgofuzz_hashset_add(cgofuzz_hashset *s, uint64_t h);
void cgofuzz_hashset_free(cgofuzz_hashset *s);

#ifdef __cplusplus
}
#endif
#endif
