/*
 * target_internal.h: what the registry, the coverage hooks, the worker
 * server and the test main share. Not installed.
 */
#ifndef CGOFUZZ_TARGET_INTERNAL_H
#define CGOFUZZ_TARGET_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>

#include "buf.h"
#include "cgofuzz/target.h"
#include "pcg.h"

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
/* Module i's counters (len bytes), in registration order; NULL past the
 * end. Package gofuzz reads them to report C coverage to Go's fuzzer. */
size_t cgofuzz_cov_nmodules_(void);
uint8_t *cgofuzz_cov_module_(size_t i, size_t *len);
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

/* Comparison log of the last exec (tracecmp.c), filled by the trace-cmp hooks
 * while cgofuzz_cmp_on_ is set. Counters wrap: the newest entries win. */
#define CGOFUZZ_CMP_PAIRS 64
#define CGOFUZZ_CMP_RUNS 8
#define CGOFUZZ_CMP_RUN_MAX 64
typedef struct {
  uintptr_t pc;
  uint64_t a, b;
  unsigned size; /* operand width in bytes */
} cgofuzz_cmp_pair_;
typedef struct {
  uintptr_t pc;
  size_t len;
  int closed; /* ended by a mismatch */
  uint8_t a[CGOFUZZ_CMP_RUN_MAX], b[CGOFUZZ_CMP_RUN_MAX];
} cgofuzz_cmp_run_;
typedef struct {
  size_t npairs, nruns; /* total noted; index modulo the table size */
  cgofuzz_cmp_pair_ pairs[CGOFUZZ_CMP_PAIRS];
  cgofuzz_cmp_run_ runs[CGOFUZZ_CMP_RUNS];
} cgofuzz_cmp_log_;
extern int cgofuzz_cmp_on_;
extern cgofuzz_cmp_log_ cgofuzz_cmp_log;
void cgofuzz_cmp_reset_(void);

/* Dictionaries (dict.c): user entries (libFuzzer/AFL format) and the
 * comparison log, applied to one byte buffer. */
typedef struct {
  uint8_t **e;
  size_t *len, n, cap;
} cgofuzz_dict_;
/* Appends the entries of a libFuzzer/AFL dictionary file; -1 with a
 * message on stderr if it is unreadable or malformed. */
int cgofuzz_dict_load_(cgofuzz_dict_ *d, const char *path);
void cgofuzz_dict_free_(cgofuzz_dict_ *d);
/* One mutation of b[0..*len) (room: cap) from the comparison log of the
 * last exec or from d; r is the caller's private generator. Returns false
 * if nothing applied. No allocation. */
bool cgofuzz_dict_mutate_(cgofuzz_pcg *r, const cgofuzz_dict_ *d, uint8_t *b,
                          size_t *len, size_t cap);

/* Worker mode (worker.c): serves fds 3/4/5 for target f until the
 * coordinator closes fd 3 (the dictionary is used only in exact mode).
 * Returns the exit status. */
typedef struct {
  const char *dict;     /* -test.fuzzdict or NULL */
  int64_t timeout_ns;   /* -test.fuzztimeout, -1: default 10 s, 0: none */
  int64_t rss_limit_mb; /* -test.fuzzrsslimitmb, -1: default 2048, 0: none */
  /* Report no coverage until the coordinator sends its mask. A Go test
   * binary's coordinator sends one with every call when the binary has Go
   * counters and never otherwise (then any CoverageData would make it
   * panic); a C binary's cgofuzz coordinator instead learns the size from
   * the first CoverageData, so C binaries leave this false. */
  bool wait_for_mask;
  /* The test's name in failure reports ("--- FAIL: name"), NULL: the
   * target's. A Go fuzz test running a C target under another name. */
  const char *name;
} cgofuzz_worker_opts_;
int cgofuzz_serve_worker_(cgofuzz_f *f, const cgofuzz_worker_opts_ *o);

#endif
