/* driver_internal.h: what the driver's files share. */
#ifndef CGOFUZZ_DRIVER_INTERNAL_H
#define CGOFUZZ_DRIVER_INTERNAL_H
#include <stdbool.h>

#include "runtime.h"

/* -test.fuzz (driver_fuzz.c): the flags a self-coordinating binary uses. */
typedef struct {
  const char *fuzztime, *mintime, *cachedir;
  int parallel;
  bool verbose;
} cgofuzz_fuzz_opts_;

/* Fuzzes f with cgofuzz's coordinator, workers being argv[0]; returns the
 * exit status (0 PASS, 1 FAIL, 2 usage). */
int cgofuzz_target_fuzz_(cgofuzz_f *f, int argc, char **argv,
                         const cgofuzz_fuzz_opts_ *o);

#endif
