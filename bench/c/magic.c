/* magic.c: the planted bug, a magic value behind eight byte comparisons
 * in a loop. Edge coverage gives no gradient toward it (every mismatch
 * leaves the loop through the same edge); comparison feedback (trace-cmp)
 * does. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t magic[8] = {0x4d, 0xa3, 0x17, 0xe2,
                                 0x5c, 0x09, 0xb8, 0x71};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 8)
    return 0;
    /* Kept a loop: unrolled, each byte would be its own branch and edge
     * coverage alone would climb byte by byte. */
#pragma clang loop unroll(disable)
  for (size_t i = 0; i < 8; i++)
    if (data[i] != magic[i])
      return 0;
  abort(); /* found */
}
