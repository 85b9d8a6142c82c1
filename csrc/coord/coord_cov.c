/*
 * coord_cov.c: the coordinator's view of coverage.
 *
 * A Go worker reports coverage as a snapshot of its counters where each
 * byte is reduced to its highest set bit, so one mask bit means "this block
 * ran about 2^k times". The coordinator keeps the OR of everything seen and
 * sends it with every fuzz call; a worker stops a call as soon as it sees a
 * bit outside that mask. All masks have the size of the binary's counter
 * section (gobin_counters.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "coord.h"

size_t cgofuzz_coord_cov_new_bits(const uint8_t *mask, const uint8_t *snap,
                                  size_t n) {
  size_t bits = 0;
  for (size_t i = 0; i < n; i++)
    /* A loop, not __builtin_popcount: that may need libgcc, and the
     * runtime links against libc only. */
    for (unsigned v = (unsigned)(snap[i] & ~mask[i]) & 0xffu; v; v &= v - 1)
      bits++;
  return bits;
}

void cgofuzz_coord_cov_merge(uint8_t *mask, const uint8_t *snap, size_t n) {
  for (size_t i = 0; i < n; i++)
    mask[i] |= snap[i];
}
