/*
 * magma_reset.c: Magma's canary runtime (canary.c, included unchanged) plus
 * a per-input reset of its "faulty" flag, for in-process fuzzers.
 *
 * canary.c stops counting in a process once any canary's condition held
 * (magma_faulty: after a bug triggered, the program state is not to be
 * trusted). Under AFL every input runs in a fresh fork, so that is per
 * input; an in-process engine (libFuzzer, cgofuzz) would stop recording
 * anything for the rest of the campaign after the first trigger. The
 * harness's LLVMFuzzerTestOneInput is compiled as magma_fuzz_target
 * (-DLLVMFuzzerTestOneInput=magma_fuzz_target on its compile line only)
 * and this one clears the flag before each input, identically for both
 * engines. Weak, so configure's test programs, which link magma.o too,
 * still link.
 */
#include "canary.c"

#include <stddef.h>
#include <stdint.h>

int magma_fuzz_target(const uint8_t *data, size_t size) __attribute__((weak));

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  magma_faulty = 0;
  return magma_fuzz_target ? magma_fuzz_target(data, size) : 0;
}
