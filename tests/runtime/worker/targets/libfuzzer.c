/* libfuzzer.c: an unchanged libFuzzer harness, adopted as FuzzLibFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= 2 && data[0] == 'L' && data[1] == 'F')
    abort();
  return 0;
}
