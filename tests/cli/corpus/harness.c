/*
 * harness.c: the C target of tests/cli/corpus (built with `cgofuzz cc`): a few
 * independent branches for the merge to choose between, a crash ("CRSH":
 * abort), and a way to kill the merge midway: on "KILL", when the file
 * named by $CORPUS_TEST_KILL_FLAG exists, the worker removes it and kills
 * its parent (the merge) with SIGKILL, once.
 * Bytes are compared one by one so each compare is an edge of its own.
 */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  if (n == 4 && d[0] == 'K' && d[1] == 'I' && d[2] == 'L' && d[3] == 'L') {
    const char *flag = getenv("CORPUS_TEST_KILL_FLAG");
    if (flag && unlink(flag) == 0)
      kill(getppid(), SIGKILL);
    return 0;
  }
  if (n == 4 && d[0] == 'C' && d[1] == 'R' && d[2] == 'S' && d[3] == 'H')
    abort();
  if (n > 0 && d[0] == 'a')
    sink = 1;
  if (n > 1 && d[1] == 'b')
    sink = 2;
  if (n > 2 && d[2] == 'c')
    sink = 3;
  if (n > 3 && d[3] == 'd')
    sink = 4;
  if (n > 8)
    sink = 5;
  return 0;
}
