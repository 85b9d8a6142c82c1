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

/* What the comparison hooks record (cgofuzz_cmp_on_, a mask of these). The
 * worker sets it only while the target runs (cgofuzz_worker_exec_), so the
 * runtime's own memcmp calls are never recorded, and keeps it 0 under Go's
 * coordinator: every hook then costs one load and a branch. */
#define CGOFUZZ_CMP_REC 1 /* the comparison log and the TORC */
#define CGOFUZZ_CMP_VP 2  /* value profile features */
extern int cgofuzz_cmp_on_;

/* Comparison log of the last exec (tracecmp.c), filled by the trace-cmp hooks
 * while CGOFUZZ_CMP_REC is on. Counters wrap: the newest entries win. */
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
extern cgofuzz_cmp_log_ cgofuzz_cmp_log_table_;
/* Starts a new exec's log: empties the comparison log and makes every TORC
 * entry stale (one increment: the TORC itself persists). */
void cgofuzz_cmp_reset_(void);

/* The table of recent compares (torc.c, libFuzzer's TORC): the operands of
 * memcmp, bcmp, strcmp, strncmp, strcasecmp, strncasecmp (both sides, each
 * up to CGOFUZZ_TORC_MAX bytes) and the needles of strstr, strcasestr and
 * memmem, as the sanitizer weak hooks (__sanitizer_weak_hook_*) report them:
 * ASan, MSan and TSan call those from their interceptors, and builds
 * without one of them link libcgofuzz_interceptors.a, which does the same
 * (csrc/runtime/intercept/). An entry's slot is a hash of the call site and
 * of both operands, so one call site comparing against several keywords
 * keeps several entries (an entry goes to the first of CGOFUZZ_TORC_WAYS
 * slots from its hash that holds it already or holds no entry of the
 * current exec); entries persist across execs, and those written by the
 * current exec (gen == cgofuzz_torc_table_.gen) are the fresh ones that
 * input-to-state replacement uses. Written only while CGOFUZZ_CMP_REC is
 * on; the hooks never allocate, lock or call an intercepted function. */
#define CGOFUZZ_TORC_N 128  /* entries, a power of two */
#define CGOFUZZ_TORC_WAYS 4 /* slots an entry may take */
#define CGOFUZZ_TORC_MAX 64 /* bytes kept of each operand */
enum {
  CGOFUZZ_TORC_MEMCMP = 1, /* memcmp and bcmp */
  CGOFUZZ_TORC_STRNCMP,
  CGOFUZZ_TORC_STRCMP,
  CGOFUZZ_TORC_STRNCASECMP,
  CGOFUZZ_TORC_STRCASECMP,
  CGOFUZZ_TORC_STRSTR, /* a needle: only b */
  CGOFUZZ_TORC_STRCASESTR,
  CGOFUZZ_TORC_MEMMEM
};
typedef struct {
  uint64_t gen;  /* cgofuzz_torc_table_.gen when written; 0: never written */
  uint64_t hash; /* of pc and both operands: which slots it may take */
  uintptr_t pc;  /* the caller of the compared function */
  uint8_t fn;    /* CGOFUZZ_TORC_*, which function */
  uint8_t alen, blen; /* alen 0: b is a needle to insert, no operand a */
  uint8_t a[CGOFUZZ_TORC_MAX], b[CGOFUZZ_TORC_MAX];
} cgofuzz_torc_entry_;
typedef struct {
  uint64_t gen;  /* the current exec's generation, >= 1 */
  uint64_t nrec; /* entries written, ever (statistics) */
  cgofuzz_torc_entry_ e[CGOFUZZ_TORC_N];
} cgofuzz_torc_;
extern cgofuzz_torc_ cgofuzz_torc_table_;

/* Value profile (tracecmp.c, torc.c; libFuzzer's -use_value_profile):
 * while CGOFUZZ_CMP_VP is on, each comparison measures how far apart its
 * operands are (integers: the Hamming distance, and separately the bit
 * length of their difference; byte strings: the bytes after the common
 * prefix, up to 7, times 8 plus the Hamming distance of the first
 * differing bytes) and sets the feature bit (call site, distance).
 * cgofuzz_vp_new_ is set when an exec set a bit this process had not seen:
 * the worker keeps such inputs locally, as stepping stones
 * (worker_exact.c). Every new distance counts, not only new minima:
 * measured on a planted x * K == (y ^ C) + D, keeping only minima got
 * stuck in local minima (3 seeds of 7 found it in 30M execs, against 5 to
 * 6 of 7). */
#define CGOFUZZ_VP_SITES (1u << 13)
#define CGOFUZZ_VP_DIST 64 /* distances kept apart; larger ones share 63 */
extern uint64_t cgofuzz_vp_map_[CGOFUZZ_VP_SITES * CGOFUZZ_VP_DIST / 64];
extern int cgofuzz_vp_new_;
static inline void cgofuzz_vp_note_(uintptr_t site, unsigned dist) {
  uintptr_t i = (site & (CGOFUZZ_VP_SITES - 1)) * CGOFUZZ_VP_DIST +
                (dist < CGOFUZZ_VP_DIST ? dist : CGOFUZZ_VP_DIST - 1);
  uint64_t bit = 1ull << (i & 63), *w = &cgofuzz_vp_map_[i >> 6];
  if (!(*w & bit)) {
    *w |= bit;
    cgofuzz_vp_new_ = 1;
  }
}
/* The site index of a call site: 12 bits of a hash of pc, times two. */
static inline uintptr_t cgofuzz_vp_site_(uintptr_t pc) {
  return (uintptr_t)(((uint64_t)pc * 0x9e3779b97f4a7c15ull) >> 52) << 1;
}
/* Bits set in x (by hand: __builtin_popcountll is a libgcc call without
 * -mpopcnt, and the runtime needs only libc). */
static inline unsigned cgofuzz_popcount64_(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

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

/* The persistent auto-dictionary (dict.c): tokens that comparison-guided
 * mutations wrote into inputs that then found new coverage, kept for the
 * life of the worker process and reused as dictionary entries. Bounded: a
 * new token replaces the oldest when full; duplicates are not added. */
#define CGOFUZZ_AUTODICT_N 256
#define CGOFUZZ_AUTODICT_MAX CGOFUZZ_TORC_MAX
typedef struct {
  size_t n, next; /* entries held; where the next one goes once full */
  uint8_t len[CGOFUZZ_AUTODICT_N];
  uint8_t e[CGOFUZZ_AUTODICT_N][CGOFUZZ_AUTODICT_MAX];
} cgofuzz_autodict_;
/* Adds t[0..n) (2 <= n <= CGOFUZZ_AUTODICT_MAX); false if it was there or
 * does not fit. */
bool cgofuzz_autodict_add_(cgofuzz_autodict_ *a, const uint8_t *t, size_t n);

/* The token a mutation wrote (what the auto-dictionary keeps if the input
 * finds coverage); n == 0 when it came from no comparison. */
typedef struct {
  size_t n;
  uint8_t b[CGOFUZZ_AUTODICT_MAX];
} cgofuzz_token_;

/* One mutation of b[0..*len) (room: cap) from the comparison log and the
 * TORC (input-to-state replacement of one operand by the other, insertion
 * or overwrite of an operand), from d or from ad (either may be NULL); r is
 * the caller's private generator. Fills tok (if not NULL) with the bytes a
 * comparison-derived mutation wrote. Returns false if nothing applied. No
 * allocation. */
bool cgofuzz_cmp_mutate_(cgofuzz_pcg *r, const cgofuzz_dict_ *d,
                         const cgofuzz_autodict_ *ad, uint8_t *b, size_t *len,
                         size_t cap, cgofuzz_token_ *tok);
/* cgofuzz_cmp_mutate_ without an auto-dictionary or token. */
bool cgofuzz_dict_mutate_(cgofuzz_pcg *r, const cgofuzz_dict_ *d, uint8_t *b,
                          size_t *len, size_t cap);

/* Leak detection (leak.c), libFuzzer's -detect_leaks: installs the
 * counting malloc/free hooks when want is set and the target has
 * LeakSanitizer; false when it is off. begin/end bracket a run of the
 * target (end: it allocated more than it freed); quiet(true) disables
 * LeakSanitizer for a re-run; check asks LeakSanitizer whether memory
 * leaked now (its report printed) and gives up after many suspects that
 * were not. The worker exits with CGOFUZZ_LEAK_EXIT (core/exact.h) after
 * a leak. */
bool cgofuzz_leak_init_(bool want);
void cgofuzz_leak_begin_(void);
bool cgofuzz_leak_end_(void);
void cgofuzz_leak_quiet_(bool quiet);
bool cgofuzz_leak_check_(void);
/* The re-run of a suspect input (it allocated more than it freed): runs
 * f on vals once more with LeakSanitizer quiet, so that what this run
 * allocates is not reported; true when it passed and again allocated more
 * than it freed (then cgofuzz_leak_check_ decides). */
bool cgofuzz_leak_rerun_(cgofuzz_f *f, cgofuzz_t *t, const cgofuzz_value *vals);
/* cgofuzz_leak_check_ with LeakSanitizer's report appended to out instead
 * of printed (a Go test fails with it as its message). */
bool cgofuzz_leak_check_report_(cgofuzz_buf *out);

/* Worker mode (worker.c): serves fds 3/4/5 for target f until the
 * coordinator closes fd 3 (the dictionary is used only in exact mode).
 * Returns the exit status. */
typedef struct {
  const char *dict;     /* -test.fuzzdict or NULL */
  int64_t timeout_ns;   /* -test.fuzztimeout, -1: default 10 s, 0: none */
  int64_t rss_limit_mb; /* -test.fuzzrsslimitmb, -1: default 2048, 0: none */
  /* -test.fuzzmalloclimitmb: a single malloc this large during an exec is
   * an OOM (sanitizer builds); -1: the RSS limit, 0: none. */
  int64_t malloc_limit_mb;
  /* Report no coverage until the coordinator sends its mask. A Go test
   * binary's coordinator sends one with every call when the binary has Go
   * counters and never otherwise (then any CoverageData would make it
   * panic); a C binary's cgofuzz coordinator instead learns the size from
   * the first CoverageData, so C binaries leave this false. */
  bool wait_for_mask;
  /* The test's name in failure reports ("--- FAIL: name"), NULL: the
   * target's. A Go fuzz test running a C target under another name. */
  const char *name;
  /* -test.fuzzvalueprofile (or CGOFUZZ_VALUE_PROFILE=1 in the environment):
   * comparison distances count as features, locally (worker_exact.c); used
   * only in exact mode. */
  bool value_profile;
  /* -test.fuzzdetectleaks (default true): an input that leaks memory is a
   * crasher, when the target has LeakSanitizer (leak.c). */
  bool detect_leaks;
} cgofuzz_worker_opts_;
int cgofuzz_serve_worker_(cgofuzz_f *f, const cgofuzz_worker_opts_ *o);

#endif
