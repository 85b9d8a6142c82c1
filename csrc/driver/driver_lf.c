/*
 * driver_lf.c: a C target binary given libFuzzer's command line instead of
 * Go's (cgofuzz_lf_wanted): the same binary then behaves as a libFuzzer
 * binary for ClusterFuzz, OSS-Fuzz and ClusterFuzzLite, with cgofuzz's
 * engine underneath (csrc/lf). Its workers are itself, started with Go's
 * worker flags as under -test.fuzz.
 *
 * Which target: libFuzzer binaries have one. A binary with several
 * (cgofuzz_register) fuzzes the one named by $CGOFUZZ_TARGET.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_internal.h"
#include "lf.h"

static cgofuzz_f *pick_target(void) {
  const char *want = getenv("CGOFUZZ_TARGET");
  cgofuzz_f *only = NULL;
  size_t n = 0;
  for (cgofuzz_f *f = cgofuzz_targets_(); f; f = f->next) {
    if (want && *want && strcmp(f->name, want) == 0)
      return f;
    only = f;
    n++;
  }
  if (want && *want) {
    fprintf(stderr, "ERROR: no fuzz target named %s (CGOFUZZ_TARGET)\n", want);
    return NULL;
  }
  if (n == 1)
    return only;
  fprintf(stderr,
          "ERROR: this binary has %zu fuzz targets; name one in "
          "CGOFUZZ_TARGET:",
          n);
  for (cgofuzz_f *f = cgofuzz_targets_(); f; f = f->next)
    fprintf(stderr, " %s", f->name);
  fprintf(stderr, "\n");
  return NULL;
}

int cgofuzz_driver_libfuzzer_(int argc, char **argv) {
  cgofuzz_f *f = pick_target();
  if (!f)
    return 1;
  char self[PATH_MAX];
  cgofuzz_lf_target t = {0};
  cgofuzz_buf *seeds = NULL;
  size_t n_seeds = 0;
  int rc = 1;
  t.binary = cgofuzz_driver_self_path_(argv[0], self, sizeof self);
  t.name = f->name;
  t.kinds = f->kinds;
  t.n_kinds = f->nkinds;
  if (cgofuzz_driver_encode_seeds_(f, &seeds, &n_seeds) == 0) {
    t.seeds = seeds;
    t.n_seeds = n_seeds;
    rc = cgofuzz_lf_main(argc, argv, &t);
  }
  cgofuzz_driver_free_seeds_(seeds, n_seeds);
  return rc;
}
