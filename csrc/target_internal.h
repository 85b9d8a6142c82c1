/*
 * target_internal.h: what the registry, the coverage hooks, the worker
 * server and the test main share. Not installed.
 */
#ifndef CGOFUZZ_TARGET_INTERNAL_H
#define CGOFUZZ_TARGET_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>

#include "cgofuzz/buf.h"
#include "cgofuzz/target.h"

struct cgofuzz_f {
  char *name;
  cgofuzz_fn fn;
  cgofuzz_kind *kinds;
  size_t nkinds;
  cgofuzz_seed_fn seed_fn;
  bool seeded;
  cgofuzz_values *seeds; /* one list per f.Add */
  size_t nseeds;
  struct cgofuzz_f *next;
};

/* Result of one exec of a target function. */
typedef enum {
  CGOFUZZ_RUN_PASS,
  CGOFUZZ_RUN_FAIL,
  CGOFUZZ_RUN_SKIP
} cgofuzz_run;

struct cgofuzz_t {
  const cgofuzz_f *f;
  bool failed, skipped;
  /* Log lines, each "file:line: msg\n", not yet indented. Kept across
   * execs (cleared by the runner) so a hot loop does not reallocate. */
  cgofuzz_buf log;
  jmp_buf jb;
};

/* The registered targets, in registration order. */
cgofuzz_f *cgofuzz_targets_(void);
/* Runs f's seed function once. */
void cgofuzz_target_seed_(cgofuzz_f *f);
/* Runs f->fn(t, vals) once with a fresh result; t->log is cleared first. */
cgofuzz_run cgofuzz_target_exec_(cgofuzz_f *f, cgofuzz_t *t,
                                 const cgofuzz_value *vals);
/* Checks that vals have f's kinds; on mismatch fills err with Go's text. */
int cgofuzz_target_check_(const cgofuzz_f *f, const cgofuzz_values *vals,
                          cgofuzz_err *err);

/* Coverage (coverage.c). The counter vector is every instrumented module's
 * inline 8-bit counters, concatenated in registration order. */
size_t cgofuzz_cov_ncounters_(void);
/* Zeroes all counters (before the first measured exec). */
void cgofuzz_cov_clear_(void);
/* Folds the counters of the exec that just ran into snap[0..len) (Go's
 * bucketing: each counter byte becomes its highest set bit; counter i lands
 * in byte i % len, OR-ed) and zeroes them. snap must be all zero on entry
 * except as noted: the call records which bytes it set so that
 * cgofuzz_cov_snap_reset_ can zero just those. Returns the number of
 * snapshot bytes touched. */
size_t cgofuzz_cov_collect_(uint8_t *snap, size_t len);
/* True if the last collected snapshot has a bit not in mask. */
bool cgofuzz_cov_has_new_(const uint8_t *snap, const uint8_t *mask);
/* Zeroes the snapshot bytes the last collect set. */
void cgofuzz_cov_snap_reset_(uint8_t *snap);

/* Worker mode (worker_server.c): serves fds 3/4/5 for target f until the
 * coordinator closes fd 3. Returns the exit status. */
int cgofuzz_serve_worker_(cgofuzz_f *f);

#endif
