/*
 * fuzz_merge.c: self-fuzzing harness (libFuzzer form, built with `cgofuzz
 * cc`) for the reader of the merge control file (csrc/lf/lf_merge.c),
 * which -merge=1 and `cgofuzz corpus merge|prune` resume from. The file
 * sits in the output or corpus directory, so anyone who can write there
 * writes what it reads.
 *
 * The input is the file (through a memfd, as /proc/self/fd/N); it is
 * loaded for target FuzzX as a resumed merge loads it, and its records are
 * replayed into a mask of its counters as the merge replays them. A
 * malformed file is refused with a message, which goes to /dev/null here
 * (sanitizer reports go to the real stderr).
 */
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lf_internal.h"

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = harness_file(data, size);
  size_t records = 0, counters = 0;
  harness_mute(1);
  int rc = cgofuzz_lf_merge_control_check(path, "FuzzX", &records, &counters);
  harness_mute(0);
  CHECK(rc == 0 || rc == -1);
  /* Every record line is at least 70 bytes ("R ", 64 hex digits, ...). */
  CHECK(rc != 0 || records <= size / 70);
  CHECK(rc != 0 || counters <= (1ull << 32));
  return 0;
}
