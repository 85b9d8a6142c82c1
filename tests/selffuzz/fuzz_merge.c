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

#include "../fuzz/harness_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1, devnull = -1, real_stderr = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  if (memfd < 0) {
    memfd = memfd_create("selffuzz-merge", MFD_CLOEXEC);
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    real_stderr = fcntl(2, F_DUPFD_CLOEXEC, 3);
    CHECK(memfd >= 0 && devnull >= 0 && real_stderr >= 0);
    __sanitizer_set_report_fd((void *)(intptr_t)real_stderr);
  }
  CHECK(ftruncate(memfd, 0) == 0);
  CHECK(pwrite(memfd, data, size, 0) == (ssize_t)size);
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);
  size_t records = 0, counters = 0;
  fflush(stderr);
  CHECK(dup2(devnull, 2) == 2);
  int rc = cgofuzz_lf_merge_control_check(path, "FuzzX", &records, &counters);
  fflush(stderr);
  CHECK(dup2(real_stderr, 2) == 2);
  CHECK(rc == 0 || rc == -1);
  /* Every record line is at least 70 bytes ("R ", 64 hex digits, ...). */
  CHECK(rc != 0 || records <= size / 70);
  CHECK(rc != 0 || counters <= (1ull << 32));
  return 0;
}
