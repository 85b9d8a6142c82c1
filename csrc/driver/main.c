/*
 * main.c: the main of a C fuzz target binary (library cgofuzz_main).
 *
 * Kept out of libcgofuzz, like libFuzzer's -fsanitize=fuzzer main, so a
 * program with its own main can link the runtime and call
 * cgofuzz_test_main itself. This is also where a libFuzzer harness is
 * adopted: LLVMFuzzerTestOneInput is referenced weakly, so a binary that
 * defines it gets the target FuzzLibFuzzer([]byte) and one that does not
 * links without it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgofuzz/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
    __attribute__((weak));
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* The input as it was before the call, to catch a target that writes to
 * its const input (it would corrupt the mutation chain, and libFuzzer
 * reports it too). ClusterFuzz also reads this message's presence in a
 * binary as "a libFuzzer new enough for two-step merges", which csrc/lf
 * supports. */
static uint8_t *copy;
static size_t copy_cap;

static void libfuzzer_target(cgofuzz_t *t, const cgofuzz_value *v) {
  const uint8_t *data = v[0].s.data;
  size_t len = v[0].s.len;
  if (len > copy_cap) {
    uint8_t *c = realloc(copy, len);
    if (c) {
      copy = c;
      copy_cap = len;
    }
  }
  bool check = len <= copy_cap && len > 0;
  if (check)
    memcpy(copy, data, len);
  /* libFuzzer's -1 means "do not add this input to the corpus", the
   * nearest Go notion being a skipped input. */
  int rc = LLVMFuzzerTestOneInput(data, len);
  if (check && memcmp(copy, data, len) != 0) {
    fprintf(stderr,
            "==%d== ERROR: libFuzzer: fuzz target overwrites its "
            "const input\n",
            (int)getpid());
    abort();
  }
  if (rc != 0)
    cgofuzz_skip(t);
}

int main(int argc, char **argv) {
  if (LLVMFuzzerTestOneInput) {
    static const cgofuzz_kind kinds[] = {CGOFUZZ_BYTES};
    cgofuzz_register("FuzzLibFuzzer", libfuzzer_target, kinds, 1, NULL);
    if (LLVMFuzzerInitialize)
      LLVMFuzzerInitialize(&argc, &argv);
  }
  return cgofuzz_test_main(argc, argv);
}
