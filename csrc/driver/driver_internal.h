/* driver_internal.h: what the driver's files share. */
#ifndef CGOFUZZ_DRIVER_INTERNAL_H
#define CGOFUZZ_DRIVER_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

#include "runtime.h"

/* -test.fuzz (driver_fuzz.c): the flags a self-coordinating binary uses. */
typedef struct {
  const char *fuzztime, *mintime, *cachedir;
  int parallel;
  bool verbose;
} cgofuzz_fuzz_opts_;

/* Fuzzes f with cgofuzz's coordinator, workers being argv[0]; returns the
 * exit status (0 PASS, 1 FAIL, 2 usage). */
int cgofuzz_driver_fuzz_(cgofuzz_f *f, int argc, char **argv,
                         const cgofuzz_fuzz_opts_ *o);

/* The path this binary runs its workers from: argv0 when it has a slash,
 * else /proc/self/exe (in buf). */
const char *cgofuzz_driver_self_path_(const char *argv0, char *buf, size_t n);

/* f's f.Add seeds encoded as corpus files (malloc'd array in *out, even on
 * failure; free with cgofuzz_driver_free_seeds_). -1 after printing why. */
int cgofuzz_driver_encode_seeds_(cgofuzz_f *f, cgofuzz_buf **out, size_t *n);
void cgofuzz_driver_free_seeds_(cgofuzz_buf *seeds, size_t n);

/* libFuzzer's command line (driver_lf.c, csrc/lf/lf.h): fuzzes, merges,
 * minimizes or runs files with the binary's one fuzz target (or the one
 * $CGOFUZZ_TARGET names). Returns the exit status. */
int cgofuzz_driver_libfuzzer_(int argc, char **argv);

#endif
