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

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = harness_file(data, size);
  cli_golaunch g;
  harness_mute(1);
  int rc = cli_golaunch_read(path, &g);
  harness_mute(0);
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
