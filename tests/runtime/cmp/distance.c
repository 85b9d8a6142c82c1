/*
 * distance.c: a bug that only the value profile leads to: x * K ==
 * (y ^ C) + D for two 32-bit words of the input. Neither operand of the
 * comparison is in the input, so input-to-state replacement cannot help,
 * and edge coverage has no gradient; the Hamming distance between the
 * operands does (libFuzzer needs -use_value_profile=1 too).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  if (n < 8)
    return 0;
  uint32_t x, y;
  memcpy(&x, p, 4);
  memcpy(&y, p + 4, 4);
  if (x * 0x9e3779b1u == (y ^ 0x5bd1e995u) + 12345u)
    abort();
  return 0;
}
