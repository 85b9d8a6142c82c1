/* hashset.c: a set of 64-bit hashes (hashset.h). */
#include "hashset.h"

#include <stdlib.h>
#include <string.h>

/* The slot of h in a table of cap slots, found or free. */
static size_t probe(const uint64_t *slot, size_t cap, uint64_t h) {
  size_t j = (size_t)(h * 0x9e3779b97f4a7c15ull) & (cap - 1);
  while (slot[j] && slot[j] != h)
    j = (j + 1) & (cap - 1);
  return j;
}

int cgofuzz_hashset_add(cgofuzz_hashset *s, uint64_t h) {
  h |= 1;
  if (2 * (s->n + 1) > s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 256;
    uint64_t *t = calloc(cap, sizeof *t);
    if (!t)
      return -1;
    for (size_t i = 0; i < s->cap; i++)
      if (s->slot[i])
        t[probe(t, cap, s->slot[i])] = s->slot[i];
    free(s->slot);
    s->slot = t;
    s->cap = cap;
  }
  size_t j = probe(s->slot, s->cap, h);
  if (s->slot[j])
    return 0;
  s->slot[j] = h;
  s->n++;
  return 1;
}

void cgofuzz_hashset_free(cgofuzz_hashset *s) {
  free(s->slot);
  memset(s, 0, sizeof *s);
}
