/* A libFuzzer harness, unchanged for cgofuzz: `cgofuzz cc` links it with
 * cgofuzz's runtime, which adopts LLVMFuzzerTestOneInput. */
#include <stddef.h>
#include <stdint.h>

#include "tlv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned sum;
  tlv_sum(data, size, &sum);
  return 0;
}
