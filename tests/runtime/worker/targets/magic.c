/*
 * magic.c: a planted bug behind eight byte comparisons in a loop. Coverage
 * sees only how many times the loop body ran, in Go's power-of-two buckets
 * (1, 2, 3-4, 5-8 bytes matched...), so Go's mutator would have to guess
 * several bytes at once; comparison tracing reveals them one at a time.
 */
#include "cgofuzz/target.h"

static const unsigned char magic[8] = {0x8f, 0x13, 0xa7, 0x5c,
                                       0xe2, 0x39, 0xd4, 0x6b};

static void magic_seeds(cgofuzz_f *f) {
  cgofuzz_add(f, "hello, world", (size_t)12);
}

static void fuzz_magic(cgofuzz_t *t, const cgofuzz_value *v) {
  const unsigned char *d = v[0].s.data;
  if (v[0].s.len < 8)
    return;
  for (int i = 0; i < 8; i++)
    if (d[i] != magic[i])
      return;
  cgofuzz_fatalf(t, "magic found");
}
CGOFUZZ_TARGET(FuzzMagic, magic_seeds, fuzz_magic, CGOFUZZ_BYTES)
