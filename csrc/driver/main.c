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
#include <stddef.h>
#include <stdint.h>

#include "cgofuzz/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
    __attribute__((weak));
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static void libfuzzer_target(cgofuzz_t *t, const cgofuzz_value *v) {
  /* libFuzzer's -1 means "do not add this input to the corpus", the
   * nearest Go notion being a skipped input. */
  if (LLVMFuzzerTestOneInput(v[0].s.data, v[0].s.len) != 0)
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
