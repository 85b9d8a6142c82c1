/*
 * fuzz_launcher.c: self-fuzzing harness (libFuzzer form, built with
 * `cgofuzz cc`) for the reader of a Go fuzz target launcher's payload
 * (csrc/cli/golaunch.c, cli_golaunch_read): the trailer at the end of the
 * file, the offsets and lengths it gives, and the metadata records (target,
 * argument kinds, seeds, names) it points at. Every cgofuzz reads its own
 * /proc/self/exe this way at start, and a launcher in $OUT is a file a
 * build wrote.
 *
 * The input is the file (through a memfd, as /proc/self/fd/N). A malformed
 * payload is refused with a message, which goes to /dev/null here
 * (sanitizer reports go to the real stderr).
 */
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

#include "../fuzz/harness_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1, devnull = -1, real_stderr = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  if (memfd < 0) {
    memfd = memfd_create("selffuzz-launcher", MFD_CLOEXEC);
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    real_stderr = fcntl(2, F_DUPFD_CLOEXEC, 3);
    CHECK(memfd >= 0 && devnull >= 0 && real_stderr >= 0);
    __sanitizer_set_report_fd((void *)(intptr_t)real_stderr);
  }
  CHECK(ftruncate(memfd, 0) == 0);
  CHECK(pwrite(memfd, data, size, 0) == (ssize_t)size);
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);
  cli_golaunch g;
  fflush(stderr);
  CHECK(dup2(devnull, 2) == 2);
  int rc = cli_golaunch_read(path, &g);
  fflush(stderr);
  CHECK(dup2(real_stderr, 2) == 2);
  CHECK(rc >= -1 && rc <= 1);
  if (rc == 1) {
    /* The payload lies in the file, before its 80-byte trailer. */
    CHECK(size >= CLI_GOLAUNCH_TRAILER);
    uint64_t room = size - CLI_GOLAUNCH_TRAILER;
    CHECK(g.bin_off <= room && g.bin_len <= room - g.bin_off &&
          g.meta_len == room - g.bin_off - g.bin_len);
    CHECK(g.target && g.target[0] && g.fuzzer && g.n_kinds > 0);
    size_t total = 0;
    for (size_t i = 0; i < g.n_seeds; i++)
      total += g.seeds[i].len;
    CHECK(total <= g.meta_len);
    cli_golaunch_free(&g);
  } else {
    CHECK(g.target == NULL && g.seeds == NULL && g.kinds == NULL);
  }
  return 0;
}
