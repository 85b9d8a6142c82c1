/*
 * fuzz_gocover.c: self-fuzzing harness (libFuzzer form, built with
 * `cgofuzz cc`) for the reader of Go coverage profiles (csrc/cli/gocover.c,
 * cli_prof_read). OSS-Fuzz's coverage run of a launcher reads the profile
 * each input's run of the Go test binary wrote, to merge them: the test
 * binary is the project's, so the file is what it made of it.
 *
 * The input is the file (through a memfd, as /proc/self/fd/N). The reader
 * prints nothing, but stderr is muted as in the other harnesses of files
 * so a later message cannot drown the sanitizers' reports.
 */
#include <stdint.h>
#include <string.h>

#include "gocover.h"

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = harness_file(data, size);
  cli_prof p;
  harness_mute(1);
  int rc = cli_prof_read(path, &p);
  harness_mute(0);
  CHECK(rc >= -1 && rc <= 1);
  if (rc == 1)
    CHECK(p.n == 0 && p.l == NULL && !p.mode[0]);
  if (rc == 0) {
    /* A mode word, then at most one line per newline after it. */
    CHECK(p.mode[0] && memchr(p.mode, '\0', sizeof p.mode));
    size_t lines = 0;
    for (size_t i = 0; i < size; i++)
      lines += data[i] == '\n';
    CHECK(p.n <= lines);
    for (size_t i = 0; i < p.n; i++) {
      CHECK(p.l[i].key && !strchr(p.l[i].key, '\n'));
      CHECK(i == 0 || strcmp(p.l[i - 1].key, p.l[i].key) <= 0);
    }
  }
  cli_prof_free(&p);
  return 0;
}
