/*
 * fuzz_records.c: self-fuzzing harness (libFuzzer form, built with
 * `cgofuzz cc`) for the reader of discovery records
 * (csrc/coord/coord_discover.c): the file the fake worker appends the
 * inputs and environment it was sent to ("T len\n", len bytes, "\n"), read
 * back by cgofuzz_coord_discovered. Under `go test -exec cgofuzz` the test
 * binary, not cgofuzz, decides what the fake worker writes, and the file
 * lives in a directory the run shares.
 *
 * The input is the records file (through a memfd, as /proc/self/fd/N). The
 * target name is one with no testdata directory, so no seed is dropped.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coord_discover.h"
#include "gobin_discover.h"

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = harness_file(data, size);
  bool has = cgofuzz_gobin_records_have_input(path);
  cgofuzz_coord_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cgofuzz_err err = {0};
  int rc = cgofuzz_coord_discovered(&cfg, path, "FuzzNoSuchTarget", &err);
  CHECK(rc == 0 || rc == 1 || rc == -1);
  CHECK(rc != 1 || !has);
  CHECK(rc != -1 || err.msg[0]);
  if (rc == 0) {
    /* Every seed is a record's bytes, and arguments were found. */
    CHECK(has && cfg.kinds != NULL);
    size_t total = 0;
    for (size_t i = 0; i < cfg.n_seeds; i++)
      total += cfg.seeds[i].len;
    CHECK(total <= size);
    for (size_t i = 0; i < cfg.n_disc_env; i++)
      CHECK(strchr(cfg.disc_env[i], '=') != NULL);
  }
  cgofuzz_coord_free_discovery(&cfg);
  return 0;
}
