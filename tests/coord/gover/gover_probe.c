/*
 * gover_probe.c: prints what cgofuzz_gobin_gover (coord.h) reads
 * from each binary named on the command line, one line each:
 * "<rc> <release> <version>" (version "-" when none), or
 * "<rc> <release> error: <message>". tests/coord/gover/test_binary_gover.py
 * runs it on test binaries built by several Go releases and on C programs.
 */
#include <stdio.h>

#include "gobin.h"

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    cgofuzz_err err = {0};
    char version[128];
    int g = 0;
    int rc = cgofuzz_gobin_gover(argv[i], &g, &err);
    if (rc < 0) {
      printf("%d %d error: %s\n", rc, g, err.msg);
      continue;
    }
    cgofuzz_err err2 = {0};
    int rc2 = cgofuzz_gobin_goversion(argv[i], version, sizeof version, &err2);
    printf("%d %d %s\n", rc, g, rc2 == 1 ? version : "-");
  }
  return 0;
}
