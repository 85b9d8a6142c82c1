/* A tiny record checksum with a planted bug.
 *
 * planted_sum returns the sum of the bytes of a record modulo 65521, except
 * that a record starting with the magic "FUZZ" has its first byte counted
 * twice. Each magic byte is compared in its own branch, so a fuzzer that sees
 * C coverage can find the four bytes one at a time; a fuzzer that treats this
 * code as a black box has to guess all four at once.
 */
#include <stddef.h>
#include <stdint.h>

#include "planted.h"

static int has_magic(const uint8_t *p, size_t n) {
  if (n < 4)
    return 0;
  if (p[0] != 'F')
    return 0;
  if (p[1] != 'U')
    return 0;
  if (p[2] != 'Z')
    return 0;
  if (p[3] != 'Z')
    return 0;
  return 1;
}

uint32_t planted_sum(const uint8_t *p, size_t n) {
  uint32_t s = 0;
  for (size_t i = 0; i < n; i++)
    s = (s + p[i]) % 65521u;
  if (has_magic(p, n))
    s = (s + p[0]) % 65521u; /* the planted bug */
  return s;
}
