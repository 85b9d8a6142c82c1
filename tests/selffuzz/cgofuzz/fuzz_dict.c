/*
 * fuzz_dict.c: self-fuzzing harness (libFuzzer form, built with
 * `cgofuzz cc`) for the dictionary parser and dictionary mutations of C
 * targets (csrc/target_dict.c).
 *
 * The input is loaded as a libFuzzer/AFL dictionary file (through a memfd);
 * when it loads, every entry is applied to a buffer by the dictionary
 * mutator, which must keep the length within the capacity.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pcg.h"
#include "runtime.h"

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = harness_file(data, size);
  cgofuzz_dict_ d;
  memset(&d, 0, sizeof d);
  int rc = cgofuzz_dict_load_(&d, path);
  if (rc == 0) {
    for (size_t i = 0; i < d.n; i++)
      CHECK(d.len[i] <= 8192 && (d.len[i] == 0 || d.e[i] != NULL));
    cgofuzz_pcg r;
    cgofuzz_pcg_seed(&r, size, 1);
    uint8_t buf[256];
    size_t len = size < 64 ? size : 64;
    memcpy(buf, data, len);
    for (int k = 0; k < 16 && d.n; k++) {
      cgofuzz_dict_mutate_(&r, &d, buf, &len, sizeof buf);
      CHECK(len <= sizeof buf);
    }
  }
  cgofuzz_dict_free_(&d);
  return 0;
}
