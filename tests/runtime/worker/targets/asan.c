/* asan.c: a libFuzzer harness with a heap overflow, built by `cgofuzz cc
 * -fsanitize=address,fuzzer` exactly as for libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= 3 && data[0] == 'X') {
    uint8_t *volatile p = malloc(2); /* volatile: not optimised away */
    memcpy(p, data, size);           /* overflows: size >= 3 */
    free(p);
  }
  return 0;
}
